import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import collaborators from './collaborators.js';
import invite from './invite.js';
import join from './join.js';

/** Sharing (the contract's Sharing table): invitations, join, collaborators, leave and unshare. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(invite);
  await app.register(join);
  await app.register(collaborators);
};
export default routes;
