// Sharing a collection: invitations (with the contract's exact error texts), joining with the mailed
// link, collaborator records, role changes, removal, leave vs unshare, and collaborators working in
// the shared collection. Mail goes to the dev outbox here (sharing-smtp.test.ts uses a real SMTP server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/process.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';
import { joinLinkIn, lastMailTo, outbox } from './sharing-mail.js';
import { createBookmark, createCollection, invite, joinFromOutbox, share, type TestUser } from './sharing-setup.js';

const DAY = 24 * 3600_000;
const NO_EMAILS = 'no emails';
const TOO_MANY = 'you cant send more than 10 invites at once';
const BAN = 'you have too many pending invitations, you will be banned if you continue send more';
const NO_PERMISSION = 'you dont have permissions to invite more people';

let s: TestServer;
const clock = new TestClock();
let owner: TestUser;

beforeAll(async () => {
  s = await startServer({ clock });
  owner = await s.createUser(undefined, { name: 'Olive Owner' });
});
afterAll(async () => s.close());

const user = (name = 'Test User') => s.createUser(undefined, { name });
const sharingOf = async (id: number, as: TestUser) => s.api('GET', `/collection/${id}/sharing`, { token: as.token });

describe('inviting', () => {
  it('mails each address a join link to this server and answers the addresses invited', async () => {
    const c = await createCollection(s, owner, 'Reading list');
    const [a, b] = [await user(), await user()];
    const before = outbox(s.dataDir).length;
    const res = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'viewer', emails: [a.email, ` ${b.email} `] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, emails: [a.email, b.email] });
    expect(outbox(s.dataDir).length).toBe(before + 2);

    const mail = lastMailTo(s.dataDir, a.email);
    expect(mail.headers.subject).toBe('Olive Owner shared "Reading list" with you on Tidemark');
    expect(mail.text).toContain('as a viewer');
    const link = joinLinkIn(mail.text);
    expect(link.url.startsWith(`${s.origin}/join?collection=${c}&token=`)).toBe(true);
    expect(link.token.length).toBeGreaterThanOrEqual(40);
    expect(mail.html).toContain('Join the collection');

    // The secret is stored hashed only.
    const rows = (await s.sql('SELECT * FROM invitations WHERE collection_id = ?', c));
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(link.token);
  });

  it('answers the contract\'s texts: no emails, more than 10, and no permission to invite', async () => {
    const c = await createCollection(s, owner, 'Errors');
    const empty = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'member', emails: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ result: false, status: 400, errorMessage: NO_EMAILS });

    const eleven = Array.from({ length: 11 }, (_, i) => `person${i}@example.test`);
    const many = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'member', emails: eleven } });
    expect(many.status).toBe(400);
    expect(many.body).toEqual({ result: false, status: 400, errorMessage: TOO_MANY });
    expect((await s.sql('SELECT count(*) AS n FROM invitations WHERE collection_id = ?', c))[0]).toEqual({ n: 0 });

    const viewer = await user();
    await share(s, owner, c, viewer, 'viewer');
    const stranger = await user();
    for (const who of [viewer, stranger]) {
      const res = await s.api('POST', `/collection/${c}/sharing`, { token: who.token, body: { role: 'viewer', emails: ['friend@example.test'] } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ result: false, status: 403, errorMessage: NO_PERMISSION });
    }
  });

  it('refuses addresses that are not emails and roles other than member or viewer with a 400', async () => {
    const c = await createCollection(s, owner, 'Validation');
    const bad = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'member', emails: ['ok@example.test', 'not-an-email'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.result).toBe(false);
    expect(bad.body.errorMessage).toContain('body.emails.1');
    expect(bad.body.errorMessage).toContain('not-an-email');
    for (const role of ['owner', 'admin', '']) {
      const res = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role, emails: ['ok@example.test'] } });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe('body.role must be one of member, viewer');
    }
    const missing = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'member' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toBe('body.emails is required');
    // Nothing was invited by the refused requests.
    expect((await s.sql('SELECT count(*) AS n FROM invitations WHERE collection_id = ?', c))[0]).toEqual({ n: 0 });
  });

  it('accepts as an invitee every address sign-up accepts, and refuses what sign-up refuses', async () => {
    // Both follow lib/api/email.ts. A local part over 64 characters and a one-letter top-level
    // domain are such addresses: sign-up takes them, so an invitation must reach them too.
    const accepted = [`${'reader.'.repeat(10)}x@example.test`, 'ann@mail.x'];
    for (const email of accepted) {
      const browser = new WebClient(s.origin);
      await browser.get('/signup');
      expect((await browser.post('/signup', { name: 'Signed Up', email, password: 'signed-up-password', next: '/account' })).status).toBe(303);
    }
    const c = await createCollection(s, owner, 'Any address');
    const res = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'viewer', emails: accepted } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ result: true, emails: accepted });
    for (const email of accepted) expect(joinLinkIn(lastMailTo(s.dataDir, email).text).collectionId).toBe(c);

    const refused = 'ann@example';
    const browser = new WebClient(s.origin);
    await browser.get('/signup');
    const signUp = await browser.post('/signup', { name: 'Not Signed Up', email: refused, password: 'signed-up-password', next: '/account' });
    expect(signUp.status).toBe(400);
    expect(signUp.text).toContain('Enter a valid email address');
    const bad = await s.api('POST', `/collection/${c}/sharing`, { token: owner.token, body: { role: 'viewer', emails: [refused] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: false, status: 400, errorMessage: `body.emails.0 ("${refused}") is not an email address: write each as name@example.com.` });
  });

  it('refuses system collections and unknown ones', async () => {
    const sys = await s.api('POST', '/collection/-1/sharing', { token: owner.token, body: { role: 'member', emails: ['x@example.test'] } });
    expect(sys.status).toBe(400);
    expect(sys.body.errorMessage).toMatch(/system collection/);
    const unknown = await s.api('POST', '/collection/999999/sharing', { token: owner.token, body: { role: 'member', emails: ['x@example.test'] } });
    expect(unknown.status).toBe(404);
  });

  it('inviting an address again resends the invitation with a new link instead of adding one', async () => {
    const c = await createCollection(s, owner, 'Resend');
    const a = await user();
    await invite(s, owner, c, [a.email], 'viewer');
    const first = joinLinkIn(lastMailTo(s.dataDir, a.email).text);
    await invite(s, owner, c, [a.email.toUpperCase()], 'member');
    const second = joinLinkIn(lastMailTo(s.dataDir, a.email).text);
    expect(second.token).not.toBe(first.token);
    expect(lastMailTo(s.dataDir, a.email).text).toContain('as a member');

    const listed = await sharingOf(c, owner);
    expect(listed.body.invitations).toHaveLength(1);
    expect(listed.body.invitations[0]).toMatchObject({ email: a.email, role: 'member', collectionId: c, sent: true, expired: false });

    // Only the newest link works.
    const old = await s.api('POST', `/collection/${c}/join`, { token: a.token, body: { token: first.token } });
    expect(old.status).toBe(404);
    const ok = await s.api('POST', `/collection/${c}/join`, { token: a.token, body: { token: second.token } });
    expect(ok.status).toBe(200);
    expect(ok.body.item.access.level).toBe(3);
  });

  it('skips the owner and people who already collaborate', async () => {
    const c = await createCollection(s, owner, 'Skips');
    const m = await user();
    await share(s, owner, c, m, 'member');
    const before = outbox(s.dataDir).length;
    const res = await s.api('POST', `/collection/${c}/sharing`, { token: m.token, body: { role: 'viewer', emails: [owner.email, m.email] } });
    expect(res.status).toBe(200);
    expect(res.body.emails).toEqual([]);
    expect(res.body.skipped).toEqual([
      { email: owner.email, reason: 'the owner of the collection' },
      { email: m.email, reason: 'already a collaborator' },
    ]);
    expect(outbox(s.dataDir).length).toBe(before);
  });

  it('members may invite; the invitation is theirs and the invitee joins the owner\'s collection', async () => {
    const c = await createCollection(s, owner, 'Member invites');
    const m = await user();
    await share(s, owner, c, m, 'member');
    const friend = await user();
    await invite(s, m, c, [friend.email], 'viewer');
    const joined = await joinFromOutbox(s, friend);
    expect(joined.status).toBe(200);
    expect(joined.body.item).toMatchObject({ _id: c, user: { $id: owner.id }, access: { level: 2, draggable: false } });
  });
});

describe('resending from the command line', () => {
  it('invite:resend --all mails open invitations again with new links, to the outbox without SMTP, logging each file (never its link)', async () => {
    const c = await createCollection(s, owner, 'Resend from CLI');
    const v = await user();
    await invite(s, owner, c, [v.email], 'viewer');
    const first = joinLinkIn(lastMailTo(s.dataDir, v.email).text);
    const nothing = runCli(['invite:resend', '--collection', String(c), ...s.cliArgs]);
    expect(JSON.parse(nothing.stdout)).toEqual({ sent: [], failed: [] }); // it was delivered: only --all resends it

    const out = runCli(['invite:resend', '--all', '--collection', String(c), '--public-url', s.origin, ...s.cliArgs]);
    expect(out.status, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ sent: [v.email], failed: [] });
    const second = joinLinkIn(lastMailTo(s.dataDir, v.email).text);
    expect(second.token).not.toBe(first.token);
    expect(out.stderr).toContain(`invitation for ${v.email} written to the outbox: `);
    expect(out.stderr).not.toContain(second.token);
    expect((await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: first.token } })).status).toBe(404);
    expect((await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: second.token } })).status).toBe(200);

    expect(runCli(['invite:resend', '--collection', 'abc', ...s.cliArgs]).stderr).toMatch(/--collection must be a collection id/);
  });
});

describe('the pending-invitation limit', () => {
  it('allows 100 pending invitations, refuses more with the ban warning and writes nothing; expired ones stop counting', async () => {
    const sender = await user('Busy Sender');
    const c = await createCollection(s, sender, 'Big party');
    for (let batch = 0; batch < 10; batch++) {
      const emails = Array.from({ length: 10 }, (_, i) => `guest-${batch}-${i}@example.test`);
      const res = await s.api('POST', `/collection/${c}/sharing`, { token: sender.token, body: { role: 'viewer', emails } });
      expect(res.status).toBe(200);
    }
    const count = async () => ((await s.sql('SELECT count(*) AS n FROM invitations WHERE invited_by = ?', sender.id))[0] as { n: number }).n;
    expect(await count()).toBe(100);

    const over = await s.api('POST', `/collection/${c}/sharing`, { token: sender.token, body: { role: 'viewer', emails: ['one-more@example.test'] } });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ result: false, status: 429, errorMessage: BAN });
    expect(await count()).toBe(100);

    // Resending an existing one adds no pending invitation, so it is still allowed.
    const resend = await s.api('POST', `/collection/${c}/sharing`, { token: sender.token, body: { role: 'viewer', emails: ['guest-0-0@example.test'] } });
    expect(resend.status).toBe(200);
    expect(await count()).toBe(100);

    // Another collection counts toward the same limit: it is per inviter.
    const other = await createCollection(s, sender, 'Second party');
    const elsewhere = await s.api('POST', `/collection/${other}/sharing`, { token: sender.token, body: { role: 'viewer', emails: ['x@example.test'] } });
    expect(elsewhere.status).toBe(429);

    clock.advance(15 * DAY);
    try {
      const later = await s.api('POST', `/collection/${c}/sharing`, { token: sender.token, body: { role: 'viewer', emails: ['one-more@example.test'] } });
      expect(later.status).toBe(200);
    } finally {
      clock.advance(-15 * DAY);
    }
  });
});

describe('joining', () => {
  it('makes the signed-in user a collaborator with the invited role; the link works once', async () => {
    const c = await createCollection(s, owner, 'Join once');
    const v = await user();
    await invite(s, owner, c, [v.email], 'viewer');
    const link = joinLinkIn(lastMailTo(s.dataDir, v.email).text);
    expect((await s.api('GET', `/collection/${c}`, { token: v.token })).status).toBe(403);

    const res = await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: link.token } });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ _id: c, access: { level: 2, draggable: false }, collaborators: { $id: String(c) } });
    expect((await s.api('GET', `/collection/${c}`, { token: v.token })).status).toBe(200);

    const again = await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: link.token } });
    expect(again.status).toBe(410);
    expect(again.body.errorMessage).toMatch(/already used/);
    const someoneElse = await user();
    const stolen = await s.api('POST', `/collection/${c}/join`, { token: someoneElse.token, body: { token: link.token } });
    expect(stolen.status).toBe(410);
    expect((await s.api('GET', `/collection/${c}`, { token: someoneElse.token })).status).toBe(403);
  });

  it('refuses wrong tokens, tokens of another collection, and expired ones, each with a message saying what to do', async () => {
    const c = await createCollection(s, owner, 'Join errors');
    const d = await createCollection(s, owner, 'Other');
    const v = await user();
    await invite(s, owner, c, [v.email], 'member');
    const link = joinLinkIn(lastMailTo(s.dataDir, v.email).text);

    const wrong = await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: 'x'.repeat(43) } });
    expect(wrong.status).toBe(404);
    expect(wrong.body.errorMessage).toMatch(/not valid.*invite you again/);
    const elsewhere = await s.api('POST', `/collection/${d}/join`, { token: v.token, body: { token: link.token } });
    expect(elsewhere.status).toBe(404);
    const empty = await s.api('POST', `/collection/${c}/join`, { token: v.token, body: {} });
    expect(empty.status).toBe(400);
    const anonymous = await s.api('POST', `/collection/${c}/join`, { body: { token: link.token } });
    expect(anonymous.status).toBe(401);

    clock.advance(14 * DAY + 1000);
    try {
      const expired = await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: link.token } });
      expect(expired.status).toBe(410);
      expect(expired.body.errorMessage).toMatch(/expired on \d{4}-\d\d-\d\d\. Ask the person who invited you/);
    } finally {
      clock.advance(-(14 * DAY + 1000));
    }
    // The failed attempts left the invitation usable.
    const ok = await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: link.token } });
    expect(ok.status).toBe(200);
  });

  it('the owner cannot use an invitation to their own collection, and it stays valid for the invitee', async () => {
    const c = await createCollection(s, owner, 'Own join');
    const v = await user();
    await invite(s, owner, c, [v.email], 'viewer');
    const link = joinLinkIn(lastMailTo(s.dataDir, v.email).text);
    const self = await s.api('POST', `/collection/${c}/join`, { token: owner.token, body: { token: link.token } });
    expect(self.status).toBe(400);
    expect(self.body.errorMessage).toMatch(/You own this collection/);
    expect((await s.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: link.token } })).status).toBe(200);
  });

  it('a viewer invitation never demotes a member who uses it', async () => {
    const c = await createCollection(s, owner, 'No demotion');
    const m = await user();
    await share(s, owner, c, m, 'member');
    // The link is not bound to the address: m follows one sent to their other address.
    await invite(s, owner, c, ['second-address@example.test'], 'viewer');
    const link = joinLinkIn(lastMailTo(s.dataDir, 'second-address@example.test').text);
    const res = await s.api('POST', `/collection/${c}/join`, { token: m.token, body: { token: link.token } });
    expect(res.status).toBe(200);
    expect(res.body.item.access.level).toBe(3);
    expect((await s.api('POST', `/collection/${c}/join`, { token: m.token, body: { token: link.token } })).status).toBe(410);
  });

  it('the expiry follows invitationTtlDays', async () => {
    const clock2 = new TestClock();
    const s2 = await startServer({ clock: clock2, invitationTtlDays: 2 });
    try {
      const o = await s2.createUser();
      const v = await s2.createUser();
      const c = await createCollection(s2, o, 'Short');
      await invite(s2, o, c, [v.email], 'viewer');
      const link = joinLinkIn(lastMailTo(s2.dataDir, v.email).text);
      expect(lastMailTo(s2.dataDir, v.email).text).toContain(`until ${new Date(clock2.now() + 2 * DAY).toISOString().slice(0, 10)}`);
      clock2.advance(2 * DAY + 1);
      expect((await s2.api('POST', `/collection/${c}/join`, { token: v.token, body: { token: link.token } })).status).toBe(410);
    } finally {
      await s2.close();
    }
  });
});

describe('collaborator records', () => {
  let c: number;
  let m: TestUser;
  let v: TestUser;
  beforeAll(async () => {
    c = await createCollection(s, owner, 'Team');
    m = await user('Mia Member');
    v = await user('Vic Viewer');
    await share(s, owner, c, m, 'member');
    await share(s, owner, c, v, 'viewer');
  });

  it('lists the owner first, then collaborators; viewers see no emails', async () => {
    const asOwner = await sharingOf(c, owner);
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.items).toEqual([
      { _id: owner.id, email: owner.email, email_MD5: expect.stringMatching(/^[0-9a-f]{32}$/), fullName: 'Olive Owner', role: 'owner' },
      { _id: m.id, email: m.email, email_MD5: expect.stringMatching(/^[0-9a-f]{32}$/), fullName: 'Mia Member', role: 'member' },
      { _id: v.id, email: v.email, email_MD5: expect.stringMatching(/^[0-9a-f]{32}$/), fullName: 'Vic Viewer', role: 'viewer' },
    ]);
    const asMember = await sharingOf(c, m);
    expect(asMember.body.items.map((i: { email: string }) => i.email)).toEqual([owner.email, m.email, v.email]);
    expect(asMember.body.invitations).toEqual([]);
    const asViewer = await sharingOf(c, v);
    expect(asViewer.body.items.map((i: { email: string }) => i.email)).toEqual(['', '', '']);
    expect(asViewer.body.items.map((i: { email_MD5: string }) => i.email_MD5)).toEqual(asOwner.body.items.map((i: { email_MD5: string }) => i.email_MD5));
    expect(asViewer.body.invitations).toBeUndefined();
    expect((await sharingOf(c, await user())).status).toBe(403);
  });

  it('the collection record carries collaborators.$id and the caller\'s access level while shared', async () => {
    const levels: [TestUser, number, boolean][] = [[owner, 4, true], [m, 3, true], [v, 2, false]];
    for (const [who, level, draggable] of levels) {
      const res = await s.api('GET', `/collection/${c}`, { token: who.token });
      expect(res.body.item).toMatchObject({ _id: c, user: { $id: owner.id }, access: { level, draggable }, collaborators: { $id: String(c) } });
    }
    const solo = await createCollection(s, owner, 'Solo');
    expect((await s.api('GET', `/collection/${solo}`, { token: owner.token })).body.item.collaborators).toBeUndefined();
  });

  it('the tree listings give each collection the record GET /collection/{id} gives, for the owner and a collaborator', async () => {
    // A > B > C > D, with B and D shared: C carries B's collaborators, D its own.
    const owner2 = await user();
    const A = await createCollection(s, owner2, 'Tree A');
    const B = await createCollection(s, owner2, 'Tree B', A);
    const C = await createCollection(s, owner2, 'Tree C', B);
    const D = await createCollection(s, owner2, 'Tree D', C);
    const friend = await user();
    await share(s, owner2, B, friend, 'member');
    await share(s, owner2, D, await user(), 'viewer');
    const mine = await createCollection(s, friend, 'Friend own');
    for (const who of [owner2, friend]) {
      const listed = [
        ...(await s.api('GET', '/collections', { token: who.token })).body.items,
        ...(await s.api('GET', '/collections/childrens', { token: who.token })).body.items,
      ] as { _id: number }[];
      const expected = who === owner2 ? [A, B, C, D] : [B, C, D, mine];
      expect(listed.map((i) => i._id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      for (const item of listed) {
        expect(item).toEqual((await s.api('GET', `/collection/${item._id}`, { token: who.token })).body.item);
      }
    }
    const byId = async (id: number) => (await s.api('GET', `/collection/${id}`, { token: owner2.token })).body.item;
    expect((await byId(A)).collaborators).toBeUndefined();
    expect((await byId(C)).collaborators).toEqual({ $id: String(B) });
    expect((await byId(D)).collaborators).toEqual({ $id: String(D) });
  });

  it('only the owner changes roles; the new role takes effect at once', async () => {
    const x = await user('Xavier');
    await share(s, owner, c, x, 'member');
    expect((await createBookmark(s, x, c)).user.$id).toBe(owner.id);

    const byMember = await s.api('PUT', `/collection/${c}/sharing/${x.id}`, { token: m.token, body: { role: 'viewer' } });
    expect(byMember.status).toBe(403);
    expect(byMember.body.errorMessage).toMatch(/Only the owner/);
    const byViewer = await s.api('PUT', `/collection/${c}/sharing/${x.id}`, { token: v.token, body: { role: 'viewer' } });
    expect(byViewer.status).toBe(403);

    const res = await s.api('PUT', `/collection/${c}/sharing/${x.id}`, { token: owner.token, body: { role: 'viewer' } });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ _id: x.id, role: 'viewer', email: x.email });
    const denied = await s.api('POST', '/bookmark', { token: x.token, body: { link: 'https://example.com/denied', collectionId: c } });
    expect(denied.status).toBe(403);

    expect((await s.api('PUT', `/collection/${c}/sharing/${x.id}`, { token: owner.token, body: { role: 'owner' } })).status).toBe(400);
    expect((await s.api('PUT', `/collection/${c}/sharing/${owner.id}`, { token: owner.token, body: { role: 'viewer' } })).status).toBe(400);
    const stranger = await user();
    const notCollaborator = await s.api('PUT', `/collection/${c}/sharing/${stranger.id}`, { token: owner.token, body: { role: 'viewer' } });
    expect(notCollaborator.status).toBe(404);
    expect(notCollaborator.body.errorMessage).toBe(`User ${stranger.id} is not a collaborator of collection ${c}.`);
  });

  it('only the owner removes others; removal cancels the invitations they sent', async () => {
    const y = await user('Yara');
    await share(s, owner, c, y, 'member');
    const invitee = await user();
    await invite(s, y, c, [invitee.email], 'viewer');
    const link = joinLinkIn(lastMailTo(s.dataDir, invitee.email).text);

    expect((await s.api('DELETE', `/collection/${c}/sharing/${y.id}`, { token: m.token })).status).toBe(403);
    expect((await s.api('DELETE', `/collection/${c}/sharing/${y.id}`, { token: v.token })).status).toBe(403);
    expect((await s.api('DELETE', `/collection/${c}/sharing/${owner.id}`, { token: owner.token })).status).toBe(400);
    const res = await s.api('DELETE', `/collection/${c}/sharing/${y.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect((await s.api('GET', `/collection/${c}`, { token: y.token })).status).toBe(403);
    expect((await s.api('DELETE', `/collection/${c}/sharing/${y.id}`, { token: owner.token })).status).toBe(404);
    // y's invitation went with y.
    expect((await s.api('POST', `/collection/${c}/join`, { token: invitee.token, body: { token: link.token } })).status).toBe(404);
  });
});

describe('nested shares', () => {
  it('a collection below a shared one lists both shares; a member shared only below sees no invitations from above', async () => {
    const p = await createCollection(s, owner, 'Parent shared');
    const n = await createCollection(s, owner, 'Nested shared', p);
    const [top, below] = [await user('Top Member'), await user('Below Member')];
    await share(s, owner, p, top, 'member');
    await share(s, owner, n, below, 'member');
    await invite(s, owner, p, ['parent-pending@example.test'], 'viewer');
    await invite(s, owner, n, ['nested-pending@example.test'], 'viewer');

    const asOwner = (await sharingOf(n, owner)).body;
    expect(asOwner.items.map((i: { _id: number }) => i._id)).toEqual([owner.id, top.id, below.id]);
    expect(asOwner.invitations.map((i: { email: string }) => i.email).sort()).toEqual(['nested-pending@example.test', 'parent-pending@example.test']);
    const asTop = (await sharingOf(n, top)).body;
    expect(asTop.invitations.map((i: { email: string }) => i.email).sort()).toEqual(['nested-pending@example.test', 'parent-pending@example.test']);
    const asBelow = (await sharingOf(n, below)).body;
    expect(asBelow.invitations.map((i: { email: string; collectionId: number }) => [i.email, i.collectionId])).toEqual([['nested-pending@example.test', n]]);
    expect((await sharingOf(p, below)).status).toBe(403);

    // Removing `top` from the nested collection is refused: their access comes from the parent.
    const refused = await s.api('DELETE', `/collection/${n}/sharing/${top.id}`, { token: owner.token });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toBe(`User ${top.id} has access to collection ${n} through the shared collection ${p}: remove them there.`);
    // A role set on the nested collection applies there only.
    expect((await s.api('PUT', `/collection/${n}/sharing/${top.id}`, { token: owner.token, body: { role: 'viewer' } })).status).toBe(200);
    expect((await s.api('GET', `/collection/${n}`, { token: top.token })).body.item.access.level).toBe(2);
    expect((await s.api('GET', `/collection/${p}`, { token: top.token })).body.item.access.level).toBe(3);
  });
});

describe('leave vs unshare', () => {
  it('a member or viewer leaving removes only them; the owner unsharing removes everyone and cancels invitations', async () => {
    const c = await createCollection(s, owner, 'Leave or unshare');
    const child = await createCollection(s, owner, 'Inside', c);
    const b = await createBookmark(s, owner, child, { title: 'Kept by the owner' });
    const [m, v, m2] = [await user(), await user(), await user()];
    await share(s, owner, c, m, 'member');
    await share(s, owner, c, v, 'viewer');
    await share(s, owner, c, m2, 'member');

    // Leaving a collection shared through its parent is refused with where to leave instead.
    const fromChild = await s.api('DELETE', `/collection/${child}/sharing`, { token: m.token });
    expect(fromChild.status).toBe(400);
    expect(fromChild.body.errorMessage).toContain(`through the shared collection ${c}`);

    expect((await s.api('DELETE', `/collection/${c}/sharing`, { token: m.token })).status).toBe(200);
    expect((await s.api('GET', `/collection/${c}`, { token: m.token })).status).toBe(403);
    expect((await s.api('GET', `/bookmark/${b._id}`, { token: m.token })).status).toBe(403);
    expect((await s.api('DELETE', `/collection/${c}/sharing/${v.id}`, { token: v.token })).status).toBe(200); // leaving by user id
    expect((await sharingOf(c, owner)).body.items.map((i: { _id: number }) => i._id)).toEqual([owner.id, m2.id]);
    expect((await s.api('GET', `/collection/${c}`, { token: m2.token })).status).toBe(200);

    const pending = await user();
    await invite(s, owner, c, [pending.email], 'viewer');
    const link = joinLinkIn(lastMailTo(s.dataDir, pending.email).text);
    expect((await s.api('DELETE', `/collection/${child}/sharing`, { token: owner.token })).status).toBe(400); // shared through its parent

    const unshare = await s.api('DELETE', `/collection/${c}/sharing`, { token: owner.token });
    expect(unshare.status).toBe(200);
    expect((await s.api('GET', `/collection/${c}`, { token: m2.token })).status).toBe(403);
    expect((await sharingOf(c, owner)).body).toEqual({ result: true, items: [expect.objectContaining({ _id: owner.id, role: 'owner' })], invitations: [] });
    expect((await s.api('POST', `/collection/${c}/join`, { token: pending.token, body: { token: link.token } })).status).toBe(404);
    const record = (await s.api('GET', `/collection/${c}`, { token: owner.token })).body.item;
    expect(record.collaborators).toBeUndefined();
    expect((await s.api('GET', `/bookmark/${b._id}`, { token: owner.token })).body.item.title).toBe('Kept by the owner');

    const stranger = await user();
    expect((await s.api('DELETE', `/collection/${c}/sharing`, { token: stranger.token })).status).toBe(403);
  });
});

describe('working in a shared collection', () => {
  let c: number;
  let child: number;
  let m: TestUser;
  let v: TestUser;
  beforeAll(async () => {
    c = await createCollection(s, owner, 'Project');
    child = await createCollection(s, owner, 'Project notes', c);
    m = await user('Mo Member');
    v = await user('Val Viewer');
    await share(s, owner, c, m, 'member');
    await share(s, owner, c, v, 'viewer');
  });

  it('bookmarks a member saves belong to the owner, with the member as creator', async () => {
    const b = await createBookmark(s, m, child, { title: 'Member find zebrafish', tags: ['research'], highlights: [{ text: 'quote' }] });
    expect(b.user).toEqual({ $id: owner.id });
    expect(b.creatorRef).toBe(m.id);
    const seenByOwner = await s.api('GET', `/bookmark/${b._id}`, { token: owner.token });
    expect(seenByOwner.body.item.title).toBe('Member find zebrafish');
    const seenByViewer = await s.api('GET', `/bookmarks/${child}`, { token: v.token });
    expect(seenByViewer.body.items.map((i: { _id: number }) => i._id)).toContain(b._id);
    // Search across everything (collectionId 0) includes what is shared with the caller.
    for (const who of [owner, m, v]) {
      const found = await s.api('GET', '/bookmarks/0?search=zebrafish', { token: who.token });
      expect(found.body.items.map((i: { _id: number }) => i._id)).toEqual([b._id]);
    }
    const stranger = await user();
    expect((await s.api('GET', '/bookmarks/0?search=zebrafish', { token: stranger.token })).body.count).toBe(0);
  });

  it('a member removing a bookmark sends it to the owner\'s Trash', async () => {
    const b = await createBookmark(s, m, c, { title: 'To remove' });
    expect((await s.api('DELETE', `/bookmark/${b._id}`, { token: m.token })).status).toBe(200);
    const ownerTrash = await s.api('GET', '/bookmarks/-99', { token: owner.token });
    expect(ownerTrash.body.items.map((i: { _id: number }) => i._id)).toContain(b._id);
    const memberTrash = await s.api('GET', '/bookmarks/-99', { token: m.token });
    expect(memberTrash.body.items.map((i: { _id: number }) => i._id)).not.toContain(b._id);
    // In Trash it is the owner's alone.
    expect((await s.api('GET', `/bookmark/${b._id}`, { token: m.token })).status).toBe(403);
  });

  it('viewers read but cannot write; members write highlights and tags', async () => {
    const b = await createBookmark(s, owner, c, { title: 'Owner page', tags: ['draft'] });
    expect((await s.api('PUT', `/bookmark/${b._id}`, { token: v.token, body: { highlights: [{ text: 'viewer note' }] } })).status).toBe(403);
    const hl = await s.api('PUT', `/bookmark/${b._id}`, { token: m.token, body: { highlights: [{ text: 'member note', color: 'green' }] } });
    expect(hl.status).toBe(200);
    const listed = await s.api('GET', `/highlights/${c}`, { token: v.token });
    expect(listed.body.items.map((h: { text: string }) => h.text)).toContain('member note');

    expect((await s.api('PUT', `/tags/${c}`, { token: v.token, body: { tags: ['draft'], replace: 'final' } })).status).toBe(403);
    expect((await s.api('PUT', `/tags/${c}`, { token: m.token, body: { tags: ['draft'], replace: 'final' } })).status).toBe(200);
    expect((await s.api('GET', `/bookmark/${b._id}`, { token: owner.token })).body.item.tags).toEqual(['final']);
  });

  it('members edit the collection and add sub-collections (owned by the owner); only the owner moves, publishes or deletes it', async () => {
    expect((await s.api('PUT', `/collection/${c}`, { token: m.token, body: { title: 'Project (renamed)' } })).status).toBe(200);
    expect((await s.api('PUT', `/collection/${c}`, { token: v.token, body: { title: 'nope' } })).status).toBe(403);
    const sub = await s.api('POST', '/collection', { token: m.token, body: { title: 'By member', parent: { $id: c } } });
    expect(sub.status).toBe(200);
    expect(sub.body.item).toMatchObject({ user: { $id: owner.id }, parent: { $id: c }, access: { level: 3 }, collaborators: { $id: String(c) } });
    expect((await s.api('PUT', `/collection/${c}`, { token: m.token, body: { public: true } })).status).toBe(403);
    expect((await s.api('DELETE', `/collection/${sub.body.item._id}`, { token: m.token })).status).toBe(403);
    expect((await s.api('DELETE', `/collection/${sub.body.item._id}`, { token: owner.token })).status).toBe(200);
  });
});

describe('shared collections in the collection lists', () => {
  it('the topmost shared collection is a root for the collaborator; what is below it is in childrens', async () => {
    const o = await user('Tree Owner');
    const c = await createCollection(s, o, 'Shared root');
    const child = await createCollection(s, o, 'Shared child', c);
    const privateParent = await createCollection(s, o, 'Private parent');
    const nested = await createCollection(s, o, 'Shared nested', privateParent);
    const mine = await user();
    const ownRoot = await createCollection(s, mine, 'My own');
    await share(s, o, c, mine, 'member');
    await share(s, o, nested, mine, 'viewer');

    const roots = await s.api('GET', '/collections', { token: mine.token });
    expect(roots.status).toBe(200);
    const ids = roots.body.items.map((i: { _id: number }) => i._id);
    expect(ids[0]).toBe(ownRoot); // own roots first
    expect(new Set(ids)).toEqual(new Set([ownRoot, c, nested]));
    const nestedRecord = roots.body.items.find((i: { _id: number }) => i._id === nested);
    expect(nestedRecord.parent).toBeUndefined(); // its parent is not shared with the caller
    expect(nestedRecord).toMatchObject({ access: { level: 2 }, user: { $id: o.id }, collaborators: { $id: String(nested) } });

    const children = await s.api('GET', '/collections/childrens', { token: mine.token });
    expect(children.body.items.map((i: { _id: number; parent: { $id: number } }) => [i._id, i.parent.$id])).toEqual([[child, c]]);
    expect((await s.api('GET', `/collection/${privateParent}`, { token: mine.token })).status).toBe(403);

    // The owner's own lists are unchanged; a stranger sees none of it.
    const ownerRoots = (await s.api('GET', '/collections', { token: o.token })).body.items.map((i: { _id: number }) => i._id);
    expect(new Set(ownerRoots)).toEqual(new Set([c, privateParent]));
    const stranger = await user();
    expect((await s.api('GET', '/collections', { token: stranger.token })).body.items).toEqual([]);
    expect((await s.api('GET', '/collections/childrens', { token: stranger.token })).body.items).toEqual([]);
  });
});
