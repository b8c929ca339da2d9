// Smaller input holes: path ids are decimal digits only; integers that do not
// fit are refused, not rounded; web sign-up takes only addresses the API takes, and is throttled
// per IP; an OAuth code is used up only by a correct exchange by its own client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { authorizeAs, exchangeCode, registerApp, WebClient } from '../helpers/web-client.js';

let s: TestServer;
const clock = new TestClock();
let user: { id: number; token: string };
let bookmarkId: number;

beforeAll(async () => {
  s = await startServer({
    clock,
    web: { sessionTtlMs: 30 * 24 * 3600_000, maxFailuresPerAccount: 5, maxFailuresPerIp: 1000, throttleWindowMs: 15 * 60_000, maxSignupsPerIp: 6 },
  });
  user = await s.createUser();
  // Make sure there is a bookmark 16 (0x10) so a lenient parse would find something.
  for (let i = 0; i < 16; i++) bookmarkId = (await s.createItem('/bookmark', user.token, { link: `https://ids.example/${i}` }))._id;
});
afterAll(async () => s.close());

describe('path ids are decimal digits only', () => {
  it('0x10, +16, 16%0A, 1e1, 016, " 16" and 16.0 are 400 naming the parameter; 16 works', async () => {
    expect(bookmarkId).toBe(16);
    for (const spelled of ['0x10', '+16', '16%0A', '1e1', '016', '%2016', '16.0', '0b10', '16%20', '99999999999999999999']) {
      const res = await s.api('GET', `/bookmark/${spelled}`, { token: user.token });
      expect(res.status, spelled).toBe(400);
      expect(res.body).toMatchObject({ result: false, status: 400 });
      expect(res.body.errorMessage, spelled).toMatch(/^params\.id /);
    }
    expect((await s.api('GET', '/bookmark/16', { token: user.token })).status).toBe(200);
    for (const spelled of ['0x0', '-0', '+0', '-1e0']) {
      expect((await s.api('GET', `/bookmarks/${spelled}`, { token: user.token })).status, spelled).toBe(400);
    }
    expect((await s.api('GET', '/bookmarks/-1', { token: user.token })).status).toBe(200);
    expect((await s.api('GET', '/bookmarks/-99', { token: user.token })).status).toBe(200);
  });
});

describe('one email rule for web sign-up and the API', () => {
  const refused = ['a@b', 'ann@example..com', 'ann@-example.com', '"ann"@example.com', 'ann@exa mple.com', 'ann<@example.com', 'ann@example.com>'];

  it('addresses the API refuses are refused by sign-up, and the reverse', async () => {
    for (const email of refused) {
      const api = await s.api('PUT', '/user', { token: user.token, body: { email, oldpassword: 'x' } });
      expect(api.status, email).toBe(400);
      expect(api.body.errorMessage).toMatch(/body\.email must be an email address/);
      const web = new WebClient(s.origin);
      await web.get('/signup');
      const res = await web.post('/signup', { name: 'N', email, password: 'long-enough-1' });
      expect(res.status, email).toBe(400);
      expect(res.text).toContain('Enter a valid email address');
      clock.advance(16 * 60_000); // sign-up attempts are counted; keep this test about the rule
    }
  });

  it('sign-up is throttled per IP: after the limit, 429 with Retry-After and no account made', async () => {
    clock.advance(16 * 60_000);
    for (let i = 0; i < 6; i++) {
      const web = new WebClient(s.origin);
      expect((await web.signUp(`burst${i}@example.test`, 'long-enough-1')).status).toBe(303);
    }
    const web = new WebClient(s.origin);
    const res = await web.signUp('burst-over@example.test', 'long-enough-1');
    expect(res.status).toBe(429);
    expect(res.text).toContain('Too many sign-ups from your network');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await s.app.repos.users.byEmail('burst-over@example.test')).toBeUndefined();
    clock.advance(16 * 60_000);
    expect((await new WebClient(s.origin).signUp('burst-over@example.test', 'long-enough-1')).status).toBe(303);
  });
});

describe('an OAuth code is used up only by a correct exchange by its own client', () => {
  it('wrong redirect_uri or another client: refused, and the code still works for its app', async () => {
    clock.advance(16 * 60_000);
    const dev = await s.createUser();
    const app = await registerApp(s, dev.id, { name: 'Real App', redirectUris: ['https://real.example/cb', 'https://real.example/other'] });
    const thief = await registerApp(s, dev.id, { name: 'Other App', redirectUris: ['https://thief.example/cb'] });
    const browser = new WebClient(s.origin);
    expect((await browser.signUp('oauth-code-user@example.test', 'long-enough-1')).status).toBe(303);
    const redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri });
    const code = redirect.searchParams.get('code')!;

    const wrongRedirect = await exchangeCode(s, app, code, { redirect_uri: 'https://real.example/other' });
    expect(wrongRedirect.status).toBe(400);
    expect(wrongRedirect.body.error).toBe('bad_authorization_code');
    const otherClient = await exchangeCode(s, app, code, { client_id: thief.clientId, client_secret: thief.secret, redirect_uri: 'https://thief.example/cb' });
    expect(otherClient.status).toBe(400);
    expect(otherClient.body.errorMessage).toMatch(/another application/);

    const ok = await exchangeCode(s, app, code);
    expect(ok.status).toBe(200);
    expect(ok.body.token_type).toBe('Bearer');
    // Used once: a second correct exchange is reuse, and revokes what the code issued.
    const again = await exchangeCode(s, app, code);
    expect(again.status).toBe(400);
    expect(again.body.errorMessage).toMatch(/already used/);
    expect((await s.api('GET', '/user', { token: ok.body.access_token })).status).toBe(401);
  });
});
