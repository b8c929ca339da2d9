import type { FastifyInstance } from 'fastify';
import type { TokenResponse } from '../../../lib/api/types.js';
import { ApiError } from '../../errors.js';
import type { OAuthClient } from '../../repositories/index.js';
import type { IssuedPair } from '../../repositories/index.js';
import { hashSecret, safeEqual } from '../../domain/secrets.js';
import { verifyPkce } from './pkce.js';


/** Parameters of a token request, from a JSON or form body (values may be anything a client sent). */
type TokenParams = Record<string, unknown>;

const oauthError = (status: number, error: string, message: string) => new ApiError(status, message, { error });
const badCode = (why: string) => oauthError(400, 'bad_authorization_code', why);

function text(params: TokenParams, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Client credentials from HTTP Basic auth (RFC 6749 2.3.1), when the client sent them that way. */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unescape = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { clientId: unescape(decoded.slice(0, colon)), clientSecret: unescape(decoded.slice(colon + 1)) };
}

/**
 * Identifies the calling application. Confidential clients must prove their secret (compared in
 * constant time); public clients have none and prove possession with PKCE instead.
 */
async function authenticateClient(app: FastifyInstance, params: TokenParams, authorization?: string): Promise<OAuthClient> {
  const basic = basicCredentials(authorization);
  const clientId = basic?.clientId ?? text(params, 'client_id');
  const clientSecret = basic?.clientSecret ?? text(params, 'client_secret');
  if (!clientId) throw oauthError(400, 'invalid_request', 'client_id is required: send the Client ID from the app console.');
  const { clients } = app.repos.oauth;
  const client = await clients.byClientId(clientId);
  if (!client) throw oauthError(401, 'invalid_client', `No application has the client_id "${clientId}". Check the Client ID in the app console.`);
  if (client.kind === 'confidential') {
    if (!clientSecret) throw oauthError(401, 'invalid_client', 'client_secret is required for this application: send the Client Secret from the app console.');
    if (!client.secret_hash || !safeEqual(hashSecret(clientSecret), client.secret_hash)) {
      throw oauthError(401, 'invalid_client', 'client_secret is wrong. Copy it again from the app console, or regenerate it there.');
    }
  }
  if (client.status !== 'active') {
    throw oauthError(400, 'invalid_application_status', 'This application is suspended and cannot get tokens. Its owner can contact the service operator.');
  }
  return client;
}

function response(app: FastifyInstance, pair: IssuedPair): TokenResponse {
  // Advertise one second less than the true lifetime (the reference service says 1209599 for two
  // weeks), so a client that refreshes at `expires_in` never sends an already-expired token.
  // (Taken from the lifetime, not from "expiry minus now", which can lose a millisecond in between.)
  const expiresIn = Math.max(0, Math.floor((pair.expiresAt - pair.issuedAt) / 1000) - 1);
  return {
    access_token: pair.accessToken,
    refresh_token: pair.refreshToken,
    expires: expiresIn * 1000,
    expires_in: expiresIn,
    token_type: 'Bearer',
  };
}

/** grant_type=authorization_code: a single-use code, bound to the client, redirect URI and PKCE challenge. */
export async function exchangeCode(app: FastifyInstance, params: TokenParams, authorization?: string): Promise<TokenResponse> {
  const client = await authenticateClient(app, params, authorization);
  const code = text(params, 'code');
  if (!code) throw badCode('code is required: send the code your redirect URL received.');
  const store = app.repos.oauth;
  // Everything about the presentation is checked before the code is used up: only a correct
  // exchange by the client it was issued to consumes it, so a wrong redirect_uri, another
  // client or a wrong code_verifier cannot burn the code of the real app.
  const row = await store.codes.find(code);
  if (!row) throw badCode('The authorization code is unknown. Start the authorization again.');
  if (row.client_pk !== client.id) throw badCode('The authorization code was issued to another application.');
  const reused = async () => {
    await store.grants.revokeByCode(row.id);
    return badCode('The authorization code was already used; the tokens issued from it have been revoked. Start the authorization again.');
  };
  if (row.used_at !== null) throw await reused();
  if (row.expires_at <= app.config.clock.now()) {
    throw badCode('The authorization code has expired (codes last 10 minutes). Start the authorization again.');
  }
  if (text(params, 'redirect_uri') !== row.redirect_uri) {
    throw badCode('redirect_uri must be exactly the one sent to /oauth/authorize.');
  }
  const verifier = text(params, 'code_verifier');
  if (row.code_challenge) {
    if (!verifier) throw badCode('code_verifier is required: this authorization used PKCE.');
    if (!verifyPkce(verifier, row.code_challenge)) throw badCode('code_verifier does not match the code_challenge sent to /oauth/authorize.');
  } else if (verifier) {
    throw badCode('code_verifier was sent, but the authorization request had no code_challenge.');
  }
  // Atomic: of two concurrent correct exchanges, one gets the tokens and the other counts as reuse.
  const consumed = await store.codes.consume(code);
  if (!consumed || consumed.used_at !== null) throw await reused();
  const pair = await store.grants.createFromCode({
    clientPk: client.id,
    clientId: client.client_id,
    userId: row.user_id,
    codeId: row.id,
    accessTtlMs: app.config.oauth.accessTokenTtlMs,
  });
  return response(app, pair);
}

/** grant_type=refresh_token: a new access token, and the refresh token rotates (the old one stops working). */
export async function refreshTokens(app: FastifyInstance, params: TokenParams, authorization?: string): Promise<TokenResponse> {
  const client = await authenticateClient(app, params, authorization);
  const refreshToken = text(params, 'refresh_token');
  if (!refreshToken) throw oauthError(400, 'invalid_request', 'refresh_token is required.');
  const store = app.repos.oauth;
  const result = await store.grants.rotate({
    refreshToken,
    clientPk: client.id,
    clientId: client.client_id,
    accessTtlMs: app.config.oauth.accessTokenTtlMs,
  });
  if (!result.ok) {
    const why = {
      unknown: 'The refresh token is unknown.',
      wrong_client: 'The refresh token was issued to another application.',
      revoked: 'The refresh token was revoked (the user signed out everywhere, changed the password or removed the app).',
      replayed: 'The refresh token was already used; every token of this authorization has been revoked.',
    }[result.reason];
    throw oauthError(400, 'invalid_grant', `${why} Ask the user to authorize the app again.`);
  }
  return response(app, result.pair);
}
