import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import bulk from './bulk.js';
import list from './list.js';
import item from './item.js';

/** Collection routes: the spec's Collections table. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(list);
  await app.register(item);
  await app.register(bulk);
};
export default routes;
