// OAuth 2.0 authorization-code flow with PKCE for a public client (the extension): the URLs and
// token requests. Pure: fetch and Web Crypto only; the browser-specific part (opening the
// authorization window) lives in the background.
import type { TokenResponse } from '../types.js';
import { ApiClientError, messageOf } from './errors.js';
import { readBody } from './http.js';

interface Pkce {
  verifier: string;
  challenge: string;
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Random URL-safe text with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A code verifier (43 characters) and its S256 challenge. */
export async function createPkce(): Promise<Pkce> {
  const verifier = randomToken(32);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

export function authorizeUrl(p: { serverUrl: string; clientId: string; redirectUri: string; state: string; challenge: string }): string {
  const url = new URL('/oauth/authorize', p.serverUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('state', p.state);
  url.searchParams.set('code_challenge', p.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** What the authorization server sent back to the redirect URL. */
type RedirectResult = { code: string } | { error: string; description: string };

/** Reads `code` (checking `state`) or `error` from the URL the flow ended on. */
export function readRedirect(redirectedTo: string, expectedState: string): RedirectResult {
  const url = new URL(redirectedTo);
  const params = url.searchParams;
  const error = params.get('error');
  if (error) {
    const description =
      error === 'access_denied'
        ? 'You did not allow Tidemark access. Sign in again and choose Allow.'
        : params.get('error_description') || `The server refused the sign-in (${error}).`;
    return { error, description };
  }
  if (params.get('state') !== expectedState) {
    return { error: 'state_mismatch', description: 'The sign-in answer did not belong to this sign-in attempt. Try again.' };
  }
  const code = params.get('code');
  if (!code) return { error: 'no_code', description: 'The server did not send an authorization code. Try again.' };
  return { code };
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token stops working. */
  expiresAt: number;
}

async function tokenRequest(serverUrl: string, body: Record<string, string>, fetchImpl: typeof fetch, now: number): Promise<TokenSet> {
  let res: Response;
  try {
    res = await fetchImpl(new URL('/oauth/access_token', serverUrl).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new ApiClientError('network', `Could not reach the Tidemark server at ${new URL(serverUrl).origin} to sign in.`);
  }
  const json = await readBody(res);
  if (!res.ok) {
    // 400/401 mean the code or refresh token is no good: the user has to sign in again.
    const kind = res.status === 400 || res.status === 401 ? 'unauthorized' : 'http';
    throw new ApiClientError(kind, messageOf(res.status, json), res.status, json);
  }
  const t = json as Partial<TokenResponse>;
  if (typeof t?.access_token !== 'string' || typeof t.refresh_token !== 'string') {
    throw new ApiClientError('http', 'The server\'s token answer was not understood.', res.status, json);
  }
  const seconds = typeof t.expires_in === 'number' ? t.expires_in : typeof t.expires === 'number' ? t.expires / 1000 : 3600;
  return { accessToken: t.access_token, refreshToken: t.refresh_token, expiresAt: now + seconds * 1000 };
}

export function exchangeCode(
  p: { serverUrl: string; clientId: string; redirectUri: string; code: string; verifier: string },
  fetchImpl: typeof fetch = fetch,
  now = Date.now(),
): Promise<TokenSet> {
  return tokenRequest(
    p.serverUrl,
    { grant_type: 'authorization_code', code: p.code, client_id: p.clientId, redirect_uri: p.redirectUri, code_verifier: p.verifier },
    fetchImpl,
    now,
  );
}

export function refreshTokens(
  p: { serverUrl: string; clientId: string; refreshToken: string },
  fetchImpl: typeof fetch = fetch,
  now = Date.now(),
): Promise<TokenSet> {
  return tokenRequest(p.serverUrl, { grant_type: 'refresh_token', refresh_token: p.refreshToken, client_id: p.clientId }, fetchImpl, now);
}
