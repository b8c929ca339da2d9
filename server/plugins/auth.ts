import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

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
 */
export function installAuth(app: FastifyInstance): void {
  app.decorateRequest('userId', null);
  app.decorateRequest('token', null);
  app.decorateRequest('authFailure', null);
  // A failure is not thrown here but kept on the request: the rate limit (next hook) counts it per
  // IP and then answers it, so 401s carry rate-limit headers and token guessing is limited.
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth ?? 'required';
    if (mode === 'none') return;
    const secret = bearer(request);
    if (secret === null) {
      if (mode === 'optional') return;
      request.authFailure = new ApiError(401, 'Sign in first: send an Authorization: Bearer <token> header.');
      return;
    }
    const row = secret ? await app.repos.tokens.findValid(secret) : undefined;
    if (!row) {
      request.authFailure = new ApiError(401, 'The access token is invalid, revoked or expired. Sign in again or refresh the token.');
      return;
    }
    request.userId = row.user_id;
    request.token = row;
  });
}
