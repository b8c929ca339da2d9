import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { SessionRow, TokenRow } from '../repositories/index.js';
import { parseCookies } from '../web/cookies.js';
import { ownOrigin } from '../web/origin.js';
import { SESSION_COOKIE } from '../web/session.js';
import { cookieVerdict } from './cookie-auth.js';

const BAD_TOKEN = 'The access token is invalid, revoked or expired. Sign in again or refresh the token.';

/** Reads `Authorization: Bearer <token>`; returns null when the header is absent. */
function bearer(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * Resolves the caller from the bearer token on every API route, or, without an Authorization
 * header, from the web app's session cookie when the request comes from this site's own pages
 * (plugins/cookie-auth.ts decides; a change from another origin is refused with 403, a read from
 * one is anonymous). Routes say `config.auth`:
 * 'required' (the default) answers 401 without a valid token; 'optional' lets anonymous callers
 * through (public collections) but still rejects a bad token.
 *
 * Returns the step the API scope runs first on each request (app.ts runs it and the rate limit in
 * one hook). A failure is not thrown here but kept on the request: the rate limit (next step) counts
 * it per IP and then answers it, so 401s carry rate-limit headers and token guessing is limited.
 * The step answers at once (undefined) when the token is known without asking the database, and a
 * promise only when it must wait.
 */
export function installAuth(app: FastifyInstance): (request: FastifyRequest) => Promise<void> | undefined {
  app.decorateRequest('userId', null);
  app.decorateRequest('token', null);
  app.decorateRequest('authFailure', null);
  app.decorateRequest('webSession', null);
  const { tokens } = app.repos;
  const { sessions } = app.repos.oauth;
  const settle = (request: FastifyRequest, row: TokenRow | undefined): void => {
    if (!row) {
      request.authFailure = new ApiError(401, BAD_TOKEN);
      return;
    }
    request.userId = row.user_id;
    request.token = row;
  };
  const resolve = (request: FastifyRequest, secret: string): Promise<void> | undefined => {
    const found = tokens.findValid(secret);
    if (found instanceof Promise) return found.then((row) => settle(request, row));
    settle(request, found);
    return undefined;
  };
  const settleSession = (request: FastifyRequest, row: SessionRow | undefined): void => {
    if (!row) {
      // An ended session (signed out, here or everywhere) is as good as none.
      request.authFailure = new ApiError(401, 'Your session has ended: sign in again.');
      return;
    }
    request.userId = row.user_id;
    request.webSession = row;
  };
  /** The session cookie's answer, or undefined when the request carries none. */
  const fromCookie = (request: FastifyRequest, mode: 'required' | 'optional'): Promise<void> | undefined | false => {
    const secret = request.headers.cookie ? parseCookies(request.headers.cookie)[SESSION_COOKIE] : undefined;
    if (!secret) return false;
    const verdict = cookieVerdict(request.method, request.headers, ownOrigin(app, request));
    if (verdict.kind === 'refuse') {
      request.authFailure = new ApiError(403, verdict.reason);
      return undefined;
    }
    if (verdict.kind === 'ignore') {
      if (mode !== 'optional') request.authFailure = new ApiError(401, 'Sign in first: this site\'s sign-in cookie counts only on requests from its own pages; other sites must send an Authorization: Bearer <token> header.');
      return undefined;
    }
    return sessions.findValid(secret).then((row) => {
      if (row || mode !== 'optional') settleSession(request, row);
    });
  };
  return (request) => {
    const mode = request.routeOptions.config?.auth ?? 'required';
    if (mode === 'none') return undefined;
    const secret = bearer(request);
    if (secret === null) {
      const viaCookie = fromCookie(request, mode);
      if (viaCookie !== false) return viaCookie;
      if (mode !== 'optional') request.authFailure = new ApiError(401, 'Sign in first: send an Authorization: Bearer <token> header.');
      return undefined;
    }
    if (!secret) {
      request.authFailure = new ApiError(401, BAD_TOKEN);
      return undefined;
    }
    return resolve(request, secret);
  };
}
