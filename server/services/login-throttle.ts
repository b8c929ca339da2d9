import type { Clock } from '../clock.js';
import type { SignInFailuresRepository } from '../repositories/index.js';

interface ThrottleSettings {
  maxFailuresPerAccount: number;
  maxFailuresPerIp: number;
  throttleWindowMs: number;
}

export type ThrottleVerdict = { blocked: false } | { blocked: true; by: 'account' | 'ip'; retryAfterSeconds: number };

/**
 * Counts failed sign-ins per account and per IP address in a sliding window. While either count is
 * at its limit, sign-in is refused without checking the password. The counts are kept by the
 * repository (shared by every instance on PostgreSQL); `namespace` keeps separate throttles apart.
 */
export class LoginThrottle {
  constructor(
    private readonly clock: Clock,
    private readonly settings: ThrottleSettings,
    private readonly failures: SignInFailuresRepository,
    private readonly namespace: string,
  ) {}

  private accountKey(email: string): string {
    return `${this.namespace}:a:${email.trim().toLowerCase()}`;
  }

  private ipKey(ip: string): string {
    return `${this.namespace}:i:${ip}`;
  }

  private async verdict(key: string, max: number, by: 'account' | 'ip'): Promise<ThrottleVerdict> {
    const list = await this.failures.recent(key, this.clock.now() - this.settings.throttleWindowMs);
    if (list.length < max) return { blocked: false };
    const until = list[list.length - max] + this.settings.throttleWindowMs;
    return { blocked: true, by, retryAfterSeconds: Math.max(1, Math.ceil((until - this.clock.now()) / 1000)) };
  }

  async check(email: string, ip: string): Promise<ThrottleVerdict> {
    const account = await this.verdict(this.accountKey(email), this.settings.maxFailuresPerAccount, 'account');
    if (account.blocked) return account;
    return this.verdict(this.ipKey(ip), this.settings.maxFailuresPerIp, 'ip');
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await this.failures.add([this.accountKey(email), this.ipKey(ip)], this.clock.now(), this.settings.throttleWindowMs);
  }

  /** A correct password clears the account's count (the IP's stays: it may be guessing others). */
  async recordSuccess(email: string): Promise<void> {
    await this.failures.clear(this.accountKey(email));
  }
}
