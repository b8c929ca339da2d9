import { createHash } from 'node:crypto';
import { safeEqual } from '../../domain/secrets.js';

/** RFC 7636: a verifier is 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
function isValidVerifier(verifier: string): boolean {
  return /^[A-Za-z0-9\-._~]{43,128}$/.test(verifier);
}

/** An S256 challenge is the base64url SHA-256 of the verifier: exactly 43 characters. */
export function isValidS256Challenge(challenge: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(challenge);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Whether the verifier sent to the token endpoint matches the challenge sent to authorize. */
export function verifyPkce(verifier: string, challenge: string): boolean {
  return isValidVerifier(verifier) && safeEqual(s256(verifier), challenge);
}
