import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Server-rendered pages and OAuth endpoints, mounted at the root: /signin, /account, /oauth/... */
const web: FastifyPluginAsyncTypebox = async (_app) => {};
export default web;
