import type { SignInFailuresRepository } from '../types/index.js';

/** Most keys remembered at once; beyond it the oldest are forgotten (bounded memory under attack). */
const MAX_KEYS = 100_000;

/**
 * Failed password checks for the embedded backend, in this process's memory (one `serve` per
 * SQLite data directory); several instances share them on PostgreSQL.
 */
export class MemorySignInFailuresRepository implements SignInFailuresRepository {
  private readonly failures = new Map<string, number[]>();

  async recent(key: string, since: number): Promise<number[]> {
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  async add(keys: string[], at: number, keepMs: number): Promise<void> {
    for (const key of keys) {
      const list = (this.failures.get(key) ?? []).filter((t) => t > at - keepMs);
      list.push(at);
      // Most recently failed last, so the oldest keys are the first forgotten.
      this.failures.delete(key);
      this.failures.set(key, list);
    }
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  async clear(key: string): Promise<void> {
    this.failures.delete(key);
  }
}
