// The application console: registering apps, their credentials, redirect URLs, test tokens, and
// the list of apps a user has authorized.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeAs, exchangeCode, tokenRequest, WebClient } from '../helpers/web-client.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

async function developer(email: string): Promise<WebClient> {
  const browser = new WebClient(s.origin);
  expect((await browser.signUp(email, 'developer-password', 'Dev')).status).toBe(303);
  return browser;
}

/** Registers an app through the console form; returns the page and what it showed. */
async function registerThroughConsole(browser: WebClient, fields: { name: string; redirect_uris: string; kind: string }) {
  await browser.get('/apps');
  const res = await browser.post('/apps', fields);
  const clientId = /id="client-id">([^<]+)</.exec(res.text)?.[1];
  const secret = /id="shown-secret">([^<]+)</.exec(res.text)?.[1];
  return { res, clientId, secret };
}

const exchangeAs = (clientId: string, secret: string | undefined, code: string, redirectUri: string) =>
  exchangeCode(s, { clientId, secret, redirectUri }, code);

describe('registering an application', () => {
  it('shows the Client ID and the secret once, stores only its hash, and the credentials work', async () => {
    const dev = await developer('console-dev@example.test');
    const { res, clientId, secret } = await registerThroughConsole(dev, {
      name: 'My <b>Reader</b>',
      redirect_uris: 'https://reader.example/cb\n\nhttps://reader.example/cb2',
      kind: 'confidential',
    });
    expect(res.status).toBe(201);
    expect(res.text).toContain('My &lt;b&gt;Reader&lt;/b&gt;');
    expect(clientId).toMatch(/^[0-9a-f]{24}$/);
    expect(secret).toMatch(/^[\w-]{40,}$/);
    expect(res.headers.get('cache-control')).toBe('no-store');

    const stored = (await s.sql('SELECT secret_hash FROM oauth_clients WHERE client_id = ?', clientId))[0] as { secret_hash: string };
    expect(stored.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.secret_hash).not.toContain(secret!);

    // The app page later shows the id but never the secret again.
    const later = await dev.get(`/apps/${clientId}`);
    expect(later.status).toBe(200);
    expect(later.text).toContain(clientId!);
    expect(later.text).not.toContain(secret!);
    expect(later.text).toContain('https://reader.example/cb2');

    const user = new WebClient(s.origin);
    await user.signUp('console-user@example.test', 'user-password');
    const redirect = await authorizeAs(user, { client_id: clientId, redirect_uri: 'https://reader.example/cb2' });
    const token = await exchangeAs(clientId!, secret, redirect.searchParams.get('code')!, 'https://reader.example/cb2');
    expect(token.status).toBe(200);
  });

  it('refuses bad names, client types and redirect URLs with the reason', async () => {
    const dev = await developer('console-bad@example.test');
    const cases: [{ name: string; redirect_uris: string; kind: string }, RegExp][] = [
      [{ name: '', redirect_uris: 'https://a.example/cb', kind: 'confidential' }, /Enter a name/],
      [{ name: 'A', redirect_uris: 'https://a.example/cb', kind: 'weird' }, /Choose the client type/],
      [{ name: 'A', redirect_uris: '', kind: 'public' }, /at least one redirect URL/],
      [{ name: 'A', redirect_uris: 'http://a.example/cb', kind: 'public' }, /must use https/],
      [{ name: 'A', redirect_uris: 'javascript:alert(1)', kind: 'public' }, /must use https/],
      [{ name: 'A', redirect_uris: 'https://a.example/cb#frag', kind: 'public' }, /fragment/],
      [{ name: 'A', redirect_uris: 'https://user:pw@a.example/cb', kind: 'public' }, /user name or password/],
      [{ name: 'A', redirect_uris: '/relative/path', kind: 'public' }, /not an absolute URL/],
    ];
    for (const [fields, message] of cases) {
      const { res } = await registerThroughConsole(dev, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.text).toMatch(message);
    }
    const list = await dev.get('/apps');
    expect(list.text).toContain('You have not registered an application yet.');
  });

  it('registers a public client for an extension: no secret, PKCE required', async () => {
    const dev = await developer('console-ext@example.test');
    const redirect = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/oauth';
    const { res, clientId, secret } = await registerThroughConsole(dev, {
      name: 'My Extension',
      redirect_uris: `${redirect}\nhttps://0123abcd.extensions.allizom.org/`,
      kind: 'public',
    });
    expect(res.status).toBe(201);
    expect(secret).toBeUndefined();
    expect(res.text).toContain('no secret');
    const row = (await s.sql('SELECT kind, secret_hash FROM oauth_clients WHERE client_id = ?', clientId))[0] as { kind: string; secret_hash: null };
    expect(row).toEqual({ kind: 'public', secret_hash: null });
  });
});

describe('managing an application', () => {
  it('regenerating the secret stops the old one', async () => {
    const dev = await developer('console-regen@example.test');
    const { clientId, secret } = await registerThroughConsole(dev, { name: 'Regen', redirect_uris: 'https://regen.example/cb', kind: 'confidential' });
    const res = await dev.post(`/apps/${clientId}/secret`, {});
    expect(res.status).toBe(200);
    const fresh = /id="shown-secret">([^<]+)</.exec(res.text)![1];
    expect(fresh).not.toBe(secret);

    const user = new WebClient(s.origin);
    await user.signUp('regen-user@example.test', 'user-password');
    let redirect = await authorizeAs(user, { client_id: clientId, redirect_uri: 'https://regen.example/cb' });
    expect((await exchangeAs(clientId!, secret, redirect.searchParams.get('code')!, 'https://regen.example/cb')).status).toBe(401);
    redirect = await authorizeAs(user, { client_id: clientId, redirect_uri: 'https://regen.example/cb' });
    expect((await exchangeAs(clientId!, fresh, redirect.searchParams.get('code')!, 'https://regen.example/cb')).status).toBe(200);
  });

  it('editing the redirect URLs changes where codes may go', async () => {
    const dev = await developer('console-edit@example.test');
    const { clientId } = await registerThroughConsole(dev, { name: 'Edit', redirect_uris: 'https://old.example/cb', kind: 'confidential' });
    const bad = await dev.post(`/apps/${clientId}/redirects`, { redirect_uris: 'ftp://new.example/cb' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('ftp://new.example/cb');
    const ok = await dev.post(`/apps/${clientId}/redirects`, { redirect_uris: 'https://new.example/cb' });
    expect(ok.status).toBe(303);

    const user = new WebClient(s.origin);
    await user.signUp('edit-user@example.test', 'user-password');
    expect((await user.get(`/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent('https://old.example/cb')}`)).status).toBe(400);
    expect((await user.get(`/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent('https://new.example/cb')}`)).status).toBe(200);
  });

  it('test tokens give access to the owner\'s own data, never expire, and stop working when revoked', async () => {
    const dev = await developer('console-test-token@example.test');
    const { clientId } = await registerThroughConsole(dev, { name: 'Tokens', redirect_uris: 'https://tokens.example/cb', kind: 'confidential' });
    const made = await dev.post(`/apps/${clientId}/test-tokens`, {});
    expect(made.status).toBe(201);
    const token = /id="shown-secret">([^<]+)</.exec(made.text)![1];
    const me = await s.api('GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('console-test-token@example.test');
    const row = (await s.sql("SELECT kind, expires_at, client_id FROM tokens WHERE kind = 'test' AND client_id = ?", clientId))[0];
    expect(row).toEqual({ kind: 'test', expires_at: null, client_id: clientId });

    const page = await dev.get(`/apps/${clientId}`);
    expect(page.text).not.toContain(token);
    const revokePath = /action="(\/apps\/[^"]+\/test-tokens\/\d+\/revoke)"/.exec(page.text)![1];
    expect((await dev.post(revokePath, {})).status).toBe(303);
    expect((await s.api('GET', '/user', { token })).status).toBe(401);
  });

  it('another user cannot see or change someone else\'s application', async () => {
    const owner = await developer('console-owner@example.test');
    const { clientId } = await registerThroughConsole(owner, { name: 'Private', redirect_uris: 'https://private.example/cb', kind: 'confidential' });
    const intruder = await developer('console-intruder@example.test');
    expect((await intruder.get(`/apps/${clientId}`)).status).toBe(404);
    await intruder.get('/apps');
    expect((await intruder.post(`/apps/${clientId}/secret`, {})).status).toBe(404);
    expect((await intruder.post(`/apps/${clientId}/test-tokens`, {})).status).toBe(404);
    expect((await intruder.post(`/apps/${clientId}/redirects`, { redirect_uris: 'https://evil.example/cb' })).status).toBe(404);
    expect((await intruder.post(`/apps/${clientId}/delete`, {})).status).toBe(404);
    expect((await owner.get(`/apps/${clientId}`)).text).toContain('https://private.example/cb');
  });

  it('deleting an application revokes its tokens', async () => {
    const dev = await developer('console-delete@example.test');
    const { clientId } = await registerThroughConsole(dev, { name: 'Doomed', redirect_uris: 'https://doomed.example/cb', kind: 'confidential' });
    const made = await dev.post(`/apps/${clientId}/test-tokens`, {});
    const token = /id="shown-secret">([^<]+)</.exec(made.text)![1];
    expect((await dev.post(`/apps/${clientId}/delete`, {})).status).toBe(303);
    expect((await s.api('GET', '/user', { token })).status).toBe(401);
    expect((await dev.get(`/apps/${clientId}`)).status).toBe(404);
  });
});

describe('authorized apps', () => {
  it('lists the apps a user authorized and revoking one ends its tokens', async () => {
    const dev = await developer('console-authz-dev@example.test');
    const { clientId, secret } = await registerThroughConsole(dev, { name: 'Authorized App', redirect_uris: 'https://authz.example/cb', kind: 'confidential' });
    const user = new WebClient(s.origin);
    await user.signUp('console-authz-user@example.test', 'user-password');
    expect((await user.get('/apps')).text).toContain('You have not authorized any application.');

    const redirect = await authorizeAs(user, { client_id: clientId, redirect_uri: 'https://authz.example/cb' });
    const token = await exchangeAs(clientId!, secret, redirect.searchParams.get('code')!, 'https://authz.example/cb');
    const list = await user.get('/apps');
    expect(list.text).toContain('Authorized App');
    expect(list.text).toContain(`/apps/authorized/${clientId}/revoke`);

    expect((await user.post(`/apps/authorized/${clientId}/revoke`, {})).status).toBe(303);
    expect((await s.api('GET', '/user', { token: token.body.access_token })).status).toBe(401);
    const refresh = await tokenRequest(s, { grant_type: 'refresh_token', client_id: clientId, client_secret: secret, refresh_token: token.body.refresh_token });
    expect(refresh.status).toBe(400);
    expect((await user.get('/apps')).text).not.toContain(`/apps/authorized/${clientId}/revoke`);
  });
});
