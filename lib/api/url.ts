// Link handling shared by server and extension: validation, domain, and the normalised form used to
// decide that two links are "the same page" (duplicate checks, the saved-page badge).

/**
 * The version of `normalizeUrl`'s keys. Stored keys (the server's `bookmarks.link_key`, the
 * extension's saved-link index) are kept with the version that made them; a different version
 * re-keys them (the server at start-up, the extension by rebuilding its index). Raise it with any
 * change that gives some link another key (tests/api/url-keys.test.ts pins the keys of each version).
 */
export const URL_KEY_VERSION = 1;

const TRACKING_PARAMS = new Set([
  'fbclid', 'gclid', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'yclid', 'igshid', 'mc_cid', 'mc_eid',
  '_ga', '_gl', '_hsenc', '_hsmi', 'mkt_tok', 'oly_anon_id', 'oly_enc_id', 'vero_id', 'rb_clickid',
  's_cid', 'ncid', 'spm', 'ref_src', 'ref_url', 'trk', 'trkCampaign', 'si',
]);

function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || lower.startsWith('pk_') || TRACKING_PARAMS.has(lower) || TRACKING_PARAMS.has(name);
}

/** Parses an http(s) URL; returns null for anything else (javascript:, data:, relative, junk). */
export function parseHttpUrl(input: string): URL | null {
  if (typeof input !== 'string') return null;
  const trimmed = input.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url;
}

export function isHttpUrl(input: string): boolean {
  return parseHttpUrl(input) !== null;
}

/** The host shown as a bookmark's `domain`, without a leading `www.`. */
export function domainOf(link: string): string {
  const url = parseHttpUrl(link);
  if (!url) return '';
  return url.hostname.replace(/^www\./, '');
}

/** A fragment that routes a single-page app (`#/inbox`, `#!/item`) is part of the page's identity. */
function isAppRouteFragment(hash: string): boolean {
  return hash.startsWith('#/') || hash.startsWith('#!');
}

/**
 * The key two links share when a person would call them the same page: scheme and host case,
 * `www.`, default ports, a trailing slash, tracking parameters (utm_* and similar), parameter order
 * and a fragment that is not an app route are ignored. Returns null for links that are not http(s).
 */
export function normalizeUrl(input: string): string | null {
  const url = parseHttpUrl(input);
  if (!url) return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  // The URL parser has already dropped a default port (80 for http, 443 for https).
  const port = url.port ? `:${url.port}` : '';
  let path = url.pathname || '/';
  if (path.length > 1) path = path.replace(/\/+$/, '');
  if (path === '') path = '/';
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !isTrackingParam(name))
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const hash = isAppRouteFragment(url.hash) ? url.hash : '';
  // Scheme is folded too: http and https versions of a page are the same page for a reader.
  return `${host}${port}${path}${query}${hash}`;
}
