import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import { DuplicateEmailError } from '../repositories/index.js';
import { hashPassword } from './passwords.js';

/**
 * Account changes that need the current password: used by `PUT /user` and the account page. The
 * password is checked by the one PasswordGate, so these count against the sign-in throttle too.
 * Changing the password also ends the user's other sign-ins (see `revokeOtherSignIns`).
 */
export async function changePassword(
  app: FastifyInstance,
  userId: number,
  input: { oldpassword?: string; newpassword: string; ip: string },
  keep: { tokenId?: number; sessionId?: string } = {},
): Promise<void> {
  const user = (await app.repos.users.byId(userId))!;
  if (user.password_hash) {
    await app.services.passwordGate.require(user.email, user.password_hash, input.oldpassword ?? '', input.ip,
      'oldpassword is wrong: the password was not changed. Enter your current password.');
  }
  if (input.newpassword.length < 8) throw badRequest('newpassword must be at least 8 characters.');
  await app.repos.users.update(userId, { passwordHash: await hashPassword(input.newpassword, app.config.passwordHashCost) });
  await revokeOtherSignIns(app, userId, keep);
}

export async function changeEmail(
  app: FastifyInstance,
  userId: number,
  input: { email: string; oldpassword?: string; ip: string },
): Promise<void> {
  const user = (await app.repos.users.byId(userId))!;
  if (user.password_hash) {
    await app.services.passwordGate.require(user.email, user.password_hash, input.oldpassword ?? '', input.ip,
      'oldpassword is wrong: the email was not changed. Enter your current password to change the email.');
  }
  try {
    await app.repos.users.update(userId, { email: input.email.trim() });
  } catch (err) {
    if (err instanceof DuplicateEmailError) throw badRequest('email is already used by another account.');
    throw err;
  }
}

/**
 * Ends every other sign-in of the user: web sessions, and OAuth authorizations (their refresh tokens
 * and the access tokens issued under them). The caller's own session (`sessionId`, the session row
 * id) or OAuth authorization (the grant of `tokenId`) is kept. Test tokens made in the app console
 * are not sign-ins and stay.
 */
async function revokeOtherSignIns(
  app: FastifyInstance,
  userId: number,
  keep: { tokenId?: number; sessionId?: string },
): Promise<{ sessions: number; grants: number }> {
  const store = app.repos.oauth;
  const keepSession = keep.sessionId !== undefined && /^\d+$/.test(keep.sessionId) ? Number(keep.sessionId) : undefined;
  const keepGrant = keep.tokenId !== undefined ? await store.grants.grantOfAccessToken(keep.tokenId) : undefined;
  const sessions = await store.sessions.revokeAllForUser(userId, keepSession);
  const grants = await store.grants.revokeAllForUser(userId, keepGrant);
  return { sessions, grants };
}
