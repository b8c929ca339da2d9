import type { FastifyRequest } from 'fastify';

/** A form field as text: '' when missing, repeated or not text (form bodies can carry anything). */
export function field(request: FastifyRequest, name: string, max = 1000): string {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** A query parameter as text ('' when missing or repeated). */
export function queryText(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

export { isEmailAddress } from '../../lib/api/email.js';

/** Longest `next` kept: room for a deep link of the web app, or a shared page's address (app/share.ts). */
export const NEXT_MAX = 10_000;

/**
 * Where to go after signing in: only a path on this site. Anything else (another origin,
 * protocol-relative `//host`, backslashes browsers treat as slashes) falls back to `fallback` (the
 * library when the web app is built, else the account page).
 * The decision is made on the normalised path, the one the Location header will carry: dot
 * segments (`/.//host`, `/..//host`, `/%2e//host`, `/a/..//host`) resolve to `//host`, which a
 * browser reads as another site.
 */
export function safeNext(next: string, fallback = '/account'): string {
  // eslint-disable-next-line no-control-regex -- control characters in a redirect target are refused
  if (!next || next.length > NEXT_MAX || !next.startsWith('/') || /[\\\s\x00-\x1f]/.test(next)) return fallback;
  const base = 'http://this.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  // Re-serialised, so characters a Location header cannot carry arrive percent-encoded.
  const target = url.pathname + url.search + url.hash;
  if (!target.startsWith('/') || target.startsWith('//') || /[\\]/.test(target) || /^\/%2f/i.test(target) || /^\/%5c/i.test(target)) return fallback;
  return target;
}
