import type { FastifyReply } from 'fastify';

/**
 * The web app's Content-Security-Policy: scripts, styles, workers and the manifest only from this
 * site (no inline script, no eval), API calls only to this site, covers and the reader's article
 * images from any web site or data: URLs (an image runs nothing, and the reader loads them without a
 * referrer), frames only of this site's own saved copies, and no framing of the app by others.
 */
const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: http: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Public collection pages: server-rendered, no script at all. */
export const PUBLIC_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "form-action 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers on every answer of the web app and the public pages. The referrer goes to this site only:
 * a library's addresses (collection ids, searches) are not handed to the pages it links to.
 */
export function secureHeaders(reply: FastifyReply, csp: string = WEB_APP_CSP): FastifyReply {
  return reply
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
}
