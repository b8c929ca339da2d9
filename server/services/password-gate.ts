import type { Clock } from '../clock.js';
import type { ServerConfig } from '../config.js';
import { ApiError } from '../errors.js';
import type { SignInFailuresRepository } from '../repositories/index.js';
import { LoginThrottle, type ThrottleVerdict } from './login-throttle.js';
import { hashPassword, verifyPassword } from './passwords.js';

/** Sign-up attempts allowed per IP address within the throttle window, unless configured. */
const DEFAULT_SIGNUPS_PER_IP = 20;

type PasswordCheck = { kind: 'ok' } | { kind: 'wrong' } | ({ kind: 'blocked' } & Extract<ThrottleVerdict, { blocked: true }>);

/**
 * The one place a password is checked: web sign-in, the account page's email and password forms,
 * and `PUT /user` with `oldpassword`. Every check goes through the same throttle (failures counted
 * per account and address, per address, and per account, in a sliding window: see LoginThrottle);
 * while one is at its limit the password is not even looked at, so no form is a way around it.
 */
export class PasswordGate {
  private readonly throttle: LoginThrottle;
  /** Sign-ups per IP address (every attempt counts), so accounts cannot be made or probed in bulk. */
  private readonly signups: LoginThrottle;
  /** Verified against when the account has no password or is unknown, so every refusal takes as long. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    clock: Clock,
    settings: ServerConfig['web'],
    failures: SignInFailuresRepository,
    /** scrypt's N for the dummy hash: the configured one, so a refusal costs what checking a real password does. */
    private readonly hashCost: number,
  ) {
    this.throttle = new LoginThrottle(clock, settings, failures, 'signin');
    this.signups = new LoginThrottle(clock, {
      maxFailuresPerAccount: Number.MAX_SAFE_INTEGER,
      maxFailuresPerIp: settings.maxSignupsPerIp ?? DEFAULT_SIGNUPS_PER_IP,
      throttleWindowMs: settings.throttleWindowMs,
    }, failures, 'signup');
  }

  /** Counts a sign-up attempt from `ip`; answers whether it is over the limit (then nothing is created). */
  async signupAttempt(ip: string): Promise<ThrottleVerdict> {
    const verdict = await this.signups.check('', ip);
    if (!verdict.blocked) await this.signups.recordFailure('', ip);
    return verdict;
  }

  /** Whether checks for this account or address are refused right now (sign-up uses the address part). */
  async verdict(email: string, ip: string): Promise<ThrottleVerdict> {
    return this.throttle.check(email, ip);
  }

  /** Counts a failure that is not a wrong password (a refused sign-up) against the address. */
  async recordFailure(email: string, ip: string): Promise<void> {
    await this.throttle.recordFailure(email, ip);
  }

  async check(email: string, passwordHash: string | null | undefined, password: string, ip: string): Promise<PasswordCheck> {
    const verdict = await this.throttle.check(email, ip);
    if (verdict.blocked) return { kind: 'blocked', ...verdict };
    this.dummyHash ??= hashPassword('not a real password', this.hashCost);
    const ok = (await verifyPassword(password, passwordHash ?? (await this.dummyHash))) && !!passwordHash;
    if (!ok) {
      await this.throttle.recordFailure(email, ip);
      return { kind: 'wrong' };
    }
    await this.throttle.recordSuccess(email, ip);
    return { kind: 'ok' };
  }

  /** `check` for account changes: throws 429 (with Retry-After) while blocked, 400 with `wrongMessage` for a wrong password. */
  async require(email: string, passwordHash: string, password: string, ip: string, wrongMessage: string): Promise<void> {
    const result = await this.check(email, passwordHash, password, ip);
    if (result.kind === 'ok') return;
    if (result.kind === 'wrong') throw new ApiError(400, wrongMessage);
    throw tooManyAttempts(result);
  }
}

/** The 429 for a blocked password check: says for whom, and how long to wait. */
function tooManyAttempts(verdict: { by: 'account' | 'ip'; retryAfterSeconds: number }): ApiError {
  const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
  const who = verdict.by === 'account' ? 'for this account' : 'from your network';
  return new ApiError(429, `Too many wrong passwords ${who}. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, {
    retryAfter: verdict.retryAfterSeconds,
  });
}
