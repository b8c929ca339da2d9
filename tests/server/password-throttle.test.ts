// Every password check shares the sign-in throttle: PUT /user with `oldpassword` and the account
// page's email and password forms cannot be used to guess a password without limit.
// Failures count per account (and per IP) across all of them; once blocked, even the right
// password is refused with 429 and Retry-After until the window has passed, and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

let s: TestServer;
const clock = new TestClock();
const WINDOW = 15 * 60_000;
const password = 'the-right-password';

beforeAll(async () => {
  s = await startServer({
    clock,
    web: { sessionTtlMs: 30 * 24 * 3600_000, maxFailuresPerAccount: 5, maxFailuresPerIp: 1000, throttleWindowMs: WINDOW },
  });
});
afterAll(async () => s.close());

async function account(name: string) {
  const u = await s.createUser(`${name}-${Date.now()}@example.test`, { password });
  return u;
}

describe('one throttle for every password check', () => {
  it('PUT /user: five wrong oldpasswords, then 429 with Retry-After even for the right one; nothing changed', async () => {
    const u = await account('api');
    for (let i = 0; i < 5; i++) {
      const res = await s.api('PUT', '/user', { token: u.token, body: { oldpassword: `guess-${i}`, newpassword: 'new-password-1' } });
      expect(res.status).toBe(400);
    }
    const blocked = await s.api('PUT', '/user', { token: u.token, body: { oldpassword: password, newpassword: 'new-password-1' } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ result: false, status: 429 });
    expect(blocked.body.errorMessage).toMatch(/Too many wrong passwords for this account\. Wait 15 minutes/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const email = await s.api('PUT', '/user', { token: u.token, body: { oldpassword: password, email: `moved-${Date.now()}@example.test` } });
    expect(email.status).toBe(429);
    expect((await s.api('GET', '/user', { token: u.token })).body.user.email).toBe(u.email);

    // The web sign-in of that account is blocked too: the same counter.
    const web = new WebClient(s.origin);
    expect((await web.signIn(u.email, password)).status).toBe(429);

    clock.advance(WINDOW + 1000);
    const ok = await s.api('PUT', '/user', { token: u.token, body: { oldpassword: password, newpassword: 'new-password-1' } });
    expect(ok.status).toBe(200);
  });

  it('the account page email and password forms count too, and say how long to wait', async () => {
    const u = await account('page');
    const web = new WebClient(s.origin);
    expect((await web.signIn(u.email, password)).status).toBe(303);
    for (let i = 0; i < 3; i++) {
      await web.get('/account');
      expect((await web.post('/account/email', { email: `x${i}@example.test`, password: `guess-${i}` })).status).toBe(400);
    }
    for (let i = 0; i < 2; i++) {
      await web.get('/account');
      expect((await web.post('/account/password', { oldpassword: `guess-p${i}`, newpassword: 'new-password-2' })).status).toBe(400);
    }
    await web.get('/account');
    const blocked = await web.post('/account/password', { oldpassword: password, newpassword: 'new-password-2' });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toMatch(/Too many wrong passwords for this account\. Wait 15 minutes and try again\./);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    await web.get('/account');
    expect((await web.post('/account/email', { email: 'y@example.test', password })).status).toBe(429);
    // And the API for the same account.
    expect((await s.api('PUT', '/user', { token: u.token, body: { oldpassword: password, newpassword: 'new-password-2' } })).status).toBe(429);
    clock.advance(WINDOW + 1000);
  });

  it('sign-in failures count against account changes as well', async () => {
    const u = await account('mixed');
    for (let i = 0; i < 5; i++) expect((await new WebClient(s.origin).signIn(u.email, `guess-${i}`)).status).toBe(401);
    const res = await s.api('PUT', '/user', { token: u.token, body: { oldpassword: password, newpassword: 'new-password-3' } });
    expect(res.status).toBe(429);
    clock.advance(WINDOW + 1000);
    expect((await s.api('PUT', '/user', { token: u.token, body: { oldpassword: password, newpassword: 'new-password-3' } })).status).toBe(200);
  });
});

describe('nobody can lock an owner out', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    // Behind a proxy, so each client below comes from the address it names.
    proxied = await startServer({ clock, trustProxy: true });
  });
  afterAll(async () => proxied.close());
  const from = (ip: string) => new WebClient(proxied.origin, { 'x-forwarded-for': ip });

  it('five wrong passwords from one address block that address only; the right one from another still signs in', async () => {
    const u = await proxied.createUser(`owner-${Date.now()}@example.test`, { password });
    const attacker = from('203.0.113.7');
    for (let i = 0; i < 5; i++) expect((await attacker.signIn(u.email, `guess-${i}`)).status).toBe(401);
    expect((await attacker.signIn(u.email, password)).status).toBe(429);
    expect((await from('198.51.100.20').signIn(u.email, password)).status).toBe(303);
  });

  it('past the account-wide ceiling (100 from many addresses) a fresh address still gets its check', async () => {
    const u = await proxied.createUser(`crowd-${Date.now()}@example.test`, { password });
    for (let n = 0; n < 25; n++) {
      const guesser = from(`203.0.113.${n + 10}`);
      for (let i = 0; i < 4; i++) expect((await guesser.signIn(u.email, `guess-${n}-${i}`)).status).toBe(401);
    }
    // An address that guessed is refused now, at its fifth try, by the ceiling...
    expect((await from('203.0.113.10').signIn(u.email, password)).status).toBe(429);
    // ...while the owner, from an address with no failures, signs in.
    expect((await from('192.0.2.1').signIn(u.email, password)).status).toBe(303);
  });
});
