// Random secrets, their stored hashes and ids: rules both the repositories (which store the hashes)
// and the services and web pages (which hand secrets out and compare them) follow, so they live
// below both.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new random secret for tokens, codes and invitation links (256 bits, URL-safe). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How secrets are stored: SHA-256 hex. Secrets are random, so no salt or slow hash is needed. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export function md5(text: string): string {
  return createHash('md5').update(text.trim().toLowerCase()).digest('hex');
}

/** A 24-hex-digit id, like the real service's highlight ids. Time-prefixed so ids sort by creation. */
export function objectId(nowMs: number): string {
  const time = Math.floor(nowMs / 1000).toString(16).padStart(8, '0').slice(-8);
  return time + randomBytes(8).toString('hex');
}
