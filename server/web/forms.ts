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

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Where to go after signing in: only a path on this site. Anything else (another origin,
 * protocol-relative `//host`, backslashes browsers treat as slashes) falls back to the account page.
 */
export function safeNext(next: string): string {
  // eslint-disable-next-line no-control-regex -- control characters in a redirect target are refused
  if (!next || next.length > 4000 || !next.startsWith('/') || next.startsWith('//') || /[\\\s\x00-\x1f]/.test(next)) return '/account';
  const base = 'http://this.invalid';
  const url = new URL(next, base);
  // Re-serialised, so characters a Location header cannot carry arrive percent-encoded.
  return url.origin === base ? url.pathname + url.search + url.hash : '/account';
}
