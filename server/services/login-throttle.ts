import type { Clock } from '../clock.js';
import type { SignInFailuresRepository } from '../repositories/index.js';

interface ThrottleSettings {
  maxFailuresPerAccount: number;
  maxFailuresPerIp: number;
  throttleWindowMs: number;
}

export type ThrottleVerdict = { blocked: false } | { blocked: true; by: 'account' | 'ip'; retryAfterSeconds: number };

/**
 * An account's failures from all addresses together, as a multiple of the per-address limit.
 * Reaching it refuses only the addresses that have failed on the account themselves, so a crowd
 * of guessers cannot lock its owner out, and past it each new address gets one guess.
 */
const ACCOUNT_CEILING_FACTOR = 20;

/**
 * Counts failed sign-ins in a sliding window per account and client address together, per
 * address, and per account. The owner's sign-in is refused only for what their own address did:
 * wrong passwords from elsewhere never lock them out. Past a limit the password is not checked.
 * The counts are kept by the repository (shared by every instance on PostgreSQL); `namespace`
 * keeps separate throttles apart.
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

  private pairKey(email: string, ip: string): string {
    return `${this.namespace}:p:${ip}:${email.trim().toLowerCase()}`;
  }

  private async verdict(key: string, max: number, by: 'account' | 'ip', list?: number[]): Promise<ThrottleVerdict> {
    list ??= await this.failures.recent(key, this.clock.now() - this.settings.throttleWindowMs);
    if (list.length < max) return { blocked: false };
    const until = list[list.length - max] + this.settings.throttleWindowMs;
    return { blocked: true, by, retryAfterSeconds: Math.max(1, Math.ceil((until - this.clock.now()) / 1000)) };
  }

  async check(email: string, ip: string): Promise<ThrottleVerdict> {
    const since = this.clock.now() - this.settings.throttleWindowMs;
    const fromHere = await this.failures.recent(this.pairKey(email, ip), since);
    const pair = await this.verdict('', this.settings.maxFailuresPerAccount, 'account', fromHere);
    if (pair.blocked) return pair;
    const address = await this.verdict(this.ipKey(ip), this.settings.maxFailuresPerIp, 'ip');
    if (address.blocked || fromHere.length === 0) return address;
    return this.verdict(this.accountKey(email), this.settings.maxFailuresPerAccount * ACCOUNT_CEILING_FACTOR, 'account');
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await this.failures.add([this.pairKey(email, ip), this.accountKey(email), this.ipKey(ip)], this.clock.now(), this.settings.throttleWindowMs);
  }

  /** A correct password clears the account's counts here (the address's stays: it may be guessing others). */
  async recordSuccess(email: string, ip: string): Promise<void> {
    await this.failures.clear(this.pairKey(email, ip));
    await this.failures.clear(this.accountKey(email));
  }
}
