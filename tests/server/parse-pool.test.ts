import { afterEach, describe, expect, it, vi } from 'vitest';
import { ParsePool, ParseRefused } from '../../server/services/parse-pool/index.js';

// The parse pool on its own, with real tasks on real input: the fair queue across users, the time
// and heap limits (a worker past them is ended and replaced), and cancelling waiting work.

const head = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<H1>Bookmarks</H1>\n<DL><p>\n';
/** A Netscape file of `n` bookmarks. */
const bookmarks = (n: number) => new TextEncoder().encode(`${head}${'<DT><A HREF="https://big.example/page">page</A>\n'.repeat(n)}</DL>\n`);
const SMALL_PAGE = { html: '<title>Small</title><p>Hello.</p>', url: 'https://small.example/', contentType: 'text/html' };

let pool: ParsePool | undefined;
afterEach(async () => pool?.close());

describe('the parse pool', () => {
  it('runs users round-robin: another user\'s task starts before the rest of a heavy user\'s queue', { timeout: 120_000 }, async () => {
    pool = new ParsePool({ workers: 1, perUser: 1 });
    const order: string[] = [];
    const heavy = [1, 2, 3].map((i) =>
      pool!.run(1, 'import-convert', { content: bookmarks(20_000), filename: undefined, limits: {} }).then(() => order.push(`heavy ${i}`)),
    );
    const light = pool.run(2, 'page-metadata', SMALL_PAGE).then((item) => {
      order.push('light');
      return item;
    });
    expect((await light).title).toBe('Small');
    await Promise.all(heavy);
    // One worker: the light task waits for the heavy task running when it came, and no more.
    expect(order).toEqual(['heavy 1', 'light', 'heavy 2', 'heavy 3']);
  });

  it('one user holds at most their share of the workers; the others stay free for everybody else', { timeout: 120_000 }, async () => {
    pool = new ParsePool({ workers: 2, perUser: 1 });
    const heavy = [1, 2].map(() => pool!.run(1, 'import-convert', { content: bookmarks(20_000), filename: undefined, limits: {} }));
    // The heavy user's second task waits although a worker is free...
    expect(pool.stats()).toMatchObject({ running: 1, waiting: 1 });
    // ...which another user's task takes at once.
    const light = pool.run(2, 'page-metadata', SMALL_PAGE);
    expect(pool.stats()).toMatchObject({ running: 2, waiting: 1 });
    await Promise.all([light, ...heavy]);
  });

  it('a pool in use keeps a worker ready beside the busy one, so another user\'s task starts on it', { timeout: 120_000 }, async () => {
    pool = new ParsePool({ workers: 2, perUser: 1 });
    const long = pool.run(1, 'import-convert', { content: bookmarks(20_000), filename: undefined, limits: {} });
    // The first task started a second worker beside its own...
    expect(pool.stats()).toMatchObject({ workers: 2, workersStarted: 2, running: 1, waiting: 0 });
    // ...which the next user's task takes: no third, and nothing waits.
    const light = pool.run(2, 'page-metadata', SMALL_PAGE);
    expect(pool.stats()).toMatchObject({ workers: 2, workersStarted: 2, running: 2, waiting: 0 });
    expect((await light).title).toBe('Small');
    await long;
  });

  it('while one user\'s long task runs, an idle worker stays ready for everybody else', { timeout: 120_000 }, async () => {
    // The pool's timers run when the test moves them; its workers run for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      pool = new ParsePool({ workers: 2, perUser: 1, idleMs: 50 });
      // Both workers started and idle.
      await Promise.all([pool.run(1, 'page-metadata', SMALL_PAGE), pool.run(2, 'page-metadata', SMALL_PAGE)]);
      const long = pool.run(1, 'import-convert', { content: bookmarks(20_000), filename: undefined, limits: {} });
      // Well past the idle time while it runs: the one idle worker is kept, not ended and replaced.
      vi.advanceTimersByTime(500);
      expect(pool.stats()).toMatchObject({ workers: 2, workersStarted: 2, running: 1 });
      const light = pool.run(2, 'page-metadata', SMALL_PAGE);
      expect(pool.stats()).toMatchObject({ workers: 2, running: 2 });
      expect((await light).title).toBe('Small');
      await long;
      // Both idle again: one of them ends, one stays.
      vi.advanceTimersByTime(500);
      expect(pool.stats()).toMatchObject({ workers: 1, running: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a task past its time limit is refused as too_slow, its worker ended, and the next task runs', { timeout: 120_000 }, async () => {
    pool = new ParsePool({ workers: 1, timeoutMs: { 'import-convert': 50 } as never });
    const slow = pool.run(1, 'import-convert', { content: bookmarks(300_000), filename: undefined, limits: {} });
    await expect(slow).rejects.toMatchObject({ name: 'ParseRefused', code: 'too_slow', message: 'Reading this file took longer than 0.1 s, the limit for one file.' });
    expect((await pool.run(1, 'page-metadata', SMALL_PAGE)).title).toBe('Small');
    expect(pool.stats().ended).toMatchObject({ too_slow: 1, done: 1 });
  });

  it('a task past its heap limit is refused as too_much_memory, and the next task runs', { timeout: 120_000 }, async () => {
    pool = new ParsePool({ workers: 1, heapMb: 32 });
    const big = pool.run(1, 'import-convert', { content: bookmarks(300_000), filename: undefined, limits: {} });
    await expect(big).rejects.toMatchObject({ code: 'too_much_memory' });
    expect((await pool.run(1, 'page-metadata', SMALL_PAGE)).title).toBe('Small');
  });

  it('a waiting task whose caller leaves is dropped without running', { timeout: 120_000 }, async () => {
    pool = new ParsePool({ workers: 1 });
    const first = pool.run(1, 'import-convert', { content: bookmarks(20_000), filename: undefined, limits: {} });
    const caller = new AbortController();
    const waiting = pool.run(2, 'page-metadata', SMALL_PAGE, { signal: caller.signal });
    expect(pool.stats().waiting).toBe(1);
    caller.abort();
    await expect(waiting).rejects.toBeInstanceOf(ParseRefused);
    expect(pool.stats().waiting).toBe(0);
    await first;
    expect(pool.stats().ended).toMatchObject({ cancelled: 1, done: 1 });
  });

  it('a page nested past the limit is refused before a tree is built', async () => {
    pool = new ParsePool({ workers: 1 });
    const deep = `${'<div>'.repeat(513)}x`;
    await expect(pool.run(1, 'page-metadata', { html: deep, url: 'https://deep.example/', contentType: 'text/html' })).rejects.toMatchObject({
      code: 'too_deep',
      message: 'The page is nested too deeply to read (more than 512 levels).',
    });
    expect((await pool.run(1, 'page-metadata', { ...SMALL_PAGE, html: `${'<div>'.repeat(512)}x` })).title).toBe('small.example');
  });
});
