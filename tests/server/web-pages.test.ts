// Sign-up, sign-in and sign-out pages: sessions in cookies, CSRF, throttling, escaping, CSP.
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

let s: TestServer;
const clock = new TestClock();

beforeAll(async () => {
  s = await startServer({
    clock,
    web: { sessionTtlMs: 30 * 24 * 3600_000, maxFailuresPerAccount: 3, maxFailuresPerIp: 8, throttleWindowMs: 15 * 60_000 },
  });
});
afterAll(async () => s.close());

function sessionCookieLine(headers: Headers): string | undefined {
  return headers.getSetCookie().find((c) => c.startsWith('tidemark_session='));
}

describe('sign up, sign in, sign out', () => {
  it('sign-up creates the account and signs in with an HttpOnly, SameSite session cookie', async () => {
    const browser = new WebClient(s.origin);
    const page = await browser.get('/signup');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="email">Email</label>');
    const res = await browser.post('/signup', { name: 'Ann Example', email: 'ann-web@example.test', password: 'ann-password', next: '/account' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${s.origin}/account`);
    const cookie = sessionCookieLine(res.headers)!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);

    const account = await browser.get('/account');
    expect(account.status).toBe(200);
    expect(account.text).toContain('ann-web@example.test');

    const user = await s.app.repos.users.byEmail('ann-web@example.test');
    expect(user?.full_name).toBe('Ann Example');
    expect(user?.password_hash).toMatch(/^scrypt\$/);
  });

  it('refuses bad sign-up input with the reason, keeping what was typed', async () => {
    await s.createUser('taken@example.test');
    const cases: [Record<string, string>, RegExp][] = [
      [{ name: '', email: 'a@example.test', password: 'long-enough' }, /Enter your name/],
      [{ name: 'A', email: 'not-an-email', password: 'long-enough' }, /valid email/],
      [{ name: 'A', email: 'b@example.test', password: 'short' }, /at least 8/],
      [{ name: 'A', email: 'taken@example.test', password: 'long-enough' }, /already exists/],
    ];
    for (const [fields, message] of cases) {
      const browser = new WebClient(s.origin);
      await browser.get('/signup');
      const res = await browser.post('/signup', fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.text).toMatch(message);
      expect(res.text).toContain('role="alert"');
      if (fields.email) expect(res.text).toContain(`value="${fields.email}"`);
      expect(sessionCookieLine(res.headers)).toBeUndefined();
    }
  });

  it('sign-in with a wrong password or unknown email says so without telling which', async () => {
    await s.createUser('bob-web@example.test', { password: 'bob-password' });
    for (const [email, password] of [['bob-web@example.test', 'wrong-password'], ['nobody-web@example.test', 'bob-password']]) {
      const browser = new WebClient(s.origin);
      const res = await browser.signIn(email, password);
      expect(res.status).toBe(401);
      expect(res.text).toContain('The email or the password is wrong');
      expect(sessionCookieLine(res.headers)).toBeUndefined();
    }
  });

  it('sign-out ends the session on the server, not just in the browser', async () => {
    await s.createUser('carol-web@example.test', { password: 'carol-password' });
    const browser = new WebClient(s.origin);
    await browser.signIn('carol-web@example.test', 'carol-password');
    const stolen = browser.cookies.get('tidemark_session')!;
    await browser.get('/account');
    const out = await browser.post('/signout', {});
    expect(out.status).toBe(303);
    expect(browser.cookies.has('tidemark_session')).toBe(false);

    const thief = new WebClient(s.origin);
    thief.cookies.set('tidemark_session', stolen);
    const res = await thief.get('/account');
    expect(res.status).toBe(303);
    expect(new URL(res.location!).pathname).toBe('/signin');
  });

  it('pages for signed-in users send others to sign in and back', async () => {
    const browser = new WebClient(s.origin);
    const res = await browser.get('/apps');
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${s.origin}/signin?next=%2Fapps`);
  });

  it('a session ends after its lifetime', async () => {
    await s.createUser('dave-web@example.test', { password: 'dave-password' });
    const browser = new WebClient(s.origin);
    await browser.signIn('dave-web@example.test', 'dave-password');
    expect((await browser.get('/account')).status).toBe(200);
    clock.advance(30 * 24 * 3600_000 + 1);
    expect((await browser.get('/account')).status).toBe(303);
  });
});

describe('session fixation', () => {
  it('sign-in always issues a new session id and ignores one the browser brought', async () => {
    await s.createUser('erin-web@example.test', { password: 'erin-password' });
    const browser = new WebClient(s.origin);
    browser.cookies.set('tidemark_session', 'attacker-chosen-session-id');
    await browser.signIn('erin-web@example.test', 'erin-password');
    const first = browser.cookies.get('tidemark_session')!;
    expect(first).not.toBe('attacker-chosen-session-id');

    // Signing in again (e.g. as someone else on a shared computer) replaces the session and ends the old one.
    await browser.get('/account');
    expect((await browser.post('/signin', { email: 'erin-web@example.test', password: 'erin-password' })).status).toBe(303);
    const second = browser.cookies.get('tidemark_session')!;
    expect(second).not.toBe(first);
    const old = new WebClient(s.origin);
    old.cookies.set('tidemark_session', first);
    expect((await old.get('/account')).status).toBe(303);
  });
});

describe('CSRF', () => {
  it('refuses form posts without this browser\'s token', async () => {
    await s.createUser('frank-web@example.test', { password: 'frank-password' });
    const victim = new WebClient(s.origin);
    await victim.signIn('frank-web@example.test', 'frank-password');
    const attacker = new WebClient(s.origin);
    await attacker.get('/signup');
    const attackerToken = attacker.csrf();

    await victim.get('/account');
    for (const token of [null, '', attackerToken, `${victim.csrf()}x`]) {
      const res = await victim.post('/account/profile', { _csrf: token, fullName: 'Hacked' });
      expect(res.status, String(token)).toBe(403);
      expect(res.text).toContain('Form expired');
    }
    expect((await s.app.repos.users.byEmail('frank-web@example.test'))?.full_name).toBe('Test User');
    const ok = await victim.post('/account/profile', { fullName: 'Frank' });
    expect(ok.status).toBe(303);
    expect((await s.app.repos.users.byEmail('frank-web@example.test'))?.full_name).toBe('Frank');
  });

  it('protects sign-in, sign-up and sign-out too', async () => {
    await s.createUser('gina-web@example.test', { password: 'gina-password' });
    const browser = new WebClient(s.origin);
    await browser.get('/signin');
    expect((await browser.post('/signin', { _csrf: null, email: 'gina-web@example.test', password: 'gina-password' })).status).toBe(403);
    expect((await browser.post('/signup', { _csrf: null, name: 'X', email: 'new-csrf@example.test', password: 'long-enough' })).status).toBe(403);
    expect(await s.app.repos.users.byEmail('new-csrf@example.test')).toBeUndefined();
    await browser.signIn('gina-web@example.test', 'gina-password');
    await browser.get('/account');
    expect((await browser.post('/signout', { _csrf: null })).status).toBe(403);
    expect((await browser.get('/account')).status).toBe(200);
  });
});

describe('login throttling', () => {
  it('locks an account after repeated failures, with a clear message, until the window passes', async () => {
    await s.createUser('henry-web@example.test', { password: 'henry-password' });
    const browser = new WebClient(s.origin);
    for (let i = 0; i < 3; i++) expect((await browser.signIn('henry-web@example.test', 'wrong')).status).toBe(401);
    const locked = await browser.signIn('henry-web@example.test', 'henry-password');
    expect(locked.status).toBe(429);
    expect(locked.text).toMatch(/Too many failed sign-in attempts for this account\. Wait 15 minutes/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sessionCookieLine(locked.headers)).toBeUndefined();

    clock.advance(15 * 60_000 + 1000);
    expect((await browser.signIn('henry-web@example.test', 'henry-password')).status).toBe(303);
  });

  it('limits failures per IP address across accounts', async () => {
    clock.advance(16 * 60_000);
    const browser = new WebClient(s.origin);
    for (let i = 0; i < 8; i++) expect((await browser.signIn(`spray${i}@example.test`, 'guess')).status).toBe(401);
    const blocked = await browser.signIn('spray-next@example.test', 'guess');
    expect(blocked.status).toBe(429);
    expect(blocked.text).toMatch(/from your network/);
    clock.advance(16 * 60_000);
  });
});

describe('page safety', () => {
  it('escapes user text and sends a strict Content-Security-Policy', async () => {
    const evil = '<script>alert("x")</script>"><img src=x onerror=alert(1)>';
    const browser = new WebClient(s.origin);
    await browser.signUp('evil-name@example.test', 'evil-password', evil);
    const page = await browser.get('/account');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // Parsed as a browser would: no script, no inline handlers or styles anywhere; the name is text.
    const { document } = parseHTML(page.text);
    expect(document.querySelectorAll('script, img, style').length).toBe(0);
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes) expect(attr.name, el.outerHTML.slice(0, 80)).not.toMatch(/^(on|style$)/i);
    }
    expect(document.querySelector('#fullName')?.getAttribute('value')).toBe(evil);

    const css = await fetch(`${s.origin}/web.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  it('malformed form posts get an error page, never a 5xx', async () => {
    const browser = new WebClient(s.origin);
    await browser.get('/signin');
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', '%%%&&&=='],
      ['application/json', '{"email": ['],
      ['application/json', '[1,2,3]'],
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'email=a&email=b&password=c&password=d'],
    ]) {
      const res = await fetch(`${s.origin}/signin`, {
        method: 'POST',
        headers: { 'content-type': type, cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        body,
      });
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
  });
});
