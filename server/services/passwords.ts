import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt's cost N for new hashes unless configured (`passwordHashCost`, TIDEMARK_PASSWORD_HASH_COST):
 * 2^15, about 50-200 ms of CPU per hash here, slow enough to make guessing expensive. The test
 * lanes configure 2^10; a stored hash carries its own N, so it verifies whatever the setting is now.
 */
export const DEFAULT_PASSWORD_HASH_COST = 32768;
/** The N a configuration may ask for: a power of two from 2^10 up to the default (scrypt's memory, 128 * N * r bytes, stays within MAXMEM). */
export const PASSWORD_HASH_COST_RANGE = { min: 1024, max: DEFAULT_PASSWORD_HASH_COST } as const;

/**
 * What an operator is told when new passwords are hashed below the default cost (the setting is meant
 * for test lanes that make hundreds of accounts), or null at the default.
 */
export function lowPasswordCostWarning(cost: number): string | null {
  if (cost >= DEFAULT_PASSWORD_HASH_COST) return null;
  return (
    `Warning: TIDEMARK_PASSWORD_HASH_COST=${cost} hashes new passwords at scrypt N=${cost}, ` +
    `${DEFAULT_PASSWORD_HASH_COST / cost} times cheaper to guess than the default ${DEFAULT_PASSWORD_HASH_COST}. ` +
    'It is meant for tests: unset it on a server people use.'
  );
}

const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Returns `scrypt$N$r$p$salt$hash` (base64url parts), N being `cost` (the server's `passwordHashCost`). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, R, P);
  return ['scrypt', cost, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
