import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import account from './account.js';
import connect from './connect.js';

/** User routes: the account and its stats, and outside accounts connected to it. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(account);
  await app.register(connect);
};
export default routes;
