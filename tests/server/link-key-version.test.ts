// The stored URL key's version (lib/api/url.ts URL_KEY_VERSION): when the code's version differs from
// the one the stored bookmarks.link_key values were made with, start-up re-keys every bookmark, so
// duplicate checks (url/exists, saving the same page twice) and the extension's saved-link index
// (GET /links?since=) see today's keys. Runs on SQLite and, with TIDEMARK_TEST_BACKEND=postgres, on PostgreSQL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { normalizeUrl, URL_KEY_VERSION } from '../../lib/api/url.js';
import type { PostgresStore } from '../../server/db/postgres-store.js';
import { rekeyLinksPostgres } from '../../server/db/postgres/rekey-links.js';
import { rekeyLinks } from '../../server/db/rekey-links.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => (s = await startServer()));
afterAll(async () => s.close());
/** A user of their own per test: the re-keying is the whole database's, the checks are per user. */
let user: { id: number; token: string };
beforeEach(async () => (user = await s.createUser()));

/** What start-up does after the migrations, on the server's backend. */
function startUpRekey(version = URL_KEY_VERSION, keyOf: (link: string) => string | null = normalizeUrl): Promise<number> | number {
  return s.store.backend === 'sqlite' ? rekeyLinks(s.db, version, keyOf) : rekeyLinksPostgres((s.store as PostgresStore).pool, version, keyOf);
}
const storedVersion = async () => (await s.sql<{ version: number }>('SELECT version FROM link_key_version WHERE id = 1'))[0].version;
const keyOf = async (id: number) => (await s.sql<{ link_key: string }>('SELECT link_key FROM bookmarks WHERE id = ?', id))[0].link_key;
const exists = async (url: string) => (await s.api('POST', '/import/url/exists', { token: user.token, body: { urls: [url] } })).body;

describe('link key version', () => {
  it('a fresh database is at the code\'s version, and start-up changes nothing then', async () => {
    expect(await storedVersion()).toBe(URL_KEY_VERSION);
    const id = (await s.createItem('/bookmark', user.token, { link: 'https://www.tides.example/neap/?utm_source=x' }))._id;
    expect(await startUpRekey()).toBe(0);
    expect(await keyOf(id)).toBe('tides.example/neap');
  });

  it('rows of another version are re-keyed at start-up: url/exists, duplicates and /links?since= see the new keys', async () => {
    const id = (await s.createItem('/bookmark', user.token, { link: 'https://www.harbour.example/Wall/?b=2&a=1' }))._id;
    // Rows written by an older version of the code: another key, and the version that made it.
    await s.sql('UPDATE bookmarks SET link_key = ? WHERE id = ?', 'www.harbour.example/Wall/?b=2&a=1', id);
    await s.sql('UPDATE link_key_version SET version = ? WHERE id = 1', URL_KEY_VERSION - 1);
    expect(await exists('https://harbour.example/Wall?a=1&b=2')).toMatchObject({ result: false });
    const cursor = (await s.api('GET', '/links', { token: user.token })).body.cursor as number;

    expect(await startUpRekey()).toBe(1);
    expect(await storedVersion()).toBe(URL_KEY_VERSION);
    expect(await keyOf(id)).toBe('harbour.example/Wall?a=1&b=2');
    expect(await exists('https://harbour.example/Wall?a=1&b=2')).toMatchObject({ result: true, ids: [id] });
    const changes = (await s.api('GET', `/links?since=${cursor}`, { token: user.token })).body;
    expect(changes.items).toContainEqual([id, 'harbour.example/Wall?a=1&b=2', -1]);
    expect(changes.keyVersion).toBe(URL_KEY_VERSION);
    // Saving the same page again is recognised as a duplicate of the re-keyed row.
    const again = await s.api('POST', '/import/url/exists', { token: user.token, body: { urls: ['http://harbour.example/Wall/?a=1&b=2&fbclid=q'] } });
    expect(again.body.ids).toEqual([id]);
  });

  it('a new key version (a changed normalisation) re-keys every row once and records the version', async () => {
    const a = (await s.createItem('/bookmark', user.token, { link: 'https://spring.example/tide' }))._id;
    const next = URL_KEY_VERSION + 1;
    const nextKey = (link: string) => {
      const key = normalizeUrl(link);
      return key && `v${next}|${key}`;
    };
    const total = (await s.sql<{ n: number }>('SELECT count(*) AS n FROM bookmarks'))[0].n;
    expect(await startUpRekey(next, nextKey)).toBe(Number(total));
    expect(await keyOf(a)).toBe(`v${next}|spring.example/tide`);
    expect(await storedVersion()).toBe(next);
    // A second start at that version finds nothing to do.
    expect(await startUpRekey(next, nextKey)).toBe(0);
    // Back to the code's version (as a downgrade would): the keys are made by today's code again.
    await startUpRekey();
    expect(await keyOf(a)).toBe('spring.example/tide');
    expect(await storedVersion()).toBe(URL_KEY_VERSION);
  });
});
