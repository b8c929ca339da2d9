// The request core of the API client: JSON over fetch, bearer token, retries with backoff on
// network errors, 5xx and 429 (honouring Retry-After), and one token refresh on a 401. Only requests
// that are safe to repeat are retried after a network error or a 5xx: reads, and writes that carry an
// Idempotency-Key (the server runs those once however often they arrive). A 429 is retried always:
// the server refused it without running it.
// Pure: fetch only, no extension APIs. The token comes from a callback (none: the session cookie).
import { ApiClientError, isTemporaryStatus, messageOf } from './errors.js';

export interface TokenSource {
  /** The current access token (refreshed ahead of expiry by the owner), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  /** Called once on a 401: a fresh token, or null when refreshing failed (the owner signs out). */
  refreshAfterUnauthorized(rejected: string): Promise<string | null>;
}

export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A 429 whose Retry-After is longer than this is not waited for: the call fails with 429. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 4000, maxRetryAfterMs: 10_000 };

export interface HttpOptions {
  /** Origin of the service, e.g. `http://localhost:8787` (the API is under /rest/v1). */
  serverUrl: () => string | Promise<string>;
  /**
   * Where bearer tokens come from. Without one the client runs in cookie mode (the web app served
   * by the server): same-origin requests carry the session cookie, no Authorization header, and a
   * 401 means the session has ended.
   */
  tokens?: TokenSource;
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as `Idempotency-Key`: the server runs the write once however often it is repeated. */
  idempotencyKey?: string;
  /** Overrides the client's retry count for this call (interactive writes fail over to the queue fast). */
  retries?: number;
  /** A POST that only reads (url/exists): repeated like a GET. */
  read?: boolean;
  /** Use this token instead of the signed-in one, with no refresh (checking a pasted test token). */
  token?: string;
  /** Cancels the request (a newer search replaced it): it rejects with the signal's reason, never retried. */
  signal?: AbortSignal;
}

export type Http = <T>(method: string, path: string, opts?: RequestOptions) => Promise<T>;

const SIGN_IN_EXPIRED = 'Your sign-in has expired. Open Tidemark\'s options and sign in again.';
const SESSION_ENDED = 'You are signed out: your session has ended. Sign in again to see your library.';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function apiBase(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/rest/v1`;
}

export function createHttp(options: HttpOptions): Http {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? 15_000;

  const backoff = (attempt: number) => {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  };

  return async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    // Both usually read extension storage: read at once, not one after the other.
    const tokens = options.tokens;
    const [serverUrl, firstToken] = await Promise.all([options.serverUrl(), opts.token ?? tokens?.getAccessToken() ?? null]);
    const base = apiBase(serverUrl);
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const retries = opts.retries ?? policy.retries;
    // Whether a request whose answer was lost may be sent again without doing its work twice.
    const repeatable = method === 'GET' || method === 'HEAD' || opts.read === true || !!opts.idempotencyKey;
    let token = firstToken;
    if (!token && tokens) throw new ApiClientError('unauthorized', 'You are signed out. Open Tidemark\'s options and sign in.');
    let refreshed = opts.token !== undefined || !tokens;

    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
      let res: Response;
      try {
        res = await doFetch(url.toString(), {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          // Cookie mode relies on the browser's default; said here so nobody changes it unknowingly.
          ...(tokens ? {} : { credentials: 'same-origin' as const }),
          signal: opts.signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), opts.signal]) : AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        if (repeatable && attempt < retries) {
          await sleep(backoff(attempt));
          continue;
        }
        const timedOut = (err as Error)?.name === 'TimeoutError';
        throw new ApiClientError(
          'network',
          timedOut
            ? `The Tidemark server at ${new URL(base).origin} did not answer in time.`
            : `Could not reach the Tidemark server at ${new URL(base).origin}. Check that it is running and that you are online.`,
        );
      }

      if (res.status === 401 && !refreshed) {
        refreshed = true;
        const fresh = await tokens!.refreshAfterUnauthorized(token!);
        if (!fresh) throw new ApiClientError('unauthorized', SIGN_IN_EXPIRED, 401);
        token = fresh;
        attempt--; // the refresh is not a retry
        continue;
      }

      const body = await readBody(res);
      if (res.ok) {
        // Every Tidemark answer is a JSON object with a boolean `result`. Anything else (a web
        // page, another API) means the address is not a Tidemark server: say so, rather than let
        // a caller trip over a missing field.
        if (!isEnvelope(body)) throw new ApiClientError('not-tidemark', notTidemarkMessage(res, body), res.status, body);
        return body as T;
      }

      if (res.status === 401) {
        throw new ApiClientError('unauthorized', tokens ? SIGN_IN_EXPIRED : SESSION_ENDED, 401, body);
      }
      // A 409 is repeated only with an idempotency key: then it means "the same write is still running".
      // A 5xx may come after the work was done: repeated only when that is safe.
      const retryable =
        isTemporaryStatus(res.status) && (res.status === 429 || repeatable) && (res.status !== 409 || !!opts.idempotencyKey);
      if (retryable && attempt < retries) {
        let delay = backoff(attempt);
        if (res.status === 429 || res.status === 503) {
          const after = parseRetryAfter(res.headers.get('retry-after'));
          if (after !== undefined) {
            if (after > policy.maxRetryAfterMs) throw new ApiClientError('http', messageOf(res.status, body), res.status, body);
            delay = Math.max(after, 0);
          }
        }
        await sleep(delay);
        continue;
      }
      // A refusal that is not a Tidemark error envelope (e.g. a 404 web page): the wrong address.
      if (!isTemporaryStatus(res.status) && !(body && typeof body === 'object')) {
        throw new ApiClientError('not-tidemark', notTidemarkMessage(res, body), res.status, body);
      }
      throw new ApiClientError('http', messageOf(res.status, body), res.status, body);
    }
  };
}

/**
 * Asks `serverUrl` an unauthenticated question every Tidemark server answers with a JSON envelope
 * (GET /user: 401 `{result: false, ...}`), before sending the user off to sign in there. Throws
 * the "not a Tidemark server" or "could not reach" error; resolves when it looks right.
 */
export async function checkTidemarkServer(serverUrl: string, doFetch: typeof fetch = fetch, timeoutMs = 15_000): Promise<void> {
  const base = apiBase(serverUrl);
  let res: Response;
  try {
    res = await doFetch(`${base}/user`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw new ApiClientError(
      'network',
      `Could not reach the Tidemark server at ${new URL(base).origin}. Check that it is running and that you are online.`,
    );
  }
  const body = await readBody(res);
  if (!isEnvelope(body)) throw new ApiClientError('not-tidemark', notTidemarkMessage(res, body), res.status, body);
}

function isEnvelope(body: unknown): boolean {
  return !!body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { result?: unknown }).result === 'boolean';
}

/** What a person reads when the server URL points at something that is not a Tidemark server. */
export function notTidemarkMessage(res: Pick<Response, 'headers'>, body: unknown): string {
  const type = res.headers.get('content-type') ?? '';
  const what =
    typeof body === 'string' && (type.includes('html') || /^\s*</.test(body))
      ? 'it returned an HTML page'
      : body === undefined
        ? 'it returned an empty answer'
        : typeof body === 'string'
          ? 'it returned text that is not JSON'
          : 'it returned JSON of another shape';
  return `This address did not answer like a Tidemark server (${what}). Check the server URL.`;
}

/** The answer's JSON, its text when it is not JSON, or undefined when empty or unreadable. */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
