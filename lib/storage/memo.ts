// Extension storage answers over IPC (a few ms per read in a service worker). Items read on every
// popup open are kept in memory, written through, and kept current by storage.onChanged when
// another context (the options page) changes them.
import type { StorageItem } from './item.js';

const resets = new Set<() => void>();

export function memoItem<T>(item: StorageItem<T>): StorageItem<T> {
  let cached: { value: T } | null = null;
  let watching = false;
  const watch = () => {
    if (watching) return;
    watching = true;
    // The item answers its fallback for a removed value.
    item.watch((value) => {
      cached = { value };
    });
  };
  resets.add(() => {
    cached = null;
    watching = false;
  });
  const memo: StorageItem<T> = Object.create(item);
  memo.getValue = async () => {
    if (cached) return cached.value;
    watch();
    const value = await item.getValue();
    cached ??= { value };
    return cached.value;
  };
  memo.setValue = async (value: T) => {
    cached = { value };
    watch();
    await item.setValue(value);
  };
  memo.removeValue = async () => {
    cached = { value: item.fallback };
    watch();
    await item.removeValue();
  };
  return memo;
}

/** Forgets every cached value (tests reset the fake browser's storage between cases). */
export function resetStorageMemo(): void {
  for (const reset of resets) reset();
}
