// `app:create` on the command line and the bundled extension's client registration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_CLIENT_ID, ensureExtensionClient } from '../../server/services/oauth/extension-client.js';
import { systemClock } from '../../server/clock.js';
import { openSqliteStore } from '../../server/db/sqlite-store.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeAs, pkcePair, tokenRequest, WebClient } from '../helpers/web-client.js';
import { runCliAsync, startServe } from '../helpers/process.js';
import { CHROME_REDIRECT_URL, FIREFOX_REDIRECT_URL } from '../../lib/api/extension-identity.js';

async function cli(dataDir: string, ...args: string[]) {
  const { status, stdout, stderr } = await runCliAsync([...args, '--data', dataDir]);
  return { code: status, stdout, stderr };
}

describe('app:create', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-cli-'));
    const made = await cli(dataDir, 'user:create', '--email', 'cli-dev@example.test', '--password', 'cli-password');
    expect(made.code).toBe(0);
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints only {client_id, client_secret} for a confidential app, and a public app gets no secret', async () => {
    const conf = await cli(dataDir, 'app:create', '--email', 'cli-dev@example.test', '--name', 'CLI App', '--redirect', 'https://cli.example/cb');
    expect(conf.code).toBe(0);
    const confJson = JSON.parse(conf.stdout);
    expect(Object.keys(confJson)).toEqual(['client_id', 'client_secret']);
    expect(conf.stdout.trim().split('\n')).toHaveLength(1);

    const pub = await cli(dataDir, 'app:create', '--email', 'cli-dev@example.test', '--name', 'CLI Ext', '--redirect', 'https://abcdefabcdef.chromiumapp.org/oauth', '--public');
    expect(pub.code).toBe(0);
    const pubJson = JSON.parse(pub.stdout);
    expect(Object.keys(pubJson)).toEqual(['client_id']);

    const store = openSqliteStore(dataDir, systemClock);
    try {
      const clients = store.repos.oauth.clients;
      const c = await clients.byClientId(confJson.client_id);
      expect(c).toMatchObject({ name: 'CLI App', kind: 'confidential', redirect_uris: ['https://cli.example/cb'] });
      expect(c!.secret_hash).not.toBe(confJson.client_secret);
      expect(await clients.byClientId(pubJson.client_id)).toMatchObject({ kind: 'public', secret_hash: null });
    } finally {
      await store.close();
    }
  });

  it('refuses a missing account, a missing or unsafe redirect, with a message and a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [['--email', 'nobody@example.test', '--name', 'X', '--redirect', 'https://x.example/cb'], /No account with the email/],
      [['--email', 'cli-dev@example.test', '--name', 'X'], /--redirect is required/],
      [['--email', 'cli-dev@example.test', '--name', 'X', '--redirect', 'http://x.example/cb'], /must use https/],
      [['--email', 'cli-dev@example.test', '--redirect', 'https://x.example/cb'], /--name is required/],
    ];
    for (const [args, message] of cases) {
      const res = await cli(dataDir, 'app:create', ...args);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
    }
  });
});

describe('ensureExtensionClient', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s.close());

  it('registers the public client with the fixed id once, and adds more redirect URIs on later calls', async () => {
    const chrome = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/oauth';
    const firefox = 'https://0a1b2c3d4e5f.extensions.allizom.org/';
    const first = await ensureExtensionClient(s.app.repos, { name: 'Tidemark extension', redirectUri: chrome });
    expect(first.client_id).toBe(EXTENSION_CLIENT_ID);
    const again = await ensureExtensionClient(s.app.repos, { name: 'Tidemark extension', redirectUri: chrome });
    expect(again).toEqual({ client_id: 'tidemark-extension', redirect_uris: [chrome] });
    const both = await ensureExtensionClient(s.app.repos, { name: 'Tidemark extension', redirectUri: chrome, redirectUris: [firefox] });
    expect(both.redirect_uris).toEqual([chrome, firefox]);
    expect(await s.sql("SELECT count(*) AS n FROM oauth_clients WHERE client_id = 'tidemark-extension'")).toEqual([{ n: 1 }]);
    const row = await s.app.repos.oauth.clients.byClientId(EXTENSION_CLIENT_ID);
    expect(row).toMatchObject({ owner_id: null, kind: 'public', secret_hash: null });
    await expect(ensureExtensionClient(s.app.repos, { name: 'x', redirectUri: 'http://evil.example/' })).rejects.toThrow(/https/);
  });

  it('the extension client completes the flow with PKCE at either redirect URI', async () => {
    const firefox = 'https://0a1b2c3d4e5f.extensions.allizom.org/';
    const browser = new WebClient(s.origin);
    await browser.signUp('ext-user@example.test', 'ext-password');
    const { verifier, challenge } = pkcePair('ext');
    const consent = await browser.get(`/oauth/authorize?client_id=tidemark-extension&redirect_uri=${encodeURIComponent(firefox)}&code_challenge=${challenge}&code_challenge_method=S256`);
    expect(consent.text).toContain('made by Tidemark');
    const redirect = await authorizeAs(browser, { client_id: 'tidemark-extension', redirect_uri: firefox, code_challenge: challenge, code_challenge_method: 'S256' });
    const token = await tokenRequest(s, { grant_type: 'authorization_code', client_id: 'tidemark-extension', code: redirect.searchParams.get('code'), redirect_uri: firefox, code_verifier: verifier });
    expect(token.status).toBe(200);
    expect((await s.api('GET', '/user', { token: token.body.access_token })).body.user.email).toBe('ext-user@example.test');
  });
});

describe('serve', () => {
  it('registers the bundled extension: the Chrome and Firefox redirect URLs reach sign-in on a fresh data directory, an unregistered one does not', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-serve-ext-'));
    const served = await startServe(['--port', '0', '--data', dataDir]);
    try {
      const origin = new URL(served.url).origin;
      const { challenge } = pkcePair('serve');
      const authorize = (redirect: string) =>
        fetch(`${origin}/oauth/authorize?response_type=code&client_id=${EXTENSION_CLIENT_ID}&redirect_uri=${encodeURIComponent(redirect)}&state=s&code_challenge=${challenge}&code_challenge_method=S256`, {
          redirect: 'manual',
        });
      for (const redirect of [CHROME_REDIRECT_URL, FIREFOX_REDIRECT_URL]) {
        const res = await authorize(redirect);
        expect(res.status, redirect).toBe(307);
        expect(res.headers.get('location'), redirect).toMatch(/^\/signin\?next=/);
      }
      const unknown = await authorize('https://someone-else.extensions.allizom.org/oauth');
      expect(unknown.status).toBe(400);
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
