import type { FastifyInstance } from 'fastify';
import { TokenResponse } from '../../../lib/api/schemas/oauth.js';
import { ApiError } from '../../errors.js';
import { errorReplies } from '../../routes/error-replies.js';
import { exchangeCode, refreshTokens } from '../../services/oauth/token-grants.js';

/**
 * `POST /oauth/access_token` (JSON or form body): the authorization_code and refresh_token grants.
 * Failures are JSON envelopes with an OAuth `error` code, e.g. 400 `bad_authorization_code`.
 */
export function tokenRoutes(app: FastifyInstance): void {
  app.post('/oauth/access_token', { config: { bucket: 'small' }, schema: { tags: ['oauth'], security: [], response: { 200: TokenResponse, ...errorReplies(400, 401, 403, 404, 413, 414, 415, 429, 500, 503) } } }, async (request, reply) => {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiError(400, 'The body must be a JSON object or a form with grant_type and its fields.', { error: 'invalid_request' });
    }
    const params = body as Record<string, unknown>;
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const auth = request.headers.authorization;
    switch (params.grant_type) {
      case 'authorization_code':
        return exchangeCode(app, params, auth);
      case 'refresh_token':
        return refreshTokens(app, params, auth);
      case undefined:
      case '':
        throw new ApiError(400, 'grant_type is required: authorization_code or refresh_token.', { error: 'invalid_request' });
      default:
        throw new ApiError(400, 'grant_type must be authorization_code or refresh_token.', { error: 'unsupported_grant_type' });
    }
  });
}
