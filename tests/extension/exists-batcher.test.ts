// The url/exists fallback for the badge: checks from many tabs go out as one request to the real
// server, answers are cached per normalised URL, and a failed request answers "unknown".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TidemarkApi } from '../../lib/api/client/index.js';
import { ExistsBatcher } from '../../lib/background/exists-batcher.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

describe('ExistsBatcher', () => {
  it('asks once for checks made together, maps answers back by normalised URL, and caches them', async () => {
    const u = await s.createUser();
    const a = (await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://news.example/a' } })).body.item._id;
    const api = new TidemarkApi({ serverUrl: () => s.origin, tokens: { getAccessToken: async () => u.token, refreshAfterUnauthorized: async () => null } });
    const asked: string[][] = [];
    let now = 0;
    const batcher = new ExistsBatcher({
      check: (urls) => {
        asked.push(urls);
        return api.urlExists(urls);
      },
      now: () => now,
      ttlMs: 60_000,
    });
    const answers = await Promise.all([
      batcher.check('https://www.news.example/a/?utm_campaign=x'),
      batcher.check('https://news.example/b'),
      batcher.check('http://news.example/a'),
      batcher.check('mailto:someone@example.com'),
    ]);
    expect(answers).toEqual([a, null, a, null]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toHaveLength(2); // the two spellings of /a are one question

    expect(await batcher.check('https://news.example/b')).toBeNull();
    expect(asked).toHaveLength(1); // cached
    batcher.set('news.example/b', 99); // a save just made
    expect(await batcher.check('https://news.example/b')).toBe(99);
    now += 61_000;
    expect(await batcher.check('https://news.example/b')).toBeNull();
    expect(asked).toHaveLength(2);
  });

  it('answers undefined (unknown) when the server cannot be asked, and does not cache that', async () => {
    let fail = true;
    const batcher = new ExistsBatcher({
      check: async (urls) => {
        if (fail) throw new Error('offline');
        return { result: true, ids: [1], duplicates: [{ _id: 1, link: urls[0] }] };
      },
    });
    expect(await batcher.check('https://x.example/')).toBeUndefined();
    fail = false;
    expect(await batcher.check('https://x.example/')).toBe(1);
  });

  it('splits more than 100 pending checks into requests of at most 100 URLs', async () => {
    const sizes: number[] = [];
    const batcher = new ExistsBatcher({
      check: async (urls) => {
        sizes.push(urls.length);
        return { result: false, ids: [] };
      },
    });
    await Promise.all(Array.from({ length: 250 }, (_, i) => batcher.check(`https://many.example/${i}`)));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(250);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
  });
});
