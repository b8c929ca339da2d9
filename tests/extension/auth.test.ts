// Token handling in the background: where tokens live, refresh ahead of expiry and after a 401,
// signing out everywhere when the server refuses the refresh, and the PKCE sign-in.
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { resetExtension } from './helpers/reset.js';
import { resetStorageMemo } from '../../lib/storage/memo.js';
import { Auth, REFRESH_MARGIN_MS } from '../../lib/background/auth.js';
import { OAUTH_CLIENT_ID } from '../../lib/api/extension-identity.js';
import type { Account } from '../../lib/model.js';
import { accountItem, credentialRecord, sessionTokenItem, signedOutReasonItem } from '../../lib/storage/items.js';
import { ScriptedServer } from './helpers/scripted-server.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => server.close());

let now = Date.parse('2026-06-01T12:00:00Z');
let changes: { account: Account | null; reason: string | null; userInitiated: boolean }[];

beforeEach(async () => {
  resetExtension();
  server.reset();
  await credentialRecord.remove();
  changes = [];
  now = Date.parse('2026-06-01T12:00:00Z');
});

const USER = { result: true, user: { _id: 3, fullName: 'Ada Reader', email: 'ada@example.test' } };
const tokenAnswer = (access: string, refresh: string, expiresIn = 1209599) => ({
  status: 200,
  body: { access_token: access, refresh_token: refresh, expires: expiresIn * 1000, expires_in: expiresIn, token_type: 'Bearer' },
});

function auth(launch?: (url: string) => Promise<string>) {
  return new Auth({
    now: () => now,
    launchWebAuthFlow: launch,
    redirectUrl: () => 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/oauth',
    onChange: (account, reason, userInitiated) => changes.push({ account, reason, userInitiated }),
  });
}

/** A flow that "authorizes" at once: redirects back with a code and the state it was given. */
const grant = (code = 'the-code') => async (url: string) => {
  const u = new URL(url);
  return `${u.searchParams.get('redirect_uri')}?code=${code}&state=${u.searchParams.get('state')}`;
};

async function signedIn() {
  server.script('POST /oauth/access_token', tokenAnswer('access-1', 'refresh-1', 3600));
  server.always('GET /rest/v1/user', { status: 200, body: USER });
  const a = auth(grant());
  await a.signInWithOAuth(server.origin);
  return a;
}

describe('OAuth sign-in with PKCE', () => {
  it('exchanges the code with the verifier of the S256 challenge and keeps the tokens out of reach of pages', async () => {
    let authorizeUrl = '';
    server.script('POST /oauth/access_token', tokenAnswer('access-1', 'refresh-1'));
    server.always('GET /rest/v1/user', { status: 200, body: USER });
    const a = auth(async (url) => {
      authorizeUrl = url;
      return grant()(url);
    });
    const account = await a.signInWithOAuth(`${server.origin}/some/path`);
    expect(account).toMatchObject({ userId: 3, name: 'Ada Reader', serverUrl: server.origin, method: 'oauth' });

    const q = new URL(authorizeUrl).searchParams;
    expect(new URL(authorizeUrl).pathname).toBe('/oauth/authorize');
    expect(q.get('client_id')).toBe(OAUTH_CLIENT_ID);
    expect(q.get('code_challenge_method')).toBe('S256');
    const [exchange] = server.requests('POST /oauth/access_token');
    const body = JSON.parse(exchange.body);
    expect(body).toMatchObject({ grant_type: 'authorization_code', code: 'the-code', client_id: OAUTH_CLIENT_ID, redirect_uri: q.get('redirect_uri') });
    expect(createHash('sha256').update(body.code_verifier).digest('base64url')).toBe(q.get('code_challenge'));
    expect(body.client_secret).toBeUndefined();

    // Access token in storage.session, refresh token in the extension's IndexedDB; storage.local has neither.
    expect(await sessionTokenItem.getValue()).toMatchObject({ token: 'access-1', serverUrl: server.origin });
    expect(await credentialRecord.get()).toEqual({ kind: 'oauth', serverUrl: server.origin, refreshToken: 'refresh-1' });
    const local = JSON.stringify(await fakeBrowser.storage.local.get(null));
    expect(local).not.toContain('access-1');
    expect(local).not.toContain('refresh-1');
    expect(changes).toEqual([{ account, reason: null, userInitiated: true }]);
  });

  it('refuses an answer for another sign-in attempt (state) and reports a denial in words', async () => {
    const forged = auth(async (url) => `${new URL(url).searchParams.get('redirect_uri')}?code=x&state=forged`);
    await expect(forged.signInWithOAuth(server.origin)).rejects.toThrow(/did not belong to this sign-in attempt/);
    const denied = auth(async (url) => `${new URL(url).searchParams.get('redirect_uri')}?error=access_denied&state=${new URL(url).searchParams.get('state')}`);
    await expect(denied.signInWithOAuth(server.origin)).rejects.toThrow(/did not allow Tidemark access/);
    const closed = auth(async () => {
      throw new Error('The user did not approve access.');
    });
    await expect(closed.signInWithOAuth(server.origin)).rejects.toThrow(/Sign-in did not finish/);
    expect(server.requests('POST /oauth/access_token')).toHaveLength(0);
    expect(await accountItem.getValue()).toBeNull();
  });
});

describe('refresh', () => {
  it('uses the access token until shortly before it expires, then refreshes (rotating the refresh token)', async () => {
    const a = await signedIn();
    expect(await a.getAccessToken()).toBe('access-1');
    now += 3600_000 - REFRESH_MARGIN_MS + 1000;
    server.script('POST /oauth/access_token', tokenAnswer('access-2', 'refresh-2', 3600));
    expect(await a.getAccessToken()).toBe('access-2');
    const [, refresh] = server.requests('POST /oauth/access_token');
    expect(JSON.parse(refresh.body)).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-1', client_id: OAUTH_CLIENT_ID });
    expect(await credentialRecord.get()).toMatchObject({ refreshToken: 'refresh-2' });
  });

  it('refreshes once for concurrent callers (a rotated refresh token must not be used twice)', async () => {
    const a = await signedIn();
    now += 3600_000;
    server.script('POST /oauth/access_token', tokenAnswer('access-2', 'refresh-2', 3600));
    const tokens = await Promise.all([a.getAccessToken(), a.getAccessToken(), a.getAccessToken()]);
    expect(tokens).toEqual(['access-2', 'access-2', 'access-2']);
    expect(server.requests('POST /oauth/access_token')).toHaveLength(2); // sign-in + one refresh
  });

  it('refreshes after a 401 and repeats the call', async () => {
    const a = await signedIn();
    server.reset();
    server.script('GET /rest/v1/user', { status: 401 }, { status: 200, body: USER });
    server.script('POST /oauth/access_token', tokenAnswer('access-2', 'refresh-2', 3600));
    expect((await a.api.getUser())._id).toBe(3);
    expect(server.requests('GET /rest/v1/user').map((r) => r.headers.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
  });

  it('signs out everywhere, with the reason, when the server refuses the refresh; calls then fail as signed out', async () => {
    const a = await signedIn();
    server.reset();
    server.always('GET /rest/v1/user', { status: 401 });
    server.script('POST /oauth/access_token', { status: 400, body: { error: 'invalid_grant', error_description: 'revoked' } });
    await expect(a.api.getUser()).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(await accountItem.getValue()).toBeNull();
    expect(await sessionTokenItem.getValue()).toBeNull();
    expect(await credentialRecord.get()).toBeUndefined();
    expect(await signedOutReasonItem.getValue()).toMatch(/sign-in has expired/);
    expect(changes.at(-1)).toMatchObject({ account: null, userInitiated: false });
    await expect(a.api.getUser()).rejects.toMatchObject({ kind: 'unauthorized' });
  });

  it('keeps the signed-in state when the refresh fails because the server is unreachable', async () => {
    const a = await signedIn();
    now += 3600_000 + 1;
    server.script('POST /oauth/access_token', 'drop');
    await expect(a.getAccessToken()).rejects.toMatchObject({ kind: 'network' });
    expect(await accountItem.getValue()).not.toBeNull();
    expect(await credentialRecord.get()).toMatchObject({ refreshToken: 'refresh-1' });
  });

  it('makes a new access token from the refresh token after a browser restart (empty storage.session)', async () => {
    const a = await signedIn();
    await fakeBrowser.storage.session.clear();
    resetStorageMemo(); // a new browser session: a new service worker with nothing in memory
    server.script('POST /oauth/access_token', tokenAnswer('access-3', 'refresh-3', 3600));
    expect(await a.getAccessToken()).toBe('access-3');
  });
});

describe('test tokens and sign-out', () => {
  it('checks a pasted test token with GET /user, names the account, and never refreshes it', async () => {
    server.script('GET /rest/v1/user', { status: 401 });
    const a = auth();
    await expect(a.signInWithTestToken(server.origin, 'wrong-token')).rejects.toThrow(/did not accept this token/);
    server.always('GET /rest/v1/user', { status: 200, body: USER });
    const account = await a.signInWithTestToken(server.origin, '  good-token  ');
    expect(account).toMatchObject({ name: 'Ada Reader', method: 'test-token' });
    expect(server.requests('GET /rest/v1/user').at(-1)!.headers.authorization).toBe('Bearer good-token');
    now += 365 * 24 * 3600_000;
    expect(await a.getAccessToken()).toBe('good-token');
    expect(server.requests('POST /oauth/access_token')).toHaveLength(0);
  });

  it('sign-out forgets every token', async () => {
    const a = await signedIn();
    await a.signOut();
    expect(await a.getAccessToken()).toBeNull();
    expect(await credentialRecord.get()).toBeUndefined();
    expect(await sessionTokenItem.getValue()).toBeNull();
    expect(changes.at(-1)).toEqual({ account: null, reason: null, userInitiated: true });
  });
});

describe('the signed-in state kept in memory (every API request needs it)', () => {
  async function warm() {
    const a = await signedIn();
    server.reset();
    server.always('GET /rest/v1/user', { status: 200, body: USER });
    await a.api.getUser();
    return a;
  }
  const lastAuthorization = () => server.requests('GET /rest/v1/user').at(-1)!.headers.authorization;

  it('sends requests without reading extension storage once it knows the account, server and token', async () => {
    const a = await warm();
    const reads = [vi.spyOn(fakeBrowser.storage.local, 'get'), vi.spyOn(fakeBrowser.storage.session, 'get')];
    for (let i = 0; i < 3; i++) await a.api.getUser();
    expect(reads.map((r) => r.mock.calls.length)).toEqual([0, 0]);
    expect(server.requests('GET /rest/v1/user')).toHaveLength(4);
    expect(lastAuthorization()).toBe('Bearer access-1');
  });

  it('after sign-out the next request is refused as signed out and never reaches the server', async () => {
    const a = await warm();
    await a.signOut();
    await expect(a.api.getUser()).rejects.toMatchObject({ kind: 'unauthorized', message: expect.stringMatching(/signed out/) });
    expect(server.requests('GET /rest/v1/user')).toHaveLength(1);
  });

  it('sees a sign-out made by another part of the extension (storage changed underneath)', async () => {
    const a = await warm();
    await fakeBrowser.storage.session.remove('accessToken');
    await fakeBrowser.storage.local.set({ account: null });
    await expect(a.api.getUser()).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(server.requests('GET /rest/v1/user')).toHaveLength(1);
  });

  it('uses a token refreshed by this background at once, and one written by another context on the next request', async () => {
    const a = await warm();
    now += 3600_000;
    server.script('POST /oauth/access_token', tokenAnswer('access-2', 'refresh-2', 3600));
    await a.api.getUser();
    expect(lastAuthorization()).toBe('Bearer access-2');
    await fakeBrowser.storage.session.set({ accessToken: { serverUrl: server.origin, token: 'access-9', expiresAt: now + 3600_000 } });
    await a.api.getUser();
    expect(lastAuthorization()).toBe('Bearer access-9');
  });

  it('sends the next request to a server address changed in storage', async () => {
    const a = await warm();
    const other = await ScriptedServer.start();
    try {
      other.always('GET /rest/v1/user', { status: 200, body: USER });
      const account = (await accountItem.getValue())!;
      await fakeBrowser.storage.session.set({ accessToken: { serverUrl: other.origin, token: 'other-token', expiresAt: null } });
      await fakeBrowser.storage.local.set({ account: { ...account, serverUrl: other.origin } });
      await a.api.getUser();
      expect(other.requests('GET /rest/v1/user').map((r) => r.headers.authorization)).toEqual(['Bearer other-token']);
      expect(server.requests('GET /rest/v1/user')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
