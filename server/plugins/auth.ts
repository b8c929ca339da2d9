import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { TokenRow } from '../repositories/index.js';

const BAD_TOKEN = 'The access token is invalid, revoked or expired. Sign in again or refresh the token.';

/** Reads `Authorization: Bearer <token>`; returns null when the header is absent. */
function bearer(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * Resolves the caller from the bearer token on every API route. Routes say `config.auth`:
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
  const { tokens } = app.repos;
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
  return (request) => {
    const mode = request.routeOptions.config?.auth ?? 'required';
    if (mode === 'none') return undefined;
    const secret = bearer(request);
    if (secret === null) {
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
