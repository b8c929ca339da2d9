// GET /bookmarks/{id}?nested=true lists a collection and the collections below it. It must list only
// the descendants the caller may read: a private child of a public collection stays private (it
// answers 401/403 when asked directly, so it must not leak through its parent's listing either).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createBookmark, createCollection, share, type TestUser } from './sharing-setup.js';

let s: TestServer;
let owner: TestUser;
let stranger: TestUser;
let friend: TestUser;
let P: number; // public
let Priv: number; // private child of P
let PubChild: number; // public child of P
let SharedChild: number; // private child of P, shared with `friend` as viewer

const titles = (body: { items: { title: string }[] }) => body.items.map((i) => i.title).sort();

beforeAll(async () => {
  s = await startServer();
  owner = await s.createUser(undefined, { name: 'owner' });
  stranger = await s.createUser(undefined, { name: 'stranger' });
  friend = await s.createUser(undefined, { name: 'friend' });
  P = await createCollection(s, owner, 'Public parent');
  Priv = await createCollection(s, owner, 'Private child', P);
  PubChild = await createCollection(s, owner, 'Public child', P);
  SharedChild = await createCollection(s, owner, 'Shared child', P);
  for (const id of [P, PubChild]) {
    const res = await s.api('PUT', `/collection/${id}`, { token: owner.token, body: { public: true } });
    expect(res.status).toBe(200);
  }
  await share(s, owner, SharedChild, friend, 'viewer');
  await createBookmark(s, owner, P, { title: 'in public parent' });
  await createBookmark(s, owner, Priv, { title: 'secret in private child', highlights: [{ text: 'secret highlight', note: 'secret note' }] });
  await createBookmark(s, owner, PubChild, { title: 'in public child' });
  await createBookmark(s, owner, SharedChild, { title: 'in shared child' });
});
afterAll(async () => s.close());

describe('nested listing of a public collection', () => {
  it('the private child answers 401 / 403 when asked directly', async () => {
    expect((await s.api('GET', `/bookmarks/${Priv}`, { token: null })).status).toBe(401);
    expect((await s.api('GET', `/bookmarks/${Priv}`, { token: stranger.token })).status).toBe(403);
  });

  it('anonymous callers see only the public parent and its public children', async () => {
    const res = await s.api('GET', `/bookmarks/${P}?nested=true`, { token: null });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['in public child', 'in public parent']);
    expect(res.body.count).toBe(2);
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('a signed-in stranger sees the same, never the private child', async () => {
    const res = await s.api('GET', `/bookmarks/${P}?nested=true`, { token: stranger.token });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['in public child', 'in public parent']);
  });

  it('searching the nested listing does not reach the private child either', async () => {
    const res = await s.api('GET', `/bookmarks/${P}?nested=true&search=secret`, { token: stranger.token });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
    expect(res.body.count).toBe(0);
  });

  it('a collaborator of one child sees that child too, still not the private one', async () => {
    const res = await s.api('GET', `/bookmarks/${P}?nested=true`, { token: friend.token });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['in public child', 'in public parent', 'in shared child']);
  });

  it('the owner sees the whole branch', async () => {
    const res = await s.api('GET', `/bookmarks/${P}?nested=true`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['in public child', 'in public parent', 'in shared child', 'secret in private child']);
  });
});
