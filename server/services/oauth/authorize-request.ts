import type { ServerConfig } from '../../config.js';
import type { OAuthClient } from '../../repositories/index.js';
import type { OAuthRepositories } from '../../repositories/index.js';
import { isValidS256Challenge } from './pkce.js';
import { withParams } from './redirect-uri.js';

/** A checked authorization request, ready for the consent page. */
export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state?: string;
  codeChallenge?: string;
}

type AuthorizeCheck =
  /** Cannot trust the redirect URI: show an error page, never redirect (no open redirect). */
  | { kind: 'page'; message: string }
  /** The app is known and the redirect URI registered: tell the app through its redirect URI. */
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; request: AuthorizeRequest };

const MAX_STATE = 1000;

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The redirect that reports an OAuth error to the app, with `state` echoed. */
export function errorRedirect(redirectUri: string, error: string, description: string, state?: string): string {
  return withParams(redirectUri, { error, error_description: description, state });
}

/**
 * Checks `GET /oauth/authorize` (and the consent form that repeats its parameters). The client and
 * redirect URI are checked first: until both are known-good, failures are shown as a page.
 */
export async function checkAuthorizeRequest(store: OAuthRepositories, config: ServerConfig, query: Record<string, unknown>): Promise<AuthorizeCheck> {
  const clientId = single(query.client_id);
  if (!clientId) return { kind: 'page', message: 'The link that brought you here has no client_id (or several), so the application asking for access is unknown.' };
  const client = await store.clients.byClientId(clientId);
  if (!client) return { kind: 'page', message: `No application is registered with the client_id "${clientId}". The link that brought you here is wrong or the application was deleted.` };
  const redirectUri = single(query.redirect_uri);
  if (!redirectUri) return { kind: 'page', message: `The link has no redirect_uri (or several). ${client.name} must send the redirect URL registered in its app settings.` };
  if (!client.redirect_uris.includes(redirectUri)) {
    return {
      kind: 'page',
      message: `The redirect_uri is not one registered for ${client.name}, so this request was stopped: codes are only ever sent to the exact redirect URL registered in the app console.`,
    };
  }

  const rawState = query.state;
  if (rawState !== undefined && (typeof rawState !== 'string' || rawState.length > MAX_STATE)) {
    return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_request', `state must be one text value of at most ${MAX_STATE} characters.`) };
  }
  const state = single(rawState) || undefined;
  const fail = (error: string, description: string): AuthorizeCheck => ({ kind: 'redirect', location: errorRedirect(redirectUri, error, description, state) });

  const responseType = query.response_type;
  if (responseType !== undefined && responseType !== 'code') return fail('unsupported_response_type', 'response_type must be "code".');

  const challenge = query.code_challenge;
  const method = query.code_challenge_method;
  if (challenge !== undefined || method !== undefined) {
    if (typeof challenge !== 'string') return fail('invalid_request', 'code_challenge is missing: send it with code_challenge_method=S256.');
    if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
    if (!isValidS256Challenge(challenge)) return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters).');
  } else if (client.kind === 'public') {
    return fail('invalid_request', 'This application is a public client: it must use PKCE (code_challenge with code_challenge_method=S256).');
  }

  if (client.status !== 'active') return fail('invalid_application_status', 'The application is suspended.');
  // The service's own clients (the bundled extension) are not capped.
  if (client.owner_id !== null) {
    const max = client.max_tokens ?? config.oauth.maxTokensPerApp;
    if ((await store.clients.countLiveAccessTokens(client.client_id)) >= max) {
      return fail('invalid_application_status', 'The application has reached its maximum number of tokens.');
    }
  }
  return { kind: 'ok', request: { client, redirectUri, state, codeChallenge: typeof challenge === 'string' ? challenge : undefined } };
}
