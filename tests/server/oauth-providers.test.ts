// GET /user/connect/{provider} and /revoke, against a stand-in provider on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

/** A tiny OAuth provider: its token endpoint accepts one code and records what it was sent. */
function fakeProvider() {
  const received: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      received.push(form);
      const ok = req.url === '/token' && form.get('code') === 'provider-code' && form.get('client_secret') === 'drop-secret';
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { access_token: 'provider-token', account_id: 'dbid:42' } : { error: 'invalid_grant' }));
    });
  });
  return { server, received };
}

let s: TestServer;
const provider = fakeProvider();
let providerOrigin: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve));
  providerOrigin = `http://127.0.0.1:${(provider.server.address() as AddressInfo).port}`;
  s = await startServer({
    oauthProviders: {
      dropbox: { clientId: 'drop-id', clientSecret: 'drop-secret', authorizeUrl: `${providerOrigin}/authorize`, tokenUrl: `${providerOrigin}/token` },
    },
  });
});
afterAll(async () => {
  await s.close();
  await new Promise((resolve) => provider.server.close(resolve));
});

async function get(path: string, token?: string, cookie?: string) {
  const res = await fetch(`${s.url}${path}`, {
    redirect: 'manual',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(cookie ? { cookie } : {}) },
  });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), body: text ? JSON.parse(text) : undefined };
}

describe('/user/connect/{provider}', () => {
  it('answers 400 naming the provider when it is not configured on this server', async () => {
    const u = await s.createUser();
    for (const name of ['facebook', 'google', 'twitter', 'vkontakte', 'gdrive']) {
      const res = await get(`/user/connect/${name}`, u.token);
      expect(res.status, name).toBe(400);
      expect(res.body).toMatchObject({ result: false, status: 400 });
      expect(res.body.errorMessage).toContain(`provider ${name} is not configured on this server`);
      expect((await get(`/user/connect/${name}/revoke`, u.token)).status).toBe(400);
    }
  });

  it('answers 400 for an unknown provider and 401 without a sign-in', async () => {
    const u = await s.createUser();
    const res = await get('/user/connect/myspace', u.token);
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/Unknown provider "myspace"/);
    expect((await get('/user/connect/myspace/revoke', u.token)).status).toBe(400);
    expect((await get('/user/connect/dropbox')).status).toBe(401);
    expect((await get('/user/connect/dropbox', 'bad-token')).status).toBe(401);
  });

  it('runs the provider\'s OAuth redirect and records the connection on the user', async () => {
    const u = await s.createUser();
    const start = await get('/user/connect/dropbox', u.token);
    expect(start.status).toBe(302);
    const to = new URL(start.location!);
    expect(to.origin + to.pathname).toBe(`${providerOrigin}/authorize`);
    expect(to.searchParams.get('client_id')).toBe('drop-id');
    expect(to.searchParams.get('response_type')).toBe('code');
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    const redirectUri = to.searchParams.get('redirect_uri')!;
    expect(redirectUri).toBe(`${s.url}/user/connect/dropbox/callback`);

    // The provider sends the browser back with a code and the state.
    const back = await fetch(`${redirectUri}?code=provider-code&state=${to.searchParams.get('state')}`, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/account?done=connected#connections');
    const sent = provider.received.at(-1)!;
    expect(sent.get('redirect_uri')).toBe(redirectUri);
    expect(sent.get('code_verifier')).toMatch(/^[\w-]{43,}$/);

    const me = await s.api('GET', '/user', { token: u.token });
    expect(me.body.user.dropbox).toEqual({ enabled: true });
    expect(me.body.user.gdrive).toEqual({ enabled: false });

    // A state is good for one answer only.
    const replay = await fetch(`${redirectUri}?code=provider-code&state=${to.searchParams.get('state')}`, { redirect: 'manual' });
    expect(replay.status).toBe(400);

    const revoked = await get('/user/connect/dropbox/revoke', u.token);
    expect(revoked).toMatchObject({ status: 200, body: { result: true } });
    expect((await s.api('GET', '/user', { token: u.token })).body.user.dropbox).toEqual({ enabled: false });
  });

  it('does not connect when the user refuses or the provider rejects the code', async () => {
    const u = await s.createUser();
    for (const query of ['error=access_denied', 'code=wrong-code']) {
      const start = await get('/user/connect/dropbox', u.token);
      const state = new URL(start.location!).searchParams.get('state');
      const back = await fetch(`${s.url}/user/connect/dropbox/callback?${query}&state=${state}`, { redirect: 'manual' });
      expect(back.status, query).toBe(303);
      expect(back.headers.get('location')).toMatch(/done=connect-(denied|failed)/);
    }
    expect((await s.api('GET', '/user', { token: u.token })).body.user.dropbox.enabled).toBe(false);
    const forged = await fetch(`${s.url}/user/connect/dropbox/callback?code=provider-code&state=made-up`, { redirect: 'manual' });
    expect(forged.status).toBe(400);
  });

  it('a browser signed in on the web pages can start a connection from the account page', async () => {
    const browser = new WebClient(s.origin);
    await browser.signUp('connect-web@example.test', 'connect-password');
    const page = await browser.get('/account');
    expect(page.text).toContain('href="/rest/v1/user/connect/dropbox"');
    const start = await browser.get('/rest/v1/user/connect/dropbox');
    expect(start.status).toBe(302);
    const state = new URL(start.location!).searchParams.get('state');
    await fetch(`${s.url}/user/connect/dropbox/callback?code=provider-code&state=${state}`, { redirect: 'manual' });
    const after = await browser.get('/account?done=connected');
    expect(after.text).toContain('Dropbox: connected.');
    const disconnect = await browser.post('/account/connections/dropbox/revoke', {});
    expect(disconnect.status).toBe(303);
    expect((await s.app.repos.users.byEmail('connect-web@example.test'))?.dropbox_enabled).toBe(0);
  });
});
