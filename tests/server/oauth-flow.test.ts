// The authorization-code flow through the real pages and endpoints, driven like a browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { authorizeAs, authorizeUrl, exchangeCode, pkcePair, registerApp, tokenRequest, WebClient } from '../helpers/web-client.js';

let s: TestServer;
const clock = new TestClock();

beforeAll(async () => {
  s = await startServer({ clock, oauth: { maxTokensPerApp: 3, accessTokenTtlMs: 14 * 24 * 3600_000, codeTtlMs: 10 * 60_000 } });
});
afterAll(async () => s.close());

async function newUserBrowser(email: string) {
  const browser = new WebClient(s.origin);
  const res = await browser.signUp(email, 'a-good-password', 'Flow User');
  expect(res.status).toBe(303);
  return browser;
}

describe('authorization code flow', () => {
  it('sends a signed-out user to sign in, back to consent, and the app gets a working token', async () => {
    const dev = await s.createUser('dev-flow@example.test');
    const app = await registerApp(s, dev.id, { name: 'Reading List <Pro>' });
    const reader = await s.createUser('reader-flow@example.test', { password: 'reader-password', name: 'Reader' });

    const browser = new WebClient(s.origin);
    const start = authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, state: 'xyz 123' });
    const first = await browser.get(start);
    expect(first.status).toBe(307);
    const signinUrl = new URL(first.location!);
    expect(signinUrl.pathname).toBe('/signin');
    expect(signinUrl.searchParams.get('next')).toBe(start);

    await browser.get(signinUrl.pathname + signinUrl.search);
    expect(browser.hidden('next')).toBe(start);
    const signedIn = await browser.post('/signin', { email: reader.email, password: 'reader-password', next: browser.hidden('next')! });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(s.origin + start);

    const consent = await browser.get(start);
    expect(consent.status).toBe(200);
    // The consent page names the app (escaped) and the account, and may post on to the app's origin.
    expect(consent.text).toContain('Reading List &lt;Pro&gt;');
    expect(consent.text).not.toContain('Reading List <Pro>');
    expect(consent.text).toContain(reader.email);
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example");
    expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri, state: 'xyz 123' });
    expect(redirect.origin + redirect.pathname).toBe(app.redirectUri);
    expect(redirect.searchParams.get('state')).toBe('xyz 123');
    const code = redirect.searchParams.get('code')!;
    expect(code).toMatch(/^[\w-]{40,}$/);

    const token = await exchangeCode(s, app, code);
    expect(token.status).toBe(200);
    expect(token.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires: 1209599000,
      expires_in: 1209599,
      token_type: 'Bearer',
    });
    expect(token.headers.get('cache-control')).toBe('no-store');

    const me = await s.api('GET', '/user', { token: token.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(reader.email);

    // Tokens are stored as hashes only.
    const raw = (await s.sql('SELECT count(*) AS n FROM tokens WHERE token_hash = ?', token.body.access_token))[0] as { n: number };
    expect(raw.n).toBe(0);
  });

  it('keeps query parameters of the registered redirect URL; the consent post goes 303 to a one-time hand-off that goes 307 to the app', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id, { redirectUris: ['https://app.example/cb?source=tidemark'] });
    const browser = await newUserBrowser('keepquery@example.test');
    await browser.get(authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri }));
    const answer = await browser.post('/oauth/authorize', { client_id: app.clientId, redirect_uri: app.redirectUri, decision: 'allow' });
    expect(answer.status).toBe(303);
    expect(new URL(answer.location!).origin).toBe(s.origin);
    const handoff = await browser.get(answer.location!);
    expect(handoff.status).toBe(307);
    const url = new URL(handoff.location!);
    expect(url.searchParams.get('source')).toBe('tidemark');
    expect(url.searchParams.get('code')).toBeTruthy();
    expect(url.searchParams.has('state')).toBe(false);
    // The hand-off works once, and only for the user who answered.
    expect((await browser.get(answer.location!)).status).toBe(400);
  });

  it('Deny sends access_denied to the app with the state, and no code', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id);
    const browser = await newUserBrowser('denier@example.test');
    const redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri, state: 's1' }, 'deny');
    expect(redirect.origin + redirect.pathname).toBe(app.redirectUri);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('s1');
    expect(redirect.searchParams.has('code')).toBe(false);
  });

  it('a consent post without the CSRF token is refused and issues no code', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id);
    const browser = await newUserBrowser('csrf-consent@example.test');
    await browser.get(authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri }));
    const forged = await browser.post('/oauth/authorize', { _csrf: null, client_id: app.clientId, redirect_uri: app.redirectUri, decision: 'allow' });
    expect(forged.status).toBe(403);
    expect(forged.location).toBeNull();
    const wrong = await browser.post('/oauth/authorize', { _csrf: 'A'.repeat(43), client_id: app.clientId, redirect_uri: app.redirectUri, decision: 'allow' });
    expect(wrong.status).toBe(403);
    const codes = (await s.sql('SELECT count(*) AS n FROM oauth_codes c JOIN oauth_clients k ON k.id = c.client_pk WHERE k.client_id = ?', app.clientId))[0] as { n: number };
    expect(codes.n).toBe(0);
  });

  it('a suspended app gets invalid_application_status on its redirect (307)', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id);
    await s.app.repos.oauth.clients.update(app.client.id, { status: 'suspended' });
    const browser = await newUserBrowser('suspended@example.test');
    const res = await browser.get(authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, state: 'st' }));
    expect(res.status).toBe(307);
    const url = new URL(res.location!);
    expect(url.origin + url.pathname).toBe(app.redirectUri);
    expect(url.searchParams.get('error')).toBe('invalid_application_status');
    expect(url.searchParams.get('state')).toBe('st');
  });

  it('an app at its maximum token count gets invalid_application_status', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id);
    // The server allows 3 live tokens per app in this test.
    for (let i = 0; i < 3; i++) {
      const browser = await newUserBrowser(`max${i}@example.test`);
      const redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri });
      const token = await exchangeCode(s, app, redirect.searchParams.get('code'));
      expect(token.status).toBe(200);
    }
    const browser = await newUserBrowser('max-over@example.test');
    const res = await browser.get(authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri }));
    expect(res.status).toBe(307);
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_application_status');
  });
});

describe('open redirects', () => {
  it('never redirects for an unknown client_id or a redirect_uri that is not exactly a registered one', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id);
    const browser = await newUserBrowser('openredirect@example.test');
    const attempts = [
      authorizeUrl({ client_id: 'no-such-app', redirect_uri: 'https://evil.example/' }),
      authorizeUrl({ client_id: app.clientId, redirect_uri: 'https://evil.example/callback' }),
      authorizeUrl({ client_id: app.clientId, redirect_uri: `${app.redirectUri}/../evil` }),
      authorizeUrl({ client_id: app.clientId, redirect_uri: `${app.redirectUri}?next=https://evil.example` }),
      authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri.toUpperCase() }),
      authorizeUrl({ client_id: app.clientId, redirect_uri: 'https://app.example.evil.example/callback' }),
      authorizeUrl({ client_id: app.clientId }),
      authorizeUrl({ redirect_uri: app.redirectUri }),
    ];
    for (const path of attempts) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(400);
      expect(res.location, path).toBeNull();
      expect(res.text, path).toContain('cannot be used');
      // ...and the same through the consent form.
      const q = new URL(path, s.origin).searchParams;
      await browser.get('/account');
      const posted = await browser.post('/oauth/authorize', {
        client_id: q.get('client_id'),
        redirect_uri: q.get('redirect_uri'),
        decision: 'allow',
      });
      expect(posted.status, path).toBe(400);
      expect(posted.location, path).toBeNull();
    }
    // A repeated redirect_uri is not guessed at either.
    const twice = await browser.get(`/oauth/authorize?client_id=${app.clientId}&redirect_uri=${encodeURIComponent(app.redirectUri)}&redirect_uri=https://evil.example/`);
    expect(twice.status).toBe(400);
    expect(twice.location).toBeNull();
  });

  it('the error page escapes what the link carried', async () => {
    const browser = new WebClient(s.origin);
    const res = await browser.get(authorizeUrl({ client_id: '<script>alert(1)</script>', redirect_uri: 'https://x.example/' }));
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('sign-in returns to a page of this site given with any characters', async () => {
    await s.createUser('next-unicode@example.test', { password: 'next-password' });
    const browser = new WebClient(s.origin);
    const res = await browser.signIn('next-unicode@example.test', 'next-password', '/apps?q=中文');
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${s.origin}/apps?q=%E4%B8%AD%E6%96%87`);
  });

  it('sign-in never sends the browser to another site afterwards', async () => {
    await s.createUser('next-check@example.test', { password: 'next-password' });
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', '/%0d%0aSet-Cookie:x=1']) {
      const browser = new WebClient(s.origin);
      const res = await browser.signIn('next-check@example.test', 'next-password', next);
      expect(res.status, next).toBe(303);
      expect(new URL(res.location!).origin, next).toBe(s.origin);
    }
  });
});

describe('bad authorize parameters', () => {
  it('reports them to the app once the client and redirect URI are known', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id);
    const browser = await newUserBrowser('badparams@example.test');
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge: pkcePair().challenge }, 'invalid_request'],
      [{ code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
      [{ code_challenge_method: 'S256' }, 'invalid_request'],
      [{ state: 'x'.repeat(1001) }, 'invalid_request'],
    ];
    for (const [extra, error] of cases) {
      const res = await browser.get(authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, ...extra }));
      expect(res.status, JSON.stringify(extra)).toBe(307);
      const url = new URL(res.location!);
      expect(url.origin + url.pathname).toBe(app.redirectUri);
      expect(url.searchParams.get('error'), JSON.stringify(extra)).toBe(error);
      expect(url.searchParams.get('error_description')).toBeTruthy();
    }
  });
});

describe('PKCE', () => {
  it('a public client must send an S256 challenge; with it, the verifier replaces the secret', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id, { kind: 'public', name: 'Extension', redirectUris: ['https://abcdefghijklmnop.chromiumapp.org/oauth'] });
    expect(app.secret).toBeUndefined();
    const browser = await newUserBrowser('pkce@example.test');

    const missing = await browser.get(authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri }));
    expect(missing.status).toBe(307);
    expect(new URL(missing.location!).searchParams.get('error')).toBe('invalid_request');

    const { verifier, challenge } = pkcePair('good');
    const redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri, code_challenge: challenge, code_challenge_method: 'S256' });
    const code = redirect.searchParams.get('code')!;
    const ok = await tokenRequest(s, { grant_type: 'authorization_code', code, client_id: app.clientId, redirect_uri: app.redirectUri, code_verifier: verifier }, { form: true });
    expect(ok.status).toBe(200);
    expect((await s.api('GET', '/user', { token: ok.body.access_token })).status).toBe(200);

    // Public clients refresh without a secret, and the refresh token rotates.
    const refreshed = await tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, refresh_token: ok.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(ok.body.refresh_token);
  });

  it('a wrong or missing code_verifier gets bad_authorization_code', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id, { kind: 'public', redirectUris: ['https://abcdefghijklmnop.chromiumapp.org/oauth'] });
    const browser = await newUserBrowser('pkce-bad@example.test');
    const { challenge } = pkcePair('one');
    for (const verifier of [pkcePair('other').verifier, undefined, 'too-short']) {
      const redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri, code_challenge: challenge, code_challenge_method: 'S256' });
      const res = await tokenRequest(s, {
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code'),
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        ...(verifier ? { code_verifier: verifier } : {}),
      });
      expect(res.status, String(verifier)).toBe(400);
      expect(res.body.error).toBe('bad_authorization_code');
    }
  });

  it('a confidential client may use PKCE too, and then needs both secret and verifier', async () => {
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id);
    const browser = await newUserBrowser('pkce-conf@example.test');
    const { verifier, challenge } = pkcePair('conf');
    const base = { grant_type: 'authorization_code', client_id: app.clientId, redirect_uri: app.redirectUri };

    let redirect = await authorizeAs(browser, { ...base, grant_type: undefined, code_challenge: challenge, code_challenge_method: 'S256' });
    const noSecret = await tokenRequest(s, { ...base, code: redirect.searchParams.get('code'), code_verifier: verifier });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');

    redirect = await authorizeAs(browser, { ...base, grant_type: undefined, code_challenge: challenge, code_challenge_method: 'S256' });
    const ok = await tokenRequest(s, { ...base, code: redirect.searchParams.get('code'), code_verifier: verifier, client_secret: app.secret });
    expect(ok.status).toBe(200);

    // A verifier for a code that had no challenge is refused too.
    redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri });
    const extra = await tokenRequest(s, { ...base, code: redirect.searchParams.get('code'), code_verifier: verifier, client_secret: app.secret });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe('bad_authorization_code');
  });
});
