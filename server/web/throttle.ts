import type { Clock } from '../clock.js';

export interface ThrottleSettings {
  maxFailuresPerAccount: number;
  maxFailuresPerIp: number;
  throttleWindowMs: number;
}

export type ThrottleVerdict = { blocked: false } | { blocked: true; by: 'account' | 'ip'; retryAfterSeconds: number };

/** Most keys remembered at once; beyond it the oldest are forgotten (bounded memory under attack). */
const MAX_KEYS = 100_000;

/**
 * Counts failed sign-ins per account and per IP address in a sliding window. While either count is
 * at its limit, sign-in is refused without checking the password.
 */
export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(private clock: Clock, private settings: ThrottleSettings) {}

  private recent(key: string): number[] {
    const since = this.clock.now() - this.settings.throttleWindowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  private verdict(key: string, max: number, by: 'account' | 'ip'): ThrottleVerdict {
    const list = this.recent(key);
    if (list.length < max) return { blocked: false };
    const until = list[list.length - max] + this.settings.throttleWindowMs;
    return { blocked: true, by, retryAfterSeconds: Math.max(1, Math.ceil((until - this.clock.now()) / 1000)) };
  }

  check(email: string, ip: string): ThrottleVerdict {
    const account = this.verdict(`a:${email.trim().toLowerCase()}`, this.settings.maxFailuresPerAccount, 'account');
    if (account.blocked) return account;
    return this.verdict(`i:${ip}`, this.settings.maxFailuresPerIp, 'ip');
  }

  recordFailure(email: string, ip: string): void {
    const now = this.clock.now();
    for (const key of [`a:${email.trim().toLowerCase()}`, `i:${ip}`]) {
      const list = this.recent(key);
      list.push(now);
      this.failures.delete(key);
      this.failures.set(key, list);
    }
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  /** A correct password clears the account's count (the IP's stays: it may be guessing others). */
  recordSuccess(email: string): void {
    this.failures.delete(`a:${email.trim().toLowerCase()}`);
  }
}
