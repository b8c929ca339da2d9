// The background asks for a saved page's highlights while it injects the highlighter (page-prefetch.ts):
// the highlighter's first request gets that answer, once, for the same tab, frame and address while it is
// fresh; anything else asks the server again, and a failure reaches the request that takes it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PagePrefetch } from '../../lib/background/page-prefetch.js';

const URL = 'https://tides.example/article';

afterEach(() => vi.useRealTimers());

describe('PagePrefetch', () => {
  it("gives the highlighter's first request the answer asked for during its injection, only once", async () => {
    const prefetch = new PagePrefetch<string>();
    const ask = vi.fn(async () => 'highlights of the article');
    prefetch.start(7, 0, URL, ask);
    expect(ask).toHaveBeenCalledTimes(1); // asked at once, not when taken
    await expect(prefetch.take(7, 0, URL)).resolves.toBe('highlights of the article');
    expect(prefetch.take(7, 0, URL)).toBeUndefined(); // a later refresh asks anew
  });

  it('another tab, frame or address gets nothing (it asks the server itself)', () => {
    const prefetch = new PagePrefetch<string>();
    prefetch.start(7, 0, URL, async () => 'a');
    expect(prefetch.take(8, 0, URL)).toBeUndefined();
    prefetch.start(7, 0, URL, async () => 'a');
    expect(prefetch.take(7, 3, URL)).toBeUndefined();
    prefetch.start(7, 0, URL, async () => 'a');
    expect(prefetch.take(7, 0, `${URL}#moved`)).toBeUndefined();
  });

  it('an answer older than a few seconds is not taken', () => {
    vi.useFakeTimers();
    const prefetch = new PagePrefetch<string>();
    prefetch.start(7, 0, URL, async () => 'old');
    vi.advanceTimersByTime(5_000);
    expect(prefetch.take(7, 0, URL)).toBeUndefined();
  });

  it('a failed request reaches the request that takes it, with its message', async () => {
    const prefetch = new PagePrefetch<string>();
    prefetch.start(7, 0, URL, async () => {
      throw new Error('The server did not answer. Check that it runs.');
    });
    await expect(prefetch.take(7, 0, URL)).rejects.toThrow('The server did not answer');
  });
});
