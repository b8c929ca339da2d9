import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { blockedAddressReason } from './address-policy.js';

// Fetches a page someone asked us to read, without letting that someone reach this machine or
// its network (SSRF): http(s) only; every hop's host is resolved here, every address checked,
// and the connection pinned to the checked address so DNS cannot change its answer in between.

const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export type FetchErrorCode =
  | 'invalid_url'
  | 'invalid_redirect'
  | 'blocked_address'
  | 'dns_failure'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'connection_failed'
  | 'tls_failure'
  | 'bad_response'
  | 'aborted';

/** Why a fetch failed: `code` for programs (and the parse route's errorMessage), `message` for people. */
export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses. The default asks the system resolver (getaddrinfo). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchPageOptions {
  /** lift the private/local address block (serve --allow-private-network, for local testing only) */
  allowPrivateNetwork?: boolean;
  /** for the whole fetch: DNS, every redirect and the body; default 10 s */
  timeoutMs?: number;
  /** body limit after decompression; default 5 MB */
  maxBytes?: number;
  /** 'error' (default) fails with too_large past maxBytes; 'truncate' keeps the first maxBytes */
  onTooLarge?: 'error' | 'truncate';
  /** default 5; the next redirect fails with too_many_redirects */
  maxRedirects?: number;
  userAgent?: string;
  /** sent as Accept; default prefers HTML */
  accept?: string;
  /** return false to skip reading the body (it is then empty), e.g. for a PDF when only its type matters */
  wantBody?: (response: { status: number; contentType: string; finalUrl: string }) => boolean;
  signal?: AbortSignal;
  /** DNS resolver to use instead of the system one */
  resolve?: Resolver;
  /** extra certificate authorities to trust for https (PEM), replacing the default set */
  ca?: string | Buffer | (string | Buffer)[];
  /**
   * TESTS ONLY: skip the address check for the URL passed in (not for redirects), so a test can
   * serve the first hop from 127.0.0.1 and check that a redirect to a local address is refused.
   */
  testOnlyTrustInitialAddress?: boolean;
}

export interface FetchedPage {
  /** the URL that answered, after redirects */
  finalUrl: string;
  status: number;
  /** media type without parameters, lower case ("text/html"); "" when the server sent none */
  contentType: string;
  /** the full Content-Type header, with charset */
  contentTypeHeader: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** true when onTooLarge is 'truncate' and the body was cut at maxBytes */
  truncated: boolean;
  /** each redirect target, in order */
  redirects: string[];
}

const systemResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/**
 * GETs `url`, following up to 5 redirects, refusing private and local addresses on every hop,
 * within 10 s and 5 MB (see options). Non-2xx answers are returned, not thrown; network, policy
 * and limit failures throw FetchError.
 */
export async function fetchPage(url: string, options: FetchPageOptions = {}): Promise<FetchedPage> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(
      new FetchError('timeout', `${url} did not answer completely within ${formatMs(timeoutMs)}; the site may be slow or down`),
    );
  }, timeoutMs);
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(new FetchError('aborted', 'the fetch was cancelled'));
  if (outer?.aborted) onOuterAbort();
  outer?.addEventListener('abort', onOuterAbort, { once: true });

  try {
    let current = parseHttpUrl(url);
    if (!current) throw new FetchError('invalid_url', `"${truncate(url)}" is not an http(s) address`);
    const redirects: string[] = [];
    for (let hop = 0; ; hop++) {
      const trusted = options.allowPrivateNetwork === true || (hop === 0 && options.testOnlyTrustInitialAddress === true);
      const address = await resolveChecked(current, trusted, options.resolve ?? systemResolver, controller.signal);
      const response = await openRequest(current, address, requestHeaders(options), controller.signal, options.ca);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;

      if (REDIRECT_STATUSES.has(status) && location) {
        response.destroy();
        if (redirects.length >= maxRedirects) {
          throw new FetchError('too_many_redirects', `${url} redirects more than ${maxRedirects} times`);
        }
        const next = resolveRedirect(location, current);
        redirects.push(next.href);
        current = next;
        continue;
      }

      const contentTypeHeader = headerValue(response.headers['content-type']);
      const contentType = (contentTypeHeader.split(';')[0] ?? '').trim().toLowerCase();
      const base = { finalUrl: current.href, status, contentType, contentTypeHeader, headers: response.headers, redirects };
      if (options.wantBody && !options.wantBody({ status, contentType, finalUrl: current.href })) {
        response.destroy();
        return { ...base, body: Buffer.alloc(0), truncated: false };
      }
      const { body, truncated } = await readBody(
        response,
        options.maxBytes ?? DEFAULT_MAX_BYTES,
        options.onTooLarge ?? 'error',
        current.href,
        controller.signal,
      );
      return { ...base, body, truncated };
    }
  } catch (error) {
    throw asFetchError(error, controller.signal);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

function parseHttpUrl(input: string): URL | null {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) return null;
  return parsed;
}

function resolveRedirect(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new FetchError('invalid_redirect', `${from.href} redirects to "${truncate(location)}", which is not a valid address`);
  }
  if ((next.protocol !== 'http:' && next.protocol !== 'https:') || !next.hostname) {
    throw new FetchError('invalid_redirect', `${from.href} redirects to ${next.protocol} addresses, which are not fetched`);
  }
  return next;
}

/** Resolves the host (unless it is an IP literal) and refuses it if any address is not public. */
async function resolveChecked(
  url: URL,
  trusted: boolean,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await untilAborted(resolve(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new FetchError('dns_failure', `the name ${host} could not be resolved; check the address for typos`);
    }
    if (addresses.length === 0) {
      throw new FetchError('dns_failure', `the name ${host} has no addresses; check the address for typos`);
    }
  }
  if (!trusted) {
    for (const { address } of addresses) {
      const reason = blockedAddressReason(address);
      if (reason) {
        throw new FetchError(
          'blocked_address',
          `${host} points to ${address} (${reason}); pages on private or local networks are not fetched`,
        );
      }
    }
  }
  return addresses[0]!;
}

function requestHeaders(options: FetchPageOptions): Record<string, string> {
  return {
    'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
    accept: options.accept ?? 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    'accept-language': 'en-US,en;q=0.9',
    'accept-encoding': 'gzip, deflate, br',
  };
}

/** Opens a GET whose connection goes to `pinned`, the address that was checked, whatever DNS says now. */
function openRequest(
  url: URL,
  pinned: ResolvedAddress,
  headers: Record<string, string>,
  signal: AbortSignal,
  ca: FetchPageOptions['ca'],
): Promise<IncomingMessage> {
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(url, {
      method: 'GET',
      headers,
      agent: false,
      lookup,
      signal,
      ...(secure && ca ? { ca } : {}),
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

async function readBody(
  response: IncomingMessage,
  maxBytes: number,
  onTooLarge: 'error' | 'truncate',
  url: string,
  signal: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  const tooLarge = () =>
    new FetchError('too_large', `${url} is larger than ${formatBytes(maxBytes)}, the most that is read from a page`);
  const encoding = headerValue(response.headers['content-encoding']).trim().toLowerCase();
  const declared = Number(headerValue(response.headers['content-length']));
  if (onTooLarge === 'error' && (!encoding || encoding === 'identity') && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const stream = decoded(response, encoding);
  const onAbort = () => stream.destroy(signal.reason instanceof Error ? signal.reason : undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (total + chunk.length > maxBytes) {
        if (onTooLarge === 'error') throw tooLarge();
        chunks.push(chunk.subarray(0, maxBytes - total));
        total = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      total += chunk.length;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    stream.destroy();
    response.destroy();
  }
  return { body: Buffer.concat(chunks, total), truncated };
}

/** The body as sent, or decompressed for gzip, deflate and brotli (counted after decompression). */
function decoded(response: IncomingMessage, encoding: string): Readable {
  const ignore = () => {}; // errors surface through the iterator of the last stream
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return pipeline(response, zlib.createGunzip(), ignore);
    case 'deflate':
      return pipeline(response, zlib.createInflate(), ignore);
    case 'br':
      return pipeline(response, zlib.createBrotliDecompress(), ignore);
    default:
      return response;
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // Already given up: the work under way (a DNS lookup) is not waited for, but its failure must
    // not become an unhandled rejection, which would end the server process.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function asFetchError(error: unknown, signal: AbortSignal): FetchError {
  if (error instanceof FetchError) return error;
  if (signal.aborted) {
    return signal.reason instanceof FetchError ? signal.reason : new FetchError('aborted', 'the fetch was cancelled');
  }
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string') {
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
      return new FetchError('dns_failure', `the site's name could not be resolved (${code})`);
    }
    if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code.startsWith('UNABLE_TO')) {
      return new FetchError('tls_failure', `the site's secure connection could not be verified (${code})`);
    }
    if (code.startsWith('HPE_') || code.startsWith('Z_') || code === 'ERR_INVALID_CHAR') {
      return new FetchError('bad_response', `the site sent a malformed answer (${code})`);
    }
    return new FetchError('connection_failed', `the site could not be reached (${code}); it may be down`);
  }
  return new FetchError('connection_failed', `the site could not be reached: ${text}`);
}

function headerValue(value: string | string[] | undefined): string {
  if (Array.isArray(value)) return value[0] ?? '';
  return value ?? '';
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * A resource a page uses (an image, a stylesheet), for a permanent copy: fetched like a page (same
 * address policy and limits, 5 s unless told), its body read only when `wanted` accepts the answer.
 * Answers null when it is not wanted or cannot be had (a FetchError); anything else thrown is a fault.
 */
export async function fetchSubresource(
  url: string,
  options: Omit<FetchPageOptions, 'wantBody' | 'onTooLarge'> & { maxBytes: number; accept: string },
  wanted: (status: number, contentType: string) => boolean,
): Promise<FetchedPage | null> {
  try {
    const page = await fetchPage(url, {
      timeoutMs: 5000,
      ...options,
      onTooLarge: 'error',
      wantBody: ({ status, contentType }) => wanted(status, contentType),
    });
    return wanted(page.status, page.contentType) ? page : null;
  } catch (error) {
    if (error instanceof FetchError) return null;
    throw error;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MB` : `${Math.round(bytes / 1024)} KB`;
}
