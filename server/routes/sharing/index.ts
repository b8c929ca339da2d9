import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Sharing: invitations, join, collaborators. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
