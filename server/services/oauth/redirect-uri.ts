/** Most redirect URIs one application may register. */
const MAX_REDIRECT_URIS = 10;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why a redirect URI cannot be registered, or null when it can. Codes are only ever sent to https
 * URLs, or to http on this computer (loopback) for local development; never to a URL with a
 * fragment or embedded credentials.
 */
export function redirectUriProblem(uri: string): string | null {
  if (!uri) return 'The redirect URL is empty.';
  if (uri.length > 2000) return 'The redirect URL is longer than 2000 characters.';
  if (/\s/.test(uri)) return 'The redirect URL contains spaces.';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URL: write it in full, like https://app.example/oauth/callback.`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return `"${uri}" must use https (plain http is allowed only for 127.0.0.1 and localhost).`;
  }
  if (url.hash || uri.includes('#')) return `"${uri}" must not contain a #fragment.`;
  if (url.username || url.password) return `"${uri}" must not contain a user name or password.`;
  return null;
}

/** Splits the console's "one per line" text into trimmed, distinct URIs. */
export function parseRedirectList(text: string): string[] {
  return [...new Set(text.split(/[\r\n]+/).map((s) => s.trim()).filter(Boolean))];
}

/** Checks a list of redirect URIs; returns the first problem, or null. */
export function redirectListProblem(uris: string[]): string | null {
  if (uris.length === 0) return 'Give at least one redirect URL.';
  if (uris.length > MAX_REDIRECT_URIS) return `Give at most ${MAX_REDIRECT_URIS} redirect URLs.`;
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return problem;
  }
  return null;
}

/** The registered URI with OAuth result parameters added to its query (existing ones kept). */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}
