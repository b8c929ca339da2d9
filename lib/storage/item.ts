// One value in extension storage, read with its fallback and watched for changes made by any of the
// extension's pages. The few calls the extension needs, over `browser.storage`: the items are declared
// in items.ts.
import { browser } from 'wxt/browser';

type Area = 'local' | 'session';

export interface StorageItem<T> {
  /** What getValue() answers while nothing is stored. */
  readonly fallback: T;
  getValue(): Promise<T>;
  /** Stores the value; null or undefined removes it (the fallback is read again). */
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  /** Calls back when the stored value changes (in any context); returns a function that stops it. */
  watch(callback: (value: T, previous: T) => void): () => void;
}

/** An item under `area:key` ('local:serverUrl'), answering `fallback` while nothing is stored. */
export function defineItem<T>(name: `${Area}:${string}`, { fallback }: { fallback: T }): StorageItem<T> {
  const at = name.indexOf(':');
  const area = name.slice(0, at) as Area;
  const key = name.slice(at + 1);
  const store = () => browser.storage[area];
  const orFallback = (value: unknown) => (value ?? fallback) as T;
  return {
    fallback,
    getValue: async () => orFallback((await store().get(key))[key]),
    setValue: (value) => (value == null ? store().remove(key) : store().set({ [key]: value })),
    removeValue: () => store().remove(key),
    watch(callback) {
      const listener = (changes: Record<string, { newValue?: unknown; oldValue?: unknown }>) => {
        const change = changes[key];
        if (change) callback(orFallback(change.newValue), orFallback(change.oldValue));
      };
      store().onChanged.addListener(listener);
      return () => store().onChanged.removeListener(listener);
    },
  };
}
