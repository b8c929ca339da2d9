import type { IncomingHttpHeaders } from 'node:http';

/** What the API does with a session cookie on one request. */
export type CookieVerdict =
  /** A page of this very site sent it: the cookie signs the request in. */
  | { kind: 'accept' }
  /** A read from elsewhere: the cookie is not looked at, the request is anonymous. */
  | { kind: 'ignore' }
  /** A change from elsewhere, or one whose origin cannot be told: refused (403). */
  | { kind: 'refuse'; reason: string };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether the session cookie may sign in a request to the API. Browsers say where a request comes
 * from in `Sec-Fetch-Site` (every current engine) and, on cross-origin requests and on every POST,
 * PUT, PATCH and DELETE, in `Origin`. The cookie counts only when these say "this site":
 * `Sec-Fetch-Site: same-origin` (or `none`, a person opening an address themselves, for reads), or
 * without Sec-Fetch-Site an `Origin` equal to the server's own. A read without either header is
 * accepted (no browser sends a cross-site read that way, and SameSite=Lax keeps the cookie off
 * other sites' subresource requests); a change without either is refused, since its origin cannot
 * be told.
 */
export function cookieVerdict(method: string, headers: IncomingHttpHeaders, ownOrigin: string): CookieVerdict {
  const safe = SAFE_METHODS.has(method.toUpperCase());
  const site = one(headers['sec-fetch-site'])?.toLowerCase();
  const origin = one(headers.origin);
  // Sec-Fetch-Site is set by the browser alone (scripts cannot), so when it is there it decides;
  // Origin may then be "null" on a same-origin change (a no-referrer policy), which says nothing.
  let sameOrigin: boolean;
  if (site !== undefined) sameOrigin = site === 'same-origin' || (site === 'none' && safe);
  else sameOrigin = origin === undefined ? safe : origin === ownOrigin;
  if (sameOrigin) return { kind: 'accept' };
  if (safe) return { kind: 'ignore' };
  const from = origin && origin !== 'null' ? `from ${origin}` : site && site !== 'none' ? `from another site (Sec-Fetch-Site: ${site})` : 'without an Origin header';
  return {
    kind: 'refuse',
    reason:
      `This ${method.toUpperCase()} request came ${from} with this site's sign-in cookie, which only this site's own pages may use: nothing was changed. ` +
      'Apps on other sites must send an OAuth access token (Authorization: Bearer <token>).',
  };
}
