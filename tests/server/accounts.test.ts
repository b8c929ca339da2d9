// Account changes on the account page and through PUT /user: password changes end other sign-ins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeAs, exchangeCode, registerApp, tokenRequest, WebClient } from '../helpers/web-client.js';

let s: TestServer;
let app: Awaited<ReturnType<typeof registerApp>>;

beforeAll(async () => {
  s = await startServer();
  const dev = await s.createUser('accounts-dev@example.test');
  app = await registerApp(s, dev.id, { name: 'Accounts App' });
});
afterAll(async () => s.close());

/** A user signed in on two browsers and with an OAuth authorization from each. */
async function userWithSignIns(email: string, password: string) {
  const a = new WebClient(s.origin);
  expect((await a.signUp(email, password, 'Acc User')).status).toBe(303);
  const b = new WebClient(s.origin);
  expect((await b.signIn(email, password)).status).toBe(303);
  const grants = [];
  for (const browser of [a, b]) {
    const redirect = await authorizeAs(browser, { client_id: app.clientId, redirect_uri: app.redirectUri });
    const token = await exchangeCode(s, app, redirect.searchParams.get('code'));
    expect(token.status).toBe(200);
    grants.push(token.body as { access_token: string; refresh_token: string });
  }
  const user = (await s.app.repos.users.byEmail(email))!;
  const { token: testToken } = await s.app.repos.tokens.create({ userId: user.id, kind: 'test' });
  return { a, b, grants, testToken, user };
}

const refresh = (refreshToken: string) =>
  tokenRequest(s, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret, refresh_token: refreshToken });

describe('changing the password through PUT /user', () => {
  it('ends the other sessions and refresh tokens, keeps the caller\'s authorization and test tokens', async () => {
    const { a, b, grants, testToken } = await userWithSignIns('acc-api@example.test', 'first-password');
    const [mine, theirs] = grants;
    const res = await s.api('PUT', '/user', { token: mine.access_token, body: { oldpassword: 'first-password', newpassword: 'second-password' } });
    expect(res.status).toBe(200);

    expect((await a.get('/account')).status).toBe(303);
    expect((await b.get('/account')).status).toBe(303);
    expect((await s.api('GET', '/user', { token: theirs.access_token })).status).toBe(401);
    expect((await refresh(theirs.refresh_token)).status).toBe(400);

    expect((await s.api('GET', '/user', { token: mine.access_token })).status).toBe(200);
    expect((await refresh(mine.refresh_token)).status).toBe(200);
    expect((await s.api('GET', '/user', { token: testToken })).status).toBe(200);

    // The new password signs in; the old one no longer does.
    expect((await new WebClient(s.origin).signIn('acc-api@example.test', 'first-password')).status).toBe(401);
    expect((await new WebClient(s.origin).signIn('acc-api@example.test', 'second-password')).status).toBe(303);
  });

  it('a wrong old password gets 400 and changes nothing, and ends nothing', async () => {
    const { a, grants } = await userWithSignIns('acc-wrong@example.test', 'first-password');
    const res = await s.api('PUT', '/user', {
      token: grants[0].access_token,
      body: { oldpassword: 'not-it', newpassword: 'second-password', email: 'acc-changed@example.test', fullName: 'Changed' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/oldpassword/);
    const user = (await s.app.repos.users.byEmail('acc-wrong@example.test'))!;
    expect(user.full_name).toBe('Acc User');
    expect((await a.get('/account')).status).toBe(200);
    expect((await s.api('GET', '/user', { token: grants[1].access_token })).status).toBe(200);
    expect((await refresh(grants[1].refresh_token)).status).toBe(200);
    expect((await new WebClient(s.origin).signIn('acc-wrong@example.test', 'first-password')).status).toBe(303);
  });

  it('changing the email needs the current password', async () => {
    const { grants } = await userWithSignIns('acc-email@example.test', 'first-password');
    const token = grants[0].access_token;
    expect((await s.api('PUT', '/user', { token, body: { email: 'acc-email2@example.test' } })).status).toBe(400);
    expect((await s.api('PUT', '/user', { token, body: { email: 'acc-email2@example.test', oldpassword: 'nope' } })).status).toBe(400);
    const ok = await s.api('PUT', '/user', { token, body: { email: 'acc-email2@example.test', oldpassword: 'first-password' } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe('acc-email2@example.test');
    expect((await new WebClient(s.origin).signIn('acc-email2@example.test', 'first-password')).status).toBe(303);
  });
});

describe('the account page', () => {
  it('changing the password keeps this browser signed in and ends every other sign-in', async () => {
    const { a, b, grants, testToken } = await userWithSignIns('acc-web@example.test', 'first-password');
    await a.get('/account');
    const wrong = await a.post('/account/password', { oldpassword: 'nope', newpassword: 'second-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is wrong');
    expect((await b.get('/account')).status).toBe(200);

    await a.get('/account');
    const res = await a.post('/account/password', { oldpassword: 'first-password', newpassword: 'second-password' });
    expect(res.status).toBe(303);
    const after = await a.get(new URL(res.location!).pathname + new URL(res.location!).search);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Your password was changed');

    expect((await b.get('/account')).status).toBe(303);
    for (const g of grants) {
      expect((await s.api('GET', '/user', { token: g.access_token })).status).toBe(401);
      expect((await refresh(g.refresh_token)).status).toBe(400);
    }
    expect((await s.api('GET', '/user', { token: testToken })).status).toBe(200);
  });

  it('changes the name, and the email only with the current password', async () => {
    const browser = new WebClient(s.origin);
    await browser.signUp('acc-page@example.test', 'page-password', 'Before');
    await browser.get('/account');
    expect((await browser.post('/account/profile', { fullName: '  After  ' })).status).toBe(303);
    expect((await s.app.repos.users.byEmail('acc-page@example.test'))?.full_name).toBe('After');
    await browser.get('/account');
    expect((await browser.post('/account/profile', { fullName: '' })).status).toBe(400);

    await browser.get('/account');
    const wrong = await browser.post('/account/email', { email: 'acc-page2@example.test', password: 'wrong' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('the email was not changed');
    await s.createUser('acc-taken@example.test');
    const taken = await browser.post('/account/email', { email: 'acc-taken@example.test', password: 'page-password' });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('Another account already uses this email');
    const ok = await browser.post('/account/email', { email: 'acc-page2@example.test', password: 'page-password' });
    expect(ok.status).toBe(303);
    expect(await s.app.repos.users.byEmail('acc-page2@example.test')).toBeDefined();
  });
});
