// The access matrix: every endpoint that touches a collection, called by five kinds of caller on a
// collection shared through the real invite-and-join flow, with the exact status each must get.
// Denied writes are also checked to have changed nothing; listings that everyone may call are
// checked not to leak the shared collection's contents to anyone outside it.
//
// Callers: anonymous (no token), other (a signed-in stranger), viewer, member, owner.
// S is the shared collection, C a collection inside it (shares are inherited).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import { joinLinkIn, lastMailTo } from './sharing-mail.js';
import { createBookmark, createCollection, invite, share, type TestUser } from './sharing-setup.js';

const ACTORS = ['anonymous', 'other', 'viewer', 'member', 'owner'] as const;
type Actor = (typeof ACTORS)[number];
type Expected = Record<Actor, number>;

const READ: Expected = { anonymous: 401, other: 403, viewer: 200, member: 200, owner: 200 };
const WRITE: Expected = { anonymous: 401, other: 403, viewer: 403, member: 200, owner: 200 };
const OWNER: Expected = { anonymous: 401, other: 403, viewer: 403, member: 403, owner: 200 };
/** Routes about the caller's own data: every signed-in caller gets 200, and must see only what is theirs or shared with them. */
const SIGNED_IN: Expected = { anonymous: 401, other: 200, viewer: 200, member: 200, owner: 200 };

const collaborator = (a: Actor) => a === 'viewer' || a === 'member' || a === 'owner';

interface Req {
  method: string;
  path: string;
  body?: unknown;
  /** Multipart body (cover uploads) instead of JSON. */
  form?: FormData;
}

/** A response, with the path called and the JSON body sent (for the checks). */
type Res = ApiResponse & { url?: string; sent?: string };

interface Endpoint {
  name: string;
  expect: Expected;
  /** Builds the request for this caller, creating whatever fresh objects it acts on. */
  request(actor: Actor): Promise<Req> | Req;
  /** Checks the effect (or its absence) after the call. */
  after?(actor: Actor, res: Res, allowed: boolean): Promise<void> | void;
}

let s: TestServer;
const users = {} as Record<Exclude<Actor, 'anonymous'>, TestUser>;
let S: number;
let C: number;
/** A public collection of the owner's, with a private child nobody else may read. */
let Pub: number;
let bS: { _id: number; link: string };
const own = {} as Record<Exclude<Actor, 'anonymous'>, number>;

const tokenOf = (a: Actor) => (a === 'anonymous' ? null : users[a].token);
const asOwner = (method: string, path: string, body?: unknown) => s.api(method, path, { token: users.owner.token, body });
const ids = (res: ApiResponse): (number | string)[] => (res.body.items as { _id: number | string }[]).map((i) => i._id);
const uniq = (p: string) => `${p}-${Math.random().toString(36).slice(2, 8)}`;
const freshBookmark = async (collectionId = S, body: Record<string, unknown> = {}) => createBookmark(s, users.owner, collectionId, body);
const freshCollection = async (parent?: number) => createCollection(s, users.owner, uniq('fresh'), parent);
const exists = async (collectionId: number) => (await asOwner('GET', `/collection/${collectionId}`)).status === 200;
const bookmarkOf = async (id: number) => (await asOwner('GET', `/bookmark/${id}`)).body.item;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const coverForm = () => {
  const form = new FormData();
  form.append('cover', new Blob([PNG], { type: 'image/png' }), 'cover.png');
  return form;
};

async function call(actor: Actor, req: Req): Promise<ApiResponse> {
  const token = tokenOf(actor);
  if (!req.form) return s.api(req.method, req.path, { token, body: req.body });
  const res = await fetch(s.url + req.path, {
    method: req.method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: req.form,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, headers: res.headers, body };
}

beforeAll(async () => {
  s = await startServer();
  for (const a of ['owner', 'viewer', 'member', 'other'] as const) users[a] = await s.createUser(undefined, { name: a });
  S = await createCollection(s, users.owner, 'Matrix shared');
  C = await createCollection(s, users.owner, 'Matrix child', S);
  await share(s, users.owner, S, users.viewer, 'viewer');
  await share(s, users.owner, S, users.member, 'member');
  bS = await createBookmark(s, users.owner, S, { link: 'https://quokka.example.org/notes', title: 'quokka field notes', tags: ['matrixtag'], highlights: [{ text: 'matrix highlight' }] });
  await createBookmark(s, users.owner, C, { title: 'child page', highlights: [{ text: 'child highlight' }] });
  for (const a of ['owner', 'viewer', 'member', 'other'] as const) own[a] = await createCollection(s, users[a], `${a} own`);
  Pub = await createCollection(s, users.owner, 'Matrix public');
  expect((await asOwner('PUT', `/collection/${Pub}`, { public: true })).status).toBe(200);
  await createBookmark(s, users.owner, Pub, { title: 'public page' });
  const pubPrivate = await createCollection(s, users.owner, 'Matrix private child', Pub);
  await createBookmark(s, users.owner, pubPrivate, { title: 'quokka private child page', highlights: [{ text: 'quokka private highlight' }] });
  // A tag the owner uses only outside S, on the same site as bS: suggestions may offer it to the owner alone.
  await createBookmark(s, users.owner, own.owner, { link: 'https://quokka.example.org/private-page', tags: ['owner-private-tag'] });
});
afterAll(async () => s.close());

const endpoints: Endpoint[] = [
  // --- collections ---
  {
    name: 'GET /collection/{S}',
    expect: READ,
    request: () => ({ method: 'GET', path: `/collection/${S}` }),
    after: (a, res, ok) => {
      if (ok) expect(res.body.item.access.level).toBe({ viewer: 2, member: 3, owner: 4 }[a as 'viewer']);
    },
  },
  { name: 'GET /collection/{C} (inside S)', expect: READ, request: () => ({ method: 'GET', path: `/collection/${C}` }) },
  {
    name: 'PUT /collection/{S} title',
    expect: WRITE,
    request: (a) => ({ method: 'PUT', path: `/collection/${S}`, body: { title: `Renamed by ${a}` } }),
    after: async (a, _res, ok) => {
      const title = (await asOwner('GET', `/collection/${S}`)).body.item.title;
      if (ok) expect(title).toBe(`Renamed by ${a}`);
      else expect(title).not.toBe(`Renamed by ${a}`);
    },
  },
  {
    name: 'PUT /collection/{S} cover URLs',
    expect: WRITE,
    request: (a) => ({ method: 'PUT', path: `/collection/${S}`, body: { cover: [`https://img.example/${a}.png`] } }),
    after: async (a, _res, ok) => {
      const cover = (await asOwner('GET', `/collection/${S}`)).body.item.cover;
      expect(cover.includes(`https://img.example/${a}.png`)).toBe(ok);
    },
  },
  {
    name: 'PUT /collection/{X in S} public',
    expect: OWNER,
    request: async () => ({ method: 'PUT', path: `/collection/${await freshCollection(S)}`, body: { public: true } }),
    after: async (_a, res, ok) => {
      if (!ok) return;
      expect(res.body.item.public).toBe(true);
    },
  },
  {
    name: 'PUT /collection/{X in S} move to root',
    expect: OWNER,
    request: async () => ({ method: 'PUT', path: `/collection/${await freshCollection(S)}`, body: { parent: null } }),
  },
  {
    name: 'POST /collection inside S',
    expect: WRITE,
    request: () => ({ method: 'POST', path: '/collection', body: { title: uniq('sub'), parent: { $id: S } } }),
    after: (_a, res, ok) => {
      if (ok) expect(res.body.item.user.$id).toBe(users.owner.id);
    },
  },
  {
    name: 'DELETE /collection/{X in S}',
    expect: OWNER,
    request: async () => ({ method: 'DELETE', path: `/collection/${await freshCollection(S)}` }),
    after: async (_a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      if (Number.isFinite(id)) expect(await exists(id)).toBe(!ok);
    },
  },
  {
    name: 'DELETE /collections [X in S]',
    expect: OWNER,
    request: async () => ({ method: 'DELETE', path: '/collections', body: { ids: [await freshCollection(S)] } }),
  },
  {
    name: 'PUT /collections/merge [X] into S',
    expect: OWNER,
    request: async () => ({ method: 'PUT', path: '/collections/merge', body: { to: S, ids: [await freshCollection(S)] } }),
  },
  {
    name: 'GET /collections lists S only for collaborators',
    expect: SIGNED_IN,
    request: () => ({ method: 'GET', path: '/collections' }),
    after: (a, res, ok) => {
      if (ok) expect(ids(res).includes(S)).toBe(collaborator(a));
    },
  },
  {
    name: 'GET /collections/childrens lists C only for collaborators',
    expect: SIGNED_IN,
    request: () => ({ method: 'GET', path: '/collections/childrens' }),
    after: (a, res, ok) => {
      if (ok) expect(ids(res).includes(C)).toBe(collaborator(a));
    },
  },

  // --- bookmarks: read ---
  {
    name: 'GET /bookmarks/{S}',
    expect: READ,
    request: () => ({ method: 'GET', path: `/bookmarks/${S}` }),
    after: (_a, res, ok) => {
      if (ok) expect(ids(res)).toContain(bS._id);
    },
  },
  { name: 'GET /bookmarks/{C}', expect: READ, request: () => ({ method: 'GET', path: `/bookmarks/${C}` }) },
  { name: 'GET /bookmarks/{S}?nested=true', expect: READ, request: () => ({ method: 'GET', path: `/bookmarks/${S}?nested=true` }) },
  {
    name: 'GET /bookmarks/{Pub}?nested=true lists the private child to its owner only',
    expect: { anonymous: 200, other: 200, viewer: 200, member: 200, owner: 200 },
    request: () => ({ method: 'GET', path: `/bookmarks/${Pub}?nested=true` }),
    after: (a, res) => {
      const titles = (res.body.items as { title: string }[]).map((i) => i.title).sort();
      expect(titles).toEqual(a === 'owner' ? ['public page', 'quokka private child page'] : ['public page']);
      if (a !== 'owner') expect(JSON.stringify(res.body)).not.toContain('quokka');
    },
  },
  { name: 'GET /bookmarks/{S}?search=quokka', expect: READ, request: () => ({ method: 'GET', path: `/bookmarks/${S}?search=quokka` }) },
  {
    name: 'GET /bookmarks/0?search=quokka (search everything)',
    expect: SIGNED_IN,
    request: () => ({ method: 'GET', path: '/bookmarks/0?search=quokka' }),
    after: (a, res, ok) => {
      if (ok) expect(ids(res).includes(bS._id)).toBe(collaborator(a));
    },
  },
  { name: 'GET /bookmark/{b in S}', expect: READ, request: () => ({ method: 'GET', path: `/bookmark/${bS._id}` }) },

  // --- bookmarks: write ---
  {
    name: 'POST /bookmark into S',
    expect: WRITE,
    request: () => ({ method: 'POST', path: '/bookmark', body: { link: `https://example.com/${uniq('new')}`, collectionId: S } }),
    after: (a, res, ok) => {
      if (!ok) return;
      expect(res.body.item.user.$id).toBe(users.owner.id);
      expect(res.body.item.creatorRef).toBe(users[a as 'member'].id);
    },
  },
  {
    name: 'PUT /bookmark/{b in S} title',
    expect: WRITE,
    request: async (a) => ({ method: 'PUT', path: `/bookmark/${(await freshBookmark(S, { title: 'before' }))._id}`, body: { title: `by ${a}` } }),
    after: async (a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      expect((await bookmarkOf(id)).title).toBe(ok ? `by ${a}` : 'before');
    },
  },
  {
    name: 'PUT /bookmark/{b in C} add highlight',
    expect: WRITE,
    request: async (a) => ({ method: 'PUT', path: `/bookmark/${(await freshBookmark(C))._id}`, body: { highlights: [{ text: `hl by ${a}` }] } }),
    after: async (_a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      expect((await bookmarkOf(id)).highlights).toHaveLength(ok ? 1 : 0);
    },
  },
  {
    name: 'DELETE /bookmark/{b in S}',
    expect: WRITE,
    request: async () => ({ method: 'DELETE', path: `/bookmark/${(await freshBookmark(S))._id}` }),
    after: async (_a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      expect((await bookmarkOf(id)).collectionId).toBe(ok ? -99 : S);
    },
  },
  {
    name: 'POST /bookmarks into S and C',
    expect: WRITE,
    request: () => ({
      method: 'POST',
      path: '/bookmarks',
      body: { items: [{ link: `https://example.com/${uniq('bulk')}`, collectionId: S }, { link: `https://example.com/${uniq('bulk')}`, collectionId: C }] },
    }),
    after: (_a, res, ok) => {
      if (ok) expect(res.body.items.map((i: { user: { $id: number } }) => i.user.$id)).toEqual([users.owner.id, users.owner.id]);
    },
  },
  {
    name: 'PUT /bookmarks/{S} important',
    expect: WRITE,
    request: async () => ({ method: 'PUT', path: `/bookmarks/${S}`, body: { ids: [(await freshBookmark(S))._id], important: true } }),
    after: async (_a, res, ok) => {
      if (ok) expect(res.body.modified).toBe(1);
    },
  },
  {
    name: 'PUT /bookmarks/{S} move to C',
    expect: WRITE,
    request: async () => ({ method: 'PUT', path: `/bookmarks/${S}`, body: { ids: [(await freshBookmark(S))._id], collection: { $id: C } } }),
  },
  {
    name: "PUT /bookmark/{b in S} collection -99 goes to the owner's Trash, as DELETE does",
    expect: WRITE,
    request: async () => ({ method: 'PUT', path: `/bookmark/${(await freshBookmark(S))._id}`, body: { collection: { $id: -99 } } }),
    after: async (_a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      // The owner still reads it (no 403 after a member's move), in their own Trash.
      const mine = await asOwner('GET', `/bookmark/${id}`);
      expect(mine.status).toBe(200);
      expect(mine.body.item.collectionId).toBe(ok ? -99 : S);
      expect(mine.body.item.user.$id).toBe(users.owner.id);
      if (ok) expect(ids(await asOwner('GET', '/bookmarks/-99'))).toContain(id);
    },
  },
  {
    name: "PUT /bookmarks/{S} ids to collection -99 go to the owner's Trash",
    expect: WRITE,
    request: async () => ({ method: 'PUT', path: `/bookmarks/${S}`, body: { ids: [(await freshBookmark(S))._id], collection: { $id: -99 } } }),
    after: async (_a, res, ok) => {
      const id = (res.sent ? JSON.parse(res.sent).ids[0] : 0) as number;
      const mine = await asOwner('GET', `/bookmark/${id}`);
      expect(mine.status).toBe(200);
      expect(mine.body.item.collectionId).toBe(ok ? -99 : S);
      expect(mine.body.item.user.$id).toBe(users.owner.id);
    },
  },
  {
    name: 'DELETE /bookmarks/{S} ids',
    expect: WRITE,
    request: async () => ({ method: 'DELETE', path: `/bookmarks/${S}`, body: { ids: [(await freshBookmark(S))._id] } }),
    after: (_a, res, ok) => {
      if (ok) expect(res.body.modified).toBe(1);
    },
  },
  {
    name: "PUT /bookmark/{caller's own} move into S",
    expect: { anonymous: 401, other: 403, viewer: 403, member: 200, owner: 200 },
    request: async (a) => {
      const by = a === 'anonymous' ? users.owner : users[a];
      const b = await createBookmark(s, by, -1);
      return { method: 'PUT', path: `/bookmark/${b._id}`, body: { collection: { $id: S } } };
    },
    after: (_a, res, ok) => {
      if (ok) expect(res.body.item.user.$id).toBe(users.owner.id);
    },
  },
  {
    name: "PUT /bookmark/{b in S} move to caller's own collection",
    expect: WRITE,
    request: async (a) => {
      const b = await freshBookmark(S);
      return { method: 'PUT', path: `/bookmark/${b._id}`, body: { collection: { $id: a === 'anonymous' ? own.owner : own[a] } } };
    },
    after: async (a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      if (!ok) expect((await bookmarkOf(id)).collectionId).toBe(S);
      // Moved out of the shared collection, it belongs to whoever's collection it is now in.
      else expect(res.body.item.user.$id).toBe(users[a as 'member'].id);
    },
  },

  // --- highlights ---
  {
    name: 'GET /highlights/{S}',
    expect: READ,
    request: () => ({ method: 'GET', path: `/highlights/${S}` }),
    after: (_a, res, ok) => {
      if (ok) expect(res.body.items.map((h: { text: string }) => h.text)).toContain('matrix highlight');
    },
  },
  { name: 'GET /highlights/{C}', expect: READ, request: () => ({ method: 'GET', path: `/highlights/${C}` }) },
  {
    name: 'GET /highlights (everything)',
    expect: SIGNED_IN,
    request: () => ({ method: 'GET', path: '/highlights' }),
    after: (a, res, ok) => {
      if (ok) expect(res.body.items.some((h: { text: string }) => h.text === 'matrix highlight')).toBe(collaborator(a));
    },
  },

  // --- tags ---
  {
    name: 'GET /tags/{S}',
    expect: READ,
    request: () => ({ method: 'GET', path: `/tags/${S}` }),
    after: (_a, res, ok) => {
      if (ok) expect(ids(res)).toContain('matrixtag');
    },
  },
  { name: 'GET /tags/{C}', expect: READ, request: () => ({ method: 'GET', path: `/tags/${C}` }) },
  {
    name: 'GET /tags (everything) shows no tag of S to strangers',
    expect: SIGNED_IN,
    request: () => ({ method: 'GET', path: '/tags' }),
    after: (a, res, ok) => {
      if (ok && !collaborator(a)) expect(ids(res)).not.toContain('matrixtag');
    },
  },
  {
    name: 'PUT /tags/{S} rename',
    expect: WRITE,
    request: async (a) => {
      const tag = uniq(`t-${a}`);
      await freshBookmark(S, { tags: [tag] });
      return { method: 'PUT', path: `/tags/${S}`, body: { tags: [tag], replace: `${tag}-renamed` } };
    },
    after: async (_a, res, ok) => {
      const tags = ids(await asOwner('GET', `/tags/${S}`));
      const sent = JSON.parse(res.sent!) as { tags: string[]; replace: string };
      expect(tags.includes(sent.replace)).toBe(ok);
      expect(tags.includes(sent.tags[0])).toBe(!ok);
    },
  },
  {
    name: 'DELETE /tags/{S}',
    expect: WRITE,
    request: async (a) => {
      const tag = uniq(`d-${a}`);
      await freshBookmark(S, { tags: [tag] });
      return { method: 'DELETE', path: `/tags/${S}`, body: { tags: [tag] } };
    },
    after: async (_a, res, ok) => {
      const sent = JSON.parse(res.sent!) as { tags: string[] };
      expect(ids(await asOwner('GET', `/tags/${S}`)).includes(sent.tags[0])).toBe(!ok);
    },
  },
  {
    name: "PUT /tags (caller's own scope) never renames tags in S for others",
    expect: SIGNED_IN,
    request: async (a) => {
      const tag = uniq(`g-${a}`);
      await freshBookmark(S, { tags: [tag] });
      return { method: 'PUT', path: '/tags', body: { tags: [tag], replace: `${tag}-x` } };
    },
    after: async (a, res) => {
      const sent = JSON.parse(res.sent!) as { tags: string[] };
      expect(ids(await asOwner('GET', `/tags/${S}`)).includes(sent.tags[0])).toBe(a !== 'owner');
    },
  },
  {
    name: "DELETE /tags (caller's own scope) never removes tags in S for others",
    expect: SIGNED_IN,
    request: async (a) => {
      const tag = uniq(`h-${a}`);
      await freshBookmark(S, { tags: [tag] });
      return { method: 'DELETE', path: '/tags', body: { tags: [tag] } };
    },
    after: async (a, res) => {
      const sent = JSON.parse(res.sent!) as { tags: string[] };
      expect(ids(await asOwner('GET', `/tags/${S}`)).includes(sent.tags[0])).toBe(a !== 'owner');
    },
  },
  {
    name: "GET /tags/suggest/{b in S} never offers the owner's private tags to others",
    expect: READ,
    request: () => ({ method: 'GET', path: `/tags/suggest/${bS._id}` }),
    after: (a, res, ok) => {
      if (ok) expect(ids(res).includes('owner-private-tag')).toBe(a === 'owner');
    },
  },

  // --- duplicate check: the caller's own bookmarks only ---
  {
    name: 'POST /import/url/exists finds bookmarks of S for the owner only',
    expect: SIGNED_IN,
    request: () => ({ method: 'POST', path: '/import/url/exists', body: { urls: [bS.link] } }),
    after: (a, res, ok) => {
      if (ok) expect(res.body.result).toBe(a === 'owner');
    },
  },
  {
    name: 'GET /import/url/exists finds bookmarks of S for the owner only',
    expect: SIGNED_IN,
    request: () => ({ method: 'GET', path: `/import/url/exists?url=${encodeURIComponent(bS.link)}` }),
    after: (a, res, ok) => {
      if (ok) expect(res.body.result).toBe(a === 'owner');
    },
  },

  // --- sharing ---
  {
    name: 'GET /collection/{S}/sharing',
    expect: READ,
    request: () => ({ method: 'GET', path: `/collection/${S}/sharing` }),
    after: (a, res, ok) => {
      if (ok) expect(res.body.items[0].email === '').toBe(a === 'viewer');
    },
  },
  { name: 'GET /collection/{C}/sharing', expect: READ, request: () => ({ method: 'GET', path: `/collection/${C}/sharing` }) },
  {
    name: 'POST /collection/{S}/sharing',
    expect: WRITE,
    request: (a) => ({ method: 'POST', path: `/collection/${S}/sharing`, body: { role: 'viewer', emails: [`${uniq(a)}@example.test`] } }),
    after: (a, res) => {
      if (a === 'viewer' || a === 'other') expect(res.body.errorMessage).toBe('you dont have permissions to invite more people');
    },
  },
  {
    name: 'POST /collection/{C}/sharing',
    expect: WRITE,
    request: (a) => ({ method: 'POST', path: `/collection/${C}/sharing`, body: { role: 'viewer', emails: [`${uniq(a)}@example.test`] } }),
  },
  {
    name: 'PUT /collection/{S}/sharing/{collaborator}',
    expect: OWNER,
    request: async () => {
      const extra = await s.createUser();
      await share(s, users.owner, S, extra, 'member');
      return { method: 'PUT', path: `/collection/${S}/sharing/${extra.id}`, body: { role: 'viewer' } };
    },
    after: async (_a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      const listed = (await asOwner('GET', `/collection/${S}/sharing`)).body.items.find((i: { _id: number }) => i._id === id);
      expect(listed.role).toBe(ok ? 'viewer' : 'member');
    },
  },
  {
    name: 'DELETE /collection/{S}/sharing/{collaborator}',
    expect: OWNER,
    request: async () => {
      const extra = await s.createUser();
      await share(s, users.owner, S, extra, 'viewer');
      return { method: 'DELETE', path: `/collection/${S}/sharing/${extra.id}` };
    },
    after: async (_a, res, ok) => {
      const id = Number(res.url?.split('/').pop());
      const listed = (await asOwner('GET', `/collection/${S}/sharing`)).body.items.some((i: { _id: number }) => i._id === id);
      expect(listed).toBe(!ok);
    },
  },
  {
    name: 'DELETE /collection/{Z}/sharing (owner unshares, collaborators leave)',
    expect: { anonymous: 401, other: 403, viewer: 200, member: 200, owner: 200 },
    request: async () => {
      const z = await freshCollection();
      await share(s, users.owner, z, users.viewer, 'viewer');
      await share(s, users.owner, z, users.member, 'member');
      return { method: 'DELETE', path: `/collection/${z}/sharing` };
    },
    after: async (a, res) => {
      const z = Number(res.url?.split('/').slice(-2)[0]);
      const left = (await asOwner('GET', `/collection/${z}/sharing`)).body.items.map((i: { _id: number }) => i._id);
      const expected = [users.owner.id];
      if (a !== 'owner' && a !== 'viewer') expected.push(users.viewer.id);
      if (a !== 'owner' && a !== 'member') expected.push(users.member.id);
      expect(left).toEqual(expected);
    },
  },
  {
    name: 'POST /collection/{Z}/join with a valid token',
    expect: { anonymous: 401, other: 200, viewer: 200, member: 200, owner: 400 },
    request: async (a) => {
      const z = await freshCollection();
      const email = `${uniq(`join-${a}`)}@example.test`;
      await invite(s, users.owner, z, [email], 'viewer');
      return { method: 'POST', path: `/collection/${z}/join`, body: { token: joinLinkIn(lastMailTo(s.dataDir, email).text).token } };
    },
    after: (_a, res, ok) => {
      if (ok) expect(res.body.item.access.level).toBe(2);
    },
  },
];

const coverEndpoints: Endpoint[] = [
  {
    name: 'PUT /collection/{S}/cover (upload)',
    expect: WRITE,
    request: () => ({ method: 'PUT', path: `/collection/${S}/cover`, form: coverForm() }),
  },
  {
    name: 'PUT /bookmark/{b in S}/cover (upload)',
    expect: WRITE,
    request: async () => ({ method: 'PUT', path: `/bookmark/${(await freshBookmark(S))._id}/cover`, form: coverForm() }),
  },
];

describe('authorization matrix', () => {
  it('every caller gets exactly the allowed or denied status on every collection endpoint', { timeout: 120_000 }, async () => {
    const all = [...endpoints, ...coverEndpoints];
    const failures: string[] = [];
    let cells = 0;
    for (const ep of all) {
      for (const actor of ACTORS) {
        cells++;
        const req = await ep.request(actor);
        const res: Res = await call(actor, req);
        res.url = req.path.split('?')[0];
        res.sent = req.body === undefined ? undefined : JSON.stringify(req.body);
        const want = ep.expect[actor];
        if (res.status !== want) {
          failures.push(`${ep.name} as ${actor}: expected ${want}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          continue;
        }
        if (res.status >= 400) {
          // Every refusal is the error envelope and says nothing of the collection's contents.
          expect(res.body).toMatchObject({ result: false, status: want });
          expect(JSON.stringify(res.body)).not.toContain('quokka');
        }
        try {
          await ep.after?.(actor, res, res.status === 200);
        } catch (err) {
          failures.push(`${ep.name} as ${actor}: ${(err as Error).message}`);
        }
      }
    }
    console.log(`authorization matrix: ${cells} cells (${all.length} endpoints x ${ACTORS.length} callers)`);
    expect(failures).toEqual([]);
    expect(cells).toBe(all.length * ACTORS.length);
  });
});
