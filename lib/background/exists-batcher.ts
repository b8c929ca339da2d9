// "Is this URL saved?" through POST /import/url/exists while the saved-link index cannot answer:
// checks from all tabs within a few milliseconds go out as one request, and answers are cached per
// normalised URL for a minute.
import type { UrlExistsResponse } from '../api/types.js';
import { normalizeUrl } from '../api/url.js';

interface ExistsBatcherOptions {
  check: (urls: string[]) => Promise<UrlExistsResponse>;
  delayMs?: number;
  ttlMs?: number;
  now?: () => number;
}

const MAX_CACHED = 5000;

interface Pending {
  url: string;
  waiters: ((saved: number | null | undefined) => void)[];
}

/** Answers: the saved bookmark's id, null when not saved, undefined when the server could not be asked. */
export class ExistsBatcher {
  #cache = new Map<string, { id: number | null; at: number }>();
  #pending = new Map<string, Pending>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #delayMs: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  readonly #opts: ExistsBatcherOptions;

  constructor(opts: ExistsBatcherOptions) {
    this.#opts = opts;
    this.#delayMs = opts.delayMs ?? 20;
    this.#ttlMs = opts.ttlMs ?? 60_000;
    this.#now = opts.now ?? Date.now;
  }

  check(url: string): Promise<number | null | undefined> {
    const key = normalizeUrl(url);
    if (!key) return Promise.resolve(null);
    const cached = this.#cache.get(key);
    if (cached && this.#now() - cached.at < this.#ttlMs) return Promise.resolve(cached.id);
    return new Promise((resolve) => {
      const p = this.#pending.get(key);
      if (p) p.waiters.push(resolve);
      else this.#pending.set(key, { url, waiters: [resolve] });
      if (this.#pending.size >= 100) this.#flush();
      else this.#timer ??= setTimeout(() => this.#flush(), this.#delayMs);
    });
  }

  /** Records what a save or remove just did, so the next check is right without asking. */
  set(key: string, id: number | null): void {
    this.#remember(key, id, this.#now());
  }

  #remember(key: string, id: number | null, at: number): void {
    this.#cache.delete(key);
    this.#cache.set(key, { id, at });
    // Oldest first in a Map: keep the cache bounded while browsing for a long time.
    while (this.#cache.size > MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value!);
  }

  invalidate(key?: string): void {
    if (key === undefined) this.#cache.clear();
    else this.#cache.delete(key);
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = [...this.#pending.entries()].slice(0, 100);
    for (const [key] of batch) this.#pending.delete(key);
    if (this.#pending.size) this.#timer = setTimeout(() => this.#flush(), 0);
    if (!batch.length) return;
    this.#opts
      .check(batch.map(([, p]) => p.url))
      .then((res) => {
        const found = new Map<string, number>();
        for (const d of res.duplicates ?? []) {
          const k = normalizeUrl(d.link);
          if (k && !found.has(k)) found.set(k, d._id);
        }
        // An answer without `duplicates` but with ids can only be mapped when one URL was asked.
        if (!res.duplicates && res.result && res.ids.length && batch.length === 1) found.set(batch[0][0], res.ids[0]);
        const at = this.#now();
        for (const [key, p] of batch) {
          const id = found.get(key) ?? null;
          this.#remember(key, id, at);
          for (const w of p.waiters) w(id);
        }
      })
      .catch(() => {
        for (const [, p] of batch) for (const w of p.waiters) w(undefined);
      });
  }
}
