import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { OkEnvelope } from '../../../lib/api/schemas/common.js';
import { ApiError, badRequest } from '../../errors.js';
import { newSecret } from '../../domain/secrets.js';
import { s256 } from '../../services/oauth/pkce.js';
import { isProvider, PROVIDERS, providerSettings, type ProviderName } from '../../services/oauth/providers.js';
import { sessionFromCookie } from '../../web/session.js';

interface PendingConnect {
  userId: number;
  provider: ProviderName;
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

const STATE_TTL_MS = 10 * 60_000;
const MAX_PENDING = 10_000;

const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 50 }) });

function knownProvider(name: string): ProviderName {
  if (!isProvider(name)) throw badRequest(`Unknown provider "${name}": use one of ${PROVIDERS.join(', ')}.`);
  return name;
}

const notConfigured = (provider: string) =>
  badRequest(`provider ${provider} is not configured on this server. The operator must set its client id and secret (TIDEMARK_${provider.toUpperCase()}_CLIENT_ID and _CLIENT_SECRET).`);

/** Reads the outside account's id from a token response, when the provider sends one. */
function accountIdOf(body: Record<string, unknown>): string {
  for (const key of ['account_id', 'user_id', 'uid', 'id']) {
    const value = body[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value).slice(0, 200);
  }
  return '';
}

/**
 * GET /user/connect/{provider}: sends the browser to the provider's OAuth page; its answer comes back
 * to /user/connect/{provider}/callback, which records the connection. GET /user/connect/{provider}/revoke
 * removes it. Browsers signed in on the web pages may start a connection with their session cookie.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const pending = new Map<string, PendingConnect>();

  function remember(entry: PendingConnect): string {
    const now = app.config.clock.now();
    for (const [key, value] of pending) if (value.expiresAt <= now) pending.delete(key);
    while (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
    const state = newSecret();
    pending.set(state, entry);
    return state;
  }

  app.get(
    '/user/connect/:provider',
    { schema: { tags: ['user'], params: ProviderParams }, config: { auth: 'optional' } },
    async (request, reply) => {
      const provider = knownProvider(request.params.provider);
      const userId = request.userId ?? (await sessionFromCookie(app, request))?.user.id;
      if (!userId) throw new ApiError(401, 'Sign in first: send an Authorization: Bearer <token> header, or sign in on the web pages.');
      const settings = providerSettings(app.config.oauthProviders, provider);
      if (!settings) throw notConfigured(provider);
      const origin = app.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
      const redirectUri = `${origin}/rest/v1/user/connect/${provider}/callback`;
      const verifier = newSecret(48);
      const state = remember({ userId, provider, verifier, redirectUri, expiresAt: app.config.clock.now() + STATE_TTL_MS });
      const url = new URL(settings.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', settings.scope);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', s256(verifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return reply.redirect(url.toString(), 302);
    },
  );

  app.get(
    '/user/connect/:provider/callback',
    {
      schema: {
        hide: true,
        params: ProviderParams,
        querystring: Type.Object({
          state: Type.Optional(Type.String({ maxLength: 200 })),
          code: Type.Optional(Type.String({ maxLength: 4000 })),
          error: Type.Optional(Type.String({ maxLength: 200 })),
        }),
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      const provider = knownProvider(request.params.provider);
      const { state, code, error } = request.query;
      const entry = state ? pending.get(state) : undefined;
      if (!entry || entry.provider !== provider || entry.expiresAt <= app.config.clock.now()) {
        throw badRequest('This connection attempt is unknown or expired. Start it again from your account page.');
      }
      pending.delete(state!);
      if (error || !code) return reply.redirect('/account?done=connect-denied#connections', 303);
      const settings = providerSettings(app.config.oauthProviders, provider);
      if (!settings) throw notConfigured(provider);
      let body: Record<string, unknown>;
      try {
        const res = await fetch(settings.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: entry.redirectUri,
            client_id: settings.clientId,
            client_secret: settings.clientSecret,
            code_verifier: entry.verifier,
          }),
          signal: AbortSignal.timeout(10_000),
        });
        body = (await res.json()) as Record<string, unknown>;
        if (!res.ok || typeof body.access_token !== 'string') throw new Error(`status ${res.status}`);
      } catch (err) {
        request.log.warn({ err, provider }, 'provider token exchange failed');
        return reply.redirect('/account?done=connect-failed#connections', 303);
      }
      await app.repos.oauth.connections.connect(entry.userId, provider, accountIdOf(body));
      return reply.redirect('/account?done=connected#connections', 303);
    },
  );

  app.get(
    '/user/connect/:provider/revoke',
    { schema: { tags: ['user'], params: ProviderParams, response: { 200: OkEnvelope } } },
    async (request) => {
      const provider = knownProvider(request.params.provider);
      const connections = app.repos.oauth.connections;
      const had = (await connections.listForUser(request.userId!)).some((c) => c.provider === provider);
      if (!had && !providerSettings(app.config.oauthProviders, provider)) throw notConfigured(provider);
      await connections.disconnect(request.userId!, provider);
      return { result: true as const };
    },
  );
};
export default routes;
