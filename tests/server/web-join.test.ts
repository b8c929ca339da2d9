// The page behind an invitation's join link (/join?collection=<id>&token=<secret>): sign in or sign
// up and come back, confirm, join; used, wrong, expired and malformed links; CSRF; escaping; the
// token kept out of links. Invitations go through the real API and the dev mailer's outbox.
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';
import { joinLinkIn, lastMailTo } from './sharing-mail.js';
import { createCollection, invite, type TestUser } from './sharing-setup.js';

const DAY = 24 * 3600_000;
const PASSWORD = 'join-page-password';

let s: TestServer;
const clock = new TestClock();
let owner: TestUser;
let seq = 0;

beforeAll(async () => {
  s = await startServer({ clock });
  owner = await s.createUser(undefined, { name: 'Olive Owner' });
});
afterAll(async () => s.close());

/** A person with a password, so they can sign in on the web pages. */
async function person(name = 'Ivy Invitee'): Promise<TestUser> {
  return s.createUser(`join-${++seq}@example.test`, { password: PASSWORD, name });
}

/** Invites `email` to the collection and answers the join link from the mail in the outbox. */
async function invitedLink(collectionId: number, email: string, role: 'member' | 'viewer', by: TestUser = owner) {
  await invite(s, by, collectionId, [email], role);
  return joinLinkIn(lastMailTo(s.dataDir, email).text);
}

/** The path and query of a join link (what the browser asks this server for). */
function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

async function signedIn(user: TestUser): Promise<WebClient> {
  const browser = new WebClient(s.origin);
  const res = await browser.signIn(user.email, PASSWORD);
  expect(res.status).toBe(303);
  return browser;
}

const collectionAs = (id: number, user: TestUser) => s.api('GET', `/collection/${id}`, { token: user.token });

/** The visible text of a page's main content, whitespace collapsed. */
function mainText(page: string): string {
  const { document } = parseHTML(page);
  return (document.querySelector('main')?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The confirmation page's details: each term of its description list with its description. */
function details(page: string): Record<string, string> {
  const { document } = parseHTML(page);
  const out: Record<string, string> = {};
  for (const dt of document.querySelectorAll('dl dt')) {
    out[dt.textContent!.trim()] = (dt.nextElementSibling?.textContent ?? '').replace(/\s+/g, ' ').trim();
  }
  return out;
}

describe('join link, signed out', () => {
  it('sends the visitor to sign in and back to the same link, then joining makes them a member', async () => {
    const c = await createCollection(s, owner, 'Team reading');
    const ivy = await person('Ivy Invitee');
    const link = await invitedLink(c, ivy.email, 'member');
    expect(link.url.startsWith(`${s.origin}/join?`)).toBe(true);

    const browser = new WebClient(s.origin);
    const first = await browser.get(link.url);
    expect(first.status).toBe(303);
    const signinUrl = new URL(first.location!);
    expect(signinUrl.pathname).toBe('/signin');
    expect(signinUrl.searchParams.get('next')).toBe(pathOf(link.url));
    expect(first.text).not.toContain('Team reading');

    const signinPage = await browser.get(first.location!);
    expect(signinPage.status).toBe(200);
    expect(browser.hidden('next')).toBe(pathOf(link.url));
    const signedInRes = await browser.post('/signin', { email: ivy.email, password: PASSWORD, next: browser.hidden('next')! });
    expect(signedInRes.status).toBe(303);
    expect(signedInRes.location).toBe(link.url);

    const confirm = await browser.get(signedInRes.location!);
    expect(confirm.status).toBe(200);
    const text = mainText(confirm.text);
    expect(text).toContain('Join “Team reading”?');
    expect(details(confirm.text)).toEqual({
      Collection: 'Team reading',
      'Invited by': 'Olive Owner',
      'Your role': 'Member: can add and edit bookmarks in this collection and the collections inside it.',
      'Joining as': `Ivy Invitee (${ivy.email})`,
    });
    const { document } = parseHTML(confirm.text);
    const form = document.querySelector('form[action="/join"]')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.querySelector('button[type="submit"]')?.textContent).toBe('Join');
    expect([...document.querySelectorAll('a')].some((a) => a.textContent === 'Not now')).toBe(true);

    // Looking does not use the invitation up: not a collaborator yet, and the invitation is still open.
    expect((await collectionAs(c, ivy)).status).toBe(403);
    const sharing = await s.api('GET', `/collection/${c}/sharing`, { token: owner.token });
    expect(sharing.body.invitations.map((i: { email: string }) => i.email)).toContain(ivy.email);

    const joined = await browser.post('/join', { collection: browser.hidden('collection')!, token: browser.hidden('token')! });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe(`${s.origin}/join/done?collection=${c}`);
    const done = await browser.get(joined.location!);
    expect(done.status).toBe(200);
    expect(mainText(done.text)).toContain('You joined “Team reading”');
    expect(mainText(done.text)).toContain('Tidemark extension');

    const api = await collectionAs(c, ivy);
    expect(api.status).toBe(200);
    expect(api.body.item.access.level).toBe(3);

    // The same link again: used, said plainly, and nothing changes.
    const again = await browser.get(link.url);
    expect(again.status).toBe(410);
    expect(mainText(again.text)).toContain('already used');
    expect(mainText(again.text)).toContain('invite you again');
    expect(again.text).not.toContain('<form method="post" action="/join"');
    const postAgain = await browser.post('/join', { collection: String(c), token: link.token });
    expect(postAgain.status).toBe(410);
    expect(mainText(postAgain.text)).toContain('already used');
  });

  it('a new person signs up from the sign-in page and comes back to join as a viewer', async () => {
    const c = await createCollection(s, owner, 'Public notes');
    const email = `join-new-${++seq}@example.test`;
    const link = await invitedLink(c, email, 'viewer');

    const browser = new WebClient(s.origin);
    const toSignin = await browser.get(link.url);
    await browser.get(toSignin.location!);
    const { document } = parseHTML(browser.lastPage);
    const signUpLink = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Sign up' && a.getAttribute('href')!.includes('next='));
    expect(signUpLink).toBeDefined();
    const signupPage = await browser.get(signUpLink!.getAttribute('href')!);
    expect(signupPage.status).toBe(200);
    expect(browser.hidden('next')).toBe(pathOf(link.url));
    const created = await browser.post('/signup', { name: 'Nina New', email, password: PASSWORD, next: browser.hidden('next')! });
    expect(created.status).toBe(303);
    expect(created.location).toBe(link.url);

    const confirm = await browser.get(link.url);
    expect(confirm.status).toBe(200);
    expect(details(confirm.text)['Your role']).toMatch(/^Viewer: can read the bookmarks .*but not change them\.$/);
    const joined = await browser.post('/join', { collection: browser.hidden('collection')!, token: browser.hidden('token')! });
    expect(joined.status).toBe(303);

    const nina = await s.app.repos.users.byEmail(email);
    const { token } = await s.app.repos.tokens.create({ userId: nina!.id, kind: 'test' });
    const api = await s.api('GET', `/collection/${c}`, { token });
    expect(api.status).toBe(200);
    expect(api.body.item.access.level).toBe(2);
  });
});

describe('confirmation page', () => {
  it('keeps the token out of every link and address, and sends no referrer', async () => {
    const c = await createCollection(s, owner, 'Secret plans');
    const ivy = await person();
    const link = await invitedLink(c, ivy.email, 'member');
    const browser = await signedIn(ivy);
    const page = await browser.get(link.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');

    const { document } = parseHTML(page.text);
    const addresses = [...document.querySelectorAll('[href], [src], [action]')].map(
      (el) => `${el.getAttribute('href') ?? ''}${el.getAttribute('src') ?? ''}${el.getAttribute('action') ?? ''}`,
    );
    expect(addresses.length).toBeGreaterThan(3);
    for (const address of addresses) expect(address).not.toContain(link.token);
    // Exactly once: the join form's hidden field.
    expect(page.text.split(link.token)).toHaveLength(2);
    expect(document.querySelector('form[action="/join"] input[type="hidden"][name="token"]')?.getAttribute('value')).toBe(link.token);
    const notNow = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Not now')!;
    expect(notNow.getAttribute('href')).toBe('/account');

    // The page after joining does not carry it either.
    const joined = await browser.post('/join', { collection: String(c), token: link.token });
    expect(joined.location).not.toContain(link.token);
    const done = await browser.get(joined.location!);
    expect(done.text).not.toContain(link.token);
  });

  it('escapes a collection title and names that contain HTML', async () => {
    const title = '<script>alert("x")</script> & <b>bold</b>';
    const evil = await s.createUser(undefined, { name: '<img src=x onerror=alert(1)>' });
    const c = await createCollection(s, evil, title);
    const ivy = await person('<i>Ivy</i>');
    const link = await invitedLink(c, ivy.email, 'member', evil);
    const browser = await signedIn(ivy);

    const page = await browser.get(link.url);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>');
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain('<b>bold');
    expect(page.text).not.toContain('<i>Ivy');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    const text = mainText(page.text);
    expect(text).toContain(`Join “${title}”?`);
    expect(details(page.text)).toMatchObject({
      Collection: title,
      'Invited by': '<img src=x onerror=alert(1)>',
      'Joining as': `<i>Ivy</i> (${ivy.email})`,
    });

    await browser.post('/join', { collection: String(c), token: link.token });
    const done = await browser.get(`/join/done?collection=${c}`);
    expect(done.status).toBe(200);
    expect(done.text).not.toContain('<script>');
    expect(mainText(done.text)).toContain(`You joined “${title}”`);
  });

  it('names the owner when a member sent the invitation, and says which account joins when the address differs', async () => {
    const c = await createCollection(s, owner, 'Shared further');
    const mia = await person('Mia Member');
    const first = await invitedLink(c, mia.email, 'member');
    const miaBrowser = await signedIn(mia);
    await miaBrowser.get(first.url);
    expect((await miaBrowser.post('/join', { collection: String(c), token: first.token })).status).toBe(303);

    const invitedAddress = `join-elsewhere-${++seq}@example.test`;
    const link = await invitedLink(c, invitedAddress, 'viewer', mia);
    const sam = await person('Sam Other');
    const browser = await signedIn(sam);
    const page = await browser.get(link.url);
    expect(page.status).toBe(200);
    const text = mainText(page.text);
    expect(details(page.text)).toMatchObject({ 'Invited by': 'Mia Member', Owner: 'Olive Owner' });
    expect(text).toContain(`sent to ${invitedAddress}, and you are signed in as ${sam.email}`);
  });
});

describe('links that do not work', () => {
  it('a wrong token, or a token for another collection, is an error page saying what to do', async () => {
    const c = await createCollection(s, owner, 'Wrong tokens');
    const other = await createCollection(s, owner, 'Another one');
    const ivy = await person();
    const link = await invitedLink(c, ivy.email, 'member');
    const browser = await signedIn(ivy);

    const wrong = `${link.token.slice(0, -4)}AAAA` === link.token ? `${link.token.slice(0, -4)}BBBB` : `${link.token.slice(0, -4)}AAAA`;
    for (const path of [`/join?collection=${c}&token=${wrong}`, `/join?collection=${other}&token=${link.token}`, `/join?collection=987654&token=${link.token}`]) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      const text = mainText(res.text);
      expect(text).toContain('This invitation link does not work');
      expect(text).toContain('invite you again');
      expect(text).not.toContain('Wrong tokens');
      expect(text).not.toContain('Another one');
    }
    const posted = await browser.post('/join', { collection: String(c), token: wrong });
    expect(posted.status).toBe(404);
    expect(mainText(posted.text)).toContain('invite you again');
    expect((await collectionAs(c, ivy)).status).toBe(403);

    // None of that used the real link up.
    expect((await browser.get(link.url)).status).toBe(200);
  });

  it('an expired link says when it expired', async () => {
    const c = await createCollection(s, owner, 'Expiring');
    const ivy = await person();
    const link = await invitedLink(c, ivy.email, 'member');
    const browser = await signedIn(ivy);
    expect((await browser.get(link.url)).status).toBe(200);
    clock.advance(15 * DAY);
    try {
      const res = await browser.get(link.url);
      expect(res.status).toBe(410);
      expect(mainText(res.text)).toMatch(/expired on \d{4}-\d{2}-\d{2}/);
      const posted = await browser.post('/join', { collection: String(c), token: link.token });
      expect(posted.status).toBe(410);
      expect((await collectionAs(c, ivy)).status).toBe(403);
    } finally {
      clock.advance(-15 * DAY);
    }
  });

  it('the owner opening the link is told to send it to the person invited', async () => {
    const ownerWeb = await s.createUser(`join-owner-${++seq}@example.test`, { password: PASSWORD, name: 'Web Owner' });
    const c = await createCollection(s, ownerWeb, 'Mine');
    const link = await invitedLink(c, `join-friend-${++seq}@example.test`, 'viewer', ownerWeb);
    const browser = await signedIn(ownerWeb);
    const res = await browser.get(link.url);
    expect(res.status).toBe(400);
    expect(mainText(res.text)).toContain('You own this collection');
  });

  it('missing or malformed parameters answer a 400 page, signed in or not', async () => {
    const ivy = await person();
    const signedInBrowser = await signedIn(ivy);
    const token = 'A'.repeat(43);
    const paths = [
      '/join',
      '/join?collection=5',
      `/join?token=${token}`,
      `/join?collection=abc&token=${token}`,
      `/join?collection=-1&token=${token}`,
      `/join?collection=0&token=${token}`,
      `/join?collection=1.5&token=${token}`,
      `/join?collection=99999999999999999999&token=${token}`,
      `/join?collection=5&token=${token}&token=${token}`,
      '/join?collection=5&token=short',
      '/join?collection=5&token=%3Cscript%3E%3C%2Fscript%3Eaaaaaaaaaaaaaaa',
      `/join?collection=5&token=${'A'.repeat(600)}`,
    ];
    for (const browser of [new WebClient(s.origin), signedInBrowser]) {
      for (const path of paths) {
        const res = await browser.get(path);
        expect(res.status, path).toBe(400);
        expect(res.headers.get('content-type')).toContain('text/html');
        expect(mainText(res.text), path).toContain('This invitation link is incomplete');
        expect(res.text).not.toContain('<script></script>');
      }
    }
    const bad: Record<string, string>[] = [{}, { collection: 'x', token }, { collection: '5' }, { collection: '5', token: 'bad token' }];
    for (const fields of bad) {
      const res = await signedInBrowser.post('/join', fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(mainText(res.text)).toContain('This invitation link is incomplete');
    }
  });
});

describe('joining needs this browser\'s form', () => {
  it('a post without the CSRF token, or with another browser\'s, is refused and joins nothing', async () => {
    const c = await createCollection(s, owner, 'Guarded');
    const ivy = await person();
    const link = await invitedLink(c, ivy.email, 'member');
    const browser = await signedIn(ivy);
    await browser.get(link.url);

    const missing = await browser.post('/join', { _csrf: null, collection: String(c), token: link.token });
    expect(missing.status).toBe(403);
    expect(mainText(missing.text)).toContain('Form expired');

    const attacker = await signedIn(await person('Mallory'));
    await attacker.get('/account');
    const foreign = await browser.post('/join', { _csrf: attacker.csrf(), collection: String(c), token: link.token });
    expect(foreign.status).toBe(403);

    expect((await collectionAs(c, ivy)).status).toBe(403);
    // The link still works for the real form.
    expect((await browser.get(link.url)).status).toBe(200);
    expect((await browser.post('/join', { collection: String(c), token: link.token })).status).toBe(303);
    expect((await collectionAs(c, ivy)).body.item.access.level).toBe(3);
  });

  it('a post from a signed-out browser goes to sign in and back to the confirmation page', async () => {
    const c = await createCollection(s, owner, 'Later');
    const ivy = await person();
    const link = await invitedLink(c, ivy.email, 'viewer');
    const browser = new WebClient(s.origin);
    await browser.get('/signin');
    const res = await browser.post('/join', { collection: String(c), token: link.token });
    expect(res.status).toBe(303);
    const next = new URL(res.location!).searchParams.get('next');
    expect(next).toBe(pathOf(link.url));
    expect((await collectionAs(c, ivy)).status).toBe(403);
  });
});

describe('after joining', () => {
  it('the done page is only for collaborators of the collection', async () => {
    const c = await createCollection(s, owner, 'Not yours');
    const stranger = await signedIn(await person('Stranger'));
    const res = await stranger.get(`/join/done?collection=${c}`);
    expect(res.status).toBe(404);
    expect(mainText(res.text)).toContain('not a collaborator');
    expect(mainText(res.text)).not.toContain('Not yours');
    expect((await stranger.get('/join/done?collection=nope')).status).toBe(400);
    expect((await new WebClient(s.origin).get(`/join/done?collection=${c}`)).status).toBe(303);
  });
});
