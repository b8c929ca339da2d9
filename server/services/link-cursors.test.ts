import { describe, expect, it } from 'vitest';
import { LinkCursors } from './link-cursors.js';

describe('LinkCursors', () => {
  it('decodes what it encodes, per account, and refuses what it never handed out', async () => {
    const cursors = new LinkCursors(async () => 'server secret');
    for (const seq of [0, 1, 41, 2 ** 31, 2 ** 52 - 1]) {
      const cursor = await cursors.encode(7, seq);
      expect(cursor).toBeGreaterThanOrEqual(2 ** 52);
      expect(await cursors.decode(7, cursor)).toBe(seq);
    }
    // Another account's cursor for the same change is another number, and neighbours do not look alike.
    expect(await cursors.encode(8, 41)).not.toBe(await cursors.encode(7, 41));
    expect(Math.abs((await cursors.encode(7, 42)) - (await cursors.encode(7, 41)))).toBeGreaterThan(1);
    expect(await cursors.decode(7, 41)).toBeNull();
    expect(await cursors.decode(7, 1.5)).toBeNull();
  });

  it('asks for the server key again after a failed read', async () => {
    let calls = 0;
    const cursors = new LinkCursors(async () => {
      calls++;
      if (calls === 1) throw new Error('database down');
      return 'server secret';
    });
    await expect(cursors.encode(7, 1)).rejects.toThrow('database down');
    expect(await cursors.decode(7, await cursors.encode(7, 1))).toBe(1);
    expect(calls).toBe(2);
  });
});
