// The storage items every part of the extension keeps its state in (lib/storage/item.ts): what a
// reader gets while nothing is stored, that clearing a value brings the fallback back, and that a
// change made in another context (the options page, the popup) reaches a watcher in this one.
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { resetExtension } from './helpers/reset.js';
import { defineItem } from '../../lib/storage/item.js';
import { memoItem } from '../../lib/storage/memo.js';

beforeEach(() => resetExtension());

describe('storage items', () => {
  it('answer the fallback until a value is stored, and again once it is removed or set to null', async () => {
    const item = defineItem<string | null>('local:serverUrl', { fallback: 'http://localhost:8787' });
    expect(await item.getValue()).toBe('http://localhost:8787');
    await item.setValue('https://tidemark.example');
    expect(await fakeBrowser.storage.local.get('serverUrl')).toEqual({ serverUrl: 'https://tidemark.example' });
    expect(await item.getValue()).toBe('https://tidemark.example');
    await item.setValue(null);
    expect(await fakeBrowser.storage.local.get('serverUrl')).toEqual({});
    expect(await item.getValue()).toBe('http://localhost:8787');
    await item.setValue('https://other.example');
    await item.removeValue();
    expect(await item.getValue()).toBe('http://localhost:8787');
  });

  it('keep each area apart: a session item is not read from local storage', async () => {
    const session = defineItem<string | null>('session:accessToken', { fallback: null });
    await fakeBrowser.storage.local.set({ accessToken: 'local-one' });
    expect(await session.getValue()).toBeNull();
    await session.setValue('session-one');
    expect(await fakeBrowser.storage.session.get('accessToken')).toEqual({ accessToken: 'session-one' });
    expect(await fakeBrowser.storage.local.get('accessToken')).toEqual({ accessToken: 'local-one' });
  });

  it('tell a watcher of changes made elsewhere, with the fallback for a removed value, until it stops', async () => {
    const item = defineItem<boolean>('local:badgeEnabled', { fallback: true });
    const seen: [boolean, boolean][] = [];
    const stop = item.watch((value, previous) => seen.push([value, previous]));
    await fakeBrowser.storage.local.set({ badgeEnabled: false });
    await fakeBrowser.storage.local.set({ unrelated: 1 });
    await fakeBrowser.storage.local.remove('badgeEnabled');
    stop();
    await fakeBrowser.storage.local.set({ badgeEnabled: false });
    expect(seen).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('kept in memory, still follow a change another context made', async () => {
    const item = memoItem(defineItem<boolean>('local:saveOnOpen', { fallback: true }));
    expect(await item.getValue()).toBe(true);
    await fakeBrowser.storage.local.set({ saveOnOpen: false });
    expect(await item.getValue()).toBe(false);
  });
});
