// The token endpoint: code exchange failures, refresh rotation, expiry with an injected clock,
// client authentication and malformed requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { authorizeAs, exchangeCode, registerApp, tokenRequest, WebClient } from '../helpers/web-client.js';

let s: TestServer;
const clock = new TestClock();
let browser: WebClient;
let app: Awaited<ReturnType<typeof registerApp>>;
let other: Awaited<ReturnType<typeof registerApp>>;

beforeAll(async () => {
  s = await startServer({ clock });
  const dev = await s.createUser('dev-tokens@example.test');
  app = await registerApp(s, dev.id, { name: 'Main App', redirectUris: ['https://app.example/callback', 'https://app.example/other'] });
  other = await registerApp(s, dev.id, { name: 'Other App', redirectUris: ['https://other.example/callback'] });
  browser = new WebClient(s.origin);
  expect((await browser.signUp('token-user@example.test', 'token-password')).status).toBe(303);
});
afterAll(async () => s.close());

async function newCode(redirectUri = app.redirectUri, clientId = app.clientId): Promise<string> {
  const redirect = await authorizeAs(browser, { client_id: clientId, redirect_uri: redirectUri });
  return redirect.searchParams.get('code')!;
}

const exchange = (code: string | undefined, overrides: Record<string, unknown> = {}, opts: { form?: boolean } = {}) =>
  exchangeCode(s, app, code, overrides, opts);

describe('code exchange', () => {
  it('accepts a form-encoded body as well as JSON', async () => {
    const res = await exchange(await newCode(), {}, { form: true });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  it('accepts the client credentials as HTTP Basic auth', async () => {
    const code = await newCode();
    const basic = Buffer.from(`${app.clientId}:${app.secret}`).toString('base64');
    const res = await tokenRequest(
      s,
      { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri },
      { headers: { authorization: `Basic ${basic}` } },
    );
    expect(res.status).toBe(200);
  });

  it('a code issued to another client gets bad_authorization_code', async () => {
    const code = await newCode();
    const res = await exchange(code, { client_id: other.clientId, client_secret: other.secret });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, status: 400, error: 'bad_authorization_code' });
  });

  it('a different redirect_uri (even another registered one) gets bad_authorization_code', async () => {
    for (const redirect of ['https://app.example/other', 'https://app.example/callback/', undefined]) {
      const res = await exchange(await newCode(), { redirect_uri: redirect });
      expect(res.status, String(redirect)).toBe(400);
      expect(res.body.error).toBe('bad_authorization_code');
    }
  });

  it('a code older than 10 minutes gets bad_authorization_code; one just inside works', async () => {
    const fresh = await newCode();
    clock.advance(9 * 60_000 + 59_000);
    expect((await exchange(fresh)).status).toBe(200);

    const old = await newCode();
    clock.advance(10 * 60_000);
    const res = await exchange(old);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_authorization_code');
    expect(res.body.errorMessage).toMatch(/expired/);
  });

  it('a reused code gets bad_authorization_code and revokes the tokens issued from it', async () => {
    const code = await newCode();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect((await s.api('GET', '/user', { token: first.body.access_token })).status).toBe(200);

    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('bad_authorization_code');

    expect((await s.api('GET', '/user', { token: first.body.access_token })).status).toBe(401);
    const refresh = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret, refresh_token: first.body.refresh_token });
    expect(refresh.status).toBe(400);
  });

  it('unknown, missing or non-text codes get bad_authorization_code, never a 5xx', async () => {
    for (const code of ['not-a-real-code', undefined, '', 12345, ['a'], { $ne: 1 }]) {
      const res = await exchange(code as string);
      expect(res.status, JSON.stringify(code)).toBe(400);
      expect(res.body.error).toBe('bad_authorization_code');
    }
  });

  it('a wrong or missing client_secret is 401 invalid_client and leaves the code usable', async () => {
    const code = await newCode();
    const wrong = await exchange(code, { client_secret: `${app.secret}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const missing = await exchange(code, { client_secret: undefined });
    expect(missing.status).toBe(401);
    const unknown = await exchange(code, { client_id: 'nobody' });
    expect(unknown.status).toBe(401);
    expect((await exchange(code)).status).toBe(200);
  });
});

describe('malformed token requests', () => {
  it('answer 400 JSON with a reason', async () => {
    const cases: { body: string; type: string; error: string }[] = [
      { body: '{"grant_type": "authorization_code",', type: 'application/json', error: '' },
      { body: '[1,2]', type: 'application/json', error: 'invalid_request' },
      { body: '"text"', type: 'application/json', error: 'invalid_request' },
      { body: '{}', type: 'application/json', error: 'invalid_request' },
      { body: 'grant_type=password&username=a&password=b', type: 'application/x-www-form-urlencoded', error: 'unsupported_grant_type' },
      { body: 'grant_type=refresh_token&client_id=' + 'x', type: 'application/x-www-form-urlencoded', error: 'invalid_client' },
      { body: 'grant_type=authorization_code&grant_type=refresh_token', type: 'application/x-www-form-urlencoded', error: 'unsupported_grant_type' },
    ];
    for (const c of cases) {
      const res = await fetch(`${s.origin}/oauth/access_token`, { method: 'POST', headers: { 'content-type': c.type }, body: c.body });
      const body = await res.json();
      expect(res.status, c.body).toBeLessThan(500);
      expect([400, 401], c.body).toContain(res.status);
      expect(body.result, c.body).toBe(false);
      expect(body.errorMessage, c.body).toBeTruthy();
      if (c.error) expect(body.error, c.body).toBe(c.error);
    }
    const xml = await fetch(`${s.origin}/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' });
    expect(xml.status).toBe(415);
  });

  it('a refresh without refresh_token is 400 invalid_request', async () => {
    const res = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
});

describe('refresh and expiry', () => {
  it('refresh issues a new access token and rotates the refresh token', async () => {
    const first = await exchange(await newCode());
    const second = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret, refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ expires_in: 1209599, expires: 1209599000, token_type: 'Bearer' });
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await s.api('GET', '/user', { token: second.body.access_token })).status).toBe(200);

    // The old refresh token stops working; replaying it revokes the whole authorization.
    const replay = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret, refresh_token: first.body.refresh_token });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await s.api('GET', '/user', { token: second.body.access_token })).status).toBe(401);
    const next = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret, refresh_token: second.body.refresh_token });
    expect(next.status).toBe(400);
  });

  it('a refresh token only works for the client it was issued to', async () => {
    const first = await exchange(await newCode());
    const res = await tokenRequest(s, { grant_type: 'refresh_token', client_id: other.clientId, client_secret: other.secret, refresh_token: first.body.refresh_token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    // ...and the rightful client can still use it.
    const ok = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret, refresh_token: first.body.refresh_token });
    expect(ok.status).toBe(200);
  });

  it('access tokens expire after two weeks and get 401; refresh gives a working one; test tokens never expire', async () => {
    const issued = await exchange(await newCode());
    const testUser = await s.createUser();
    clock.advance(14 * 24 * 3600_000 - 2000);
    expect((await s.api('GET', '/user', { token: issued.body.access_token })).status).toBe(200);
    clock.advance(2000);
    const expired = await s.api('GET', '/user', { token: issued.body.access_token });
    expect(expired.status).toBe(401);
    expect(expired.body.errorMessage).toMatch(/expired/);

    const refreshed = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret, refresh_token: issued.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await s.api('GET', '/user', { token: refreshed.body.access_token })).status).toBe(200);

    clock.advance(5 * 365 * 24 * 3600_000);
    expect((await s.api('GET', '/user', { token: testUser.token })).status).toBe(200);
  });

  it('refresh and secrets are stored as hashes only', async () => {
    // The clock moved years ahead above: the web session has ended, so sign in again.
    expect((await browser.get('/account')).status).toBe(303);
    expect((await browser.signIn('token-user@example.test', 'token-password')).status).toBe(303);
    const issued = await exchange(await newCode());
    const columns = async (table: string) => (await s.sql(`SELECT * FROM ${table}`)).flatMap((r) => Object.values(r).map(String));
    for (const table of ['tokens', 'oauth_refresh_tokens', 'oauth_clients', 'oauth_codes']) {
      const values = await columns(table);
      expect(values, table).not.toContain(issued.body.access_token);
      expect(values, table).not.toContain(issued.body.refresh_token);
      expect(values, table).not.toContain(app.secret);
    }
  });
});
