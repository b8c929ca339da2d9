import { afterAll, beforeAll, expect, it } from 'vitest';
import { newBookmark } from '../../../tests/helpers/pg-twin.js';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { PgChangeFeed } from '../../db/postgres/change-feed.js';
import { ReadCache } from '../../db/read-cache.js';
import type { Repositories } from '../types/index.js';
import { createPostgresRepositories } from './index.js';

// The PostgreSQL read caches of two instances (two pools, each with its own change feed, against a
// real server): what one instance changes, the other sees within 1 s; a read racing a commit never
// leaves a stale value behind; without the LISTEN connection nothing is served from memory.

const pools = twoInstancePools(4);
const clock = new TestClock();
let feedA: PgChangeFeed;
let feedB: PgChangeFeed;
let a: Repositories;
let b: Repositories;

beforeAll(async () => {
  feedA = new PgChangeFeed(pools.a, { connectionString: pools.url });
  feedB = new PgChangeFeed(pools.b, { connectionString: pools.url });
  await Promise.all([feedA.start(), feedB.start()]);
  a = createPostgresRepositories(pools.a, clock, (t) => feedA.signal(t));
  b = createPostgresRepositories(pools.b, clock, (t) => feedB.signal(t));
});
afterAll(async () => {
  await feedA?.close();
  await feedB?.close();
});

/** Polls until `check` holds; answers the milliseconds it took (fails after `limitMs`). */
async function within(check: () => Promise<boolean>, limitMs = 3000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > limitMs) throw new Error(`still not true after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Lets the notifications of the writes just made arrive, so a cache filled next stays filled. */
const settle = () => new Promise((r) => setTimeout(r, 200));

/** Queries pool `p` made from now on (each pool.query checks a connection out once). */
function countQueries(p: typeof pools.a): () => number {
  let n = 0;
  p.on('acquire', () => n++);
  return () => n;
}

it('a warm cache answers without the database; a bookmark moved on A is seen moved on B within 1 s', async () => {
  const user = await a.users.create({ email: 'mover@example.test', passwordHash: null });
  const from = await a.collections.create(user.id, { title: 'From', parentId: null });
  const to = await a.collections.create(user.id, { title: 'To', parentId: null });
  const [id] = await a.bookmarks.create([newBookmark(user.id, { link: 'https://move.example.com/', collectionId: from.id, title: 'Moving' })]);

  await settle();
  // B reads it twice: the second time from memory.
  expect((await b.bookmarks.get(id))?.collectionId).toBe(from.id);
  expect((await b.access.bookmarkLocation(id))?.collection_id).toBe(from.id);
  const queries = countQueries(pools.b);
  expect((await b.bookmarks.get(id))?.collectionId).toBe(from.id);
  expect((await b.access.bookmarkLocation(id))?.collection_id).toBe(from.id);
  expect(queries()).toBe(0);

  expect(await a.bookmarks.update(id, { move: { collectionId: to.id, ownerId: user.id } })).toBe(true);
  // A sees its own write at once (no wait for the notification).
  expect((await a.bookmarks.get(id))?.collectionId).toBe(to.id);
  const took = await within(async () => (await b.bookmarks.get(id))?.collectionId === to.id && (await b.access.bookmarkLocation(id))?.collection_id === to.id);
  expect(took).toBeLessThanOrEqual(1000);
});

it('32 requests missing one bookmark at once wait for one read; the job runner polling the queue does not empty the caches', async () => {
  const user = await a.users.create({ email: 'crowd@example.test', passwordHash: null });
  const [id] = await a.bookmarks.create([newBookmark(user.id, { link: 'https://crowd.example.com/', title: 'Popular' })]);
  await settle();
  let queries = countQueries(pools.b);
  const answers = await Promise.all(Array.from({ length: 32 }, () => b.bookmarks.get(id)));
  expect(answers.every((item) => item?.title === 'Popular')).toBe(true);
  // One bookmark read is a few queries (the row, its highlights, its files), not 32 times that.
  const cold = queries();
  expect(cold).toBeGreaterThan(0);
  expect(cold).toBeLessThanOrEqual(4);

  // The runner claims (finding nothing due), and an instance prunes finished jobs: neither touches what a cache holds.
  const claimed = await b.jobs.claim(60_000);
  if (claimed) await b.jobs.release(claimed.id);
  await b.jobs.prune(60_000);
  queries = countQueries(pools.b);
  expect((await b.bookmarks.get(id))?.title).toBe('Popular');
  expect(queries()).toBe(0);
  // A write to a cached table still empties them at once.
  await b.bookmarks.update(id, { title: 'Renamed' });
  expect((await b.bookmarks.get(id))?.title).toBe('Renamed');
});

it('a share changed on A is enforced on B within 1 s; a revoked token is refused by B within 1 s', async () => {
  const owner = await a.users.create({ email: 'owner@example.test', passwordHash: null });
  const member = await a.users.create({ email: 'member@example.test', passwordHash: null });
  const shared = await a.collections.create(owner.id, { title: 'Shared', parentId: null });
  await a.sharing.setRole(shared.id, member.id, 'member', owner.id);
  const chain = (await b.access.collectionWithAncestors(shared.id)).map((c) => c.id);
  expect(await b.access.sharedRole(member.id, chain)).toBe('member');
  expect(await b.access.nearestShared(chain)).toBe(shared.id);

  await a.sharing.setRole(shared.id, member.id, 'viewer', owner.id);
  expect(await within(async () => (await b.access.sharedRole(member.id, chain)) === 'viewer')).toBeLessThanOrEqual(1000);
  await a.sharing.removeUser(member.id, [shared.id]);
  expect(await within(async () => (await b.access.sharedRole(member.id, chain)) === null)).toBeLessThanOrEqual(1000);

  const { token, row } = await a.tokens.create({ userId: member.id, kind: 'test' });
  expect((await b.tokens.findValid(token))?.id).toBe(row.id);
  await a.tokens.revoke(row.id);
  expect(await a.tokens.findValid(token)).toBeUndefined();
  expect(await within(async () => (await b.tokens.findValid(token)) === undefined)).toBeLessThanOrEqual(1000);
});

it('a read that began before a commit is answered but not kept, even after a newer value was stored', async () => {
  const user = await a.users.create({ email: 'race@example.test', passwordHash: null });
  const [id] = await a.bookmarks.create([newBookmark(user.id, { link: 'https://race.example.com/', title: 'Before' })]);
  await settle();
  const signal = feedB.signal(['bookmarks']);
  const cache = new ReadCache<number, string>(signal, 10);
  const title = () => pools.b.query<{ title: string }>('SELECT title FROM bookmarks WHERE id = $1', [id]).then((r) => r.rows[0].title);
  // The slow read takes its snapshot, then waits 600 ms; A commits a change meanwhile.
  const slow = cache.getAsync(id, () =>
    pools.b.query<{ title: string }>('SELECT title, pg_sleep(0.6) FROM bookmarks WHERE id = $1', [id]).then((r) => r.rows[0].title),
  );
  await new Promise((r) => setTimeout(r, 100));
  const before = signal.generation();
  await a.bookmarks.update(id, { title: 'After' });
  await within(async () => signal.generation() !== before);
  // A read after the notice stores the new value; the slow one, answered later, must not replace it.
  expect(await cache.getAsync(id, title)).toBe('After');
  expect(await slow).toBe('Before');
  expect(await cache.getAsync(id, async () => 'not asked')).toBe('After');
});

it('while the LISTEN connection is down nothing is served from memory; it comes back by itself', async () => {
  const user = await a.users.create({ email: 'lost@example.test', passwordHash: null });
  const [id] = await a.bookmarks.create([newBookmark(user.id, { link: 'https://lost.example.com/', title: 'One' })]);
  expect((await b.bookmarks.get(id))?.title).toBe('One');
  expect(feedB.usable()).toBe(true);
  const pid = feedB.listenerPid();
  expect(pid).not.toBeNull();
  await pools.a.query('SELECT pg_terminate_backend($1)', [pid]);
  await within(async () => !feedB.usable());
  // Changed while B hears nothing: B reads the database, not its memory.
  await a.bookmarks.update(id, { title: 'Two' });
  const queries = countQueries(pools.b);
  expect((await b.bookmarks.get(id))?.title).toBe('Two');
  expect(queries()).toBeGreaterThan(0);
  // Back and listening: caching again, and changes heard again.
  await within(async () => feedB.usable());
  expect(feedB.listenerPid()).not.toBe(pid);
  await a.bookmarks.update(id, { title: 'Three' });
  expect(await within(async () => (await b.bookmarks.get(id))?.title === 'Three')).toBeLessThanOrEqual(1000);
});

it('a LISTEN connection that stops answering (no error, no close) turns caching off within 1 s, and is replaced', async () => {
  await within(async () => feedB.usable());
  const pid = feedB.listenerPid()!;
  // The server process of B's LISTEN connection stops dead, as behind a cut network: nothing is said.
  process.kill(pid, 'SIGSTOP');
  try {
    const off = await within(async () => !feedB.usable());
    expect(off).toBeLessThanOrEqual(1000);
    const user = await a.users.create({ email: 'silent@example.test', passwordHash: null });
    const [id] = await a.bookmarks.create([newBookmark(user.id, { link: 'https://silent.example.com/', title: 'Heard' })]);
    expect((await b.bookmarks.get(id))?.title).toBe('Heard');
    await a.bookmarks.update(id, { title: 'Unheard by the stopped connection' });
    expect((await b.bookmarks.get(id))?.title).toBe('Unheard by the stopped connection');
    // After 5 s without an answer B gives that connection up and listens on a new one.
    await within(async () => feedB.usable() && feedB.listenerPid() !== pid, 10_000);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}, 30_000);

it('keeps at most its bound of entries', async () => {
  const cache = new ReadCache<number, number>(feedA.signal(['bookmarks']), 3);
  for (let k = 0; k < 10; k++) await cache.getAsync(k, async () => k * 2);
  expect(cache.size).toBe(3);
  expect(await cache.getAsync(9, async () => -1)).toBe(18);
  expect(await cache.getAsync(0, async () => -1)).toBe(-1);
});
