// Failures of API calls, sorted by what the caller can do about them.

/**
 * - `network`: the server could not be reached (offline, stopped, timed out) after the retries;
 *   writes go to the offline queue.
 * - `unauthorized`: no valid token and refreshing did not help; the user is signed out.
 * - `http`: the server answered with an error (`status`, `message` from its envelope).
 * - `not-tidemark`: the address answered, but not as a Tidemark server does (a web page, another API).
 */
export type ApiErrorKind = 'network' | 'unauthorized' | 'http' | 'not-tidemark';

export class ApiClientError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status = 0,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }

  /** Worth sending again later unchanged: the server was unreachable, overloaded or busy. */
  get temporary(): boolean {
    return this.kind === 'network' || isTemporaryStatus(this.status);
  }
}

/** Statuses that say "not now" rather than "no": server errors, rate limits, timeouts, a write still in progress. */
export function isTemporaryStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 409 || status === 408;
}

/** The `errorMessage` of an error envelope, or a description of the status. */
export function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { errorMessage?: unknown; error_description?: unknown; error?: unknown };
    if (typeof b.errorMessage === 'string' && b.errorMessage) return b.errorMessage;
    if (typeof b.error_description === 'string' && b.error_description) return b.error_description;
    if (typeof b.error === 'string' && b.error) return b.error;
  }
  return `The server answered with HTTP ${status}.`;
}
