import type { FetchErrorCode } from '../../parse/safe-fetch.js';

// What a person reads on a bookmark whose text could not be had, and whether trying again later can
// help. The HTTP status stays in the words ("the site answered 403"), so support and users can tell
// a refusal from an outage.

/** Why no text: shown on the bookmark; `retry` says whether the job tries again after a backoff. */
export interface TextFailure {
  /** failed: something went wrong; none: there is no text to have (an image, a binary file) */
  status: 'failed' | 'none';
  reason: string;
  retry: boolean;
  /** the site's Retry-After, when it sent one */
  retryAfterMs?: number;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  410: 'Gone',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A non-2xx answer. Every one is retried (a refusal or an outage may pass), up to the job's attempts. */
export function statusFailure(status: number, retryAfterMs?: number): TextFailure {
  const name = STATUS_NAMES[status];
  const answered = `the site answered ${status}${name ? ` (${name})` : ''}`;
  let advice: string;
  if (status === 401 || status === 403 || status === 402 || status === 451) {
    advice = 'it may refuse automated readers or need a sign-in; saving the page from the browser extension keeps its text';
  } else if (status === 404 || status === 410) {
    advice = 'the page may have moved or been removed; check the address';
  } else if (status === 429) {
    advice = 'it asked to be read more slowly; it is tried again later';
  } else if (status >= 500) {
    advice = 'the site may be down for now; it is tried again later';
  } else {
    advice = 'check the address';
  }
  return { status: 'failed', reason: `${answered}: ${advice}`, retry: true, retryAfterMs };
}

/** A fetch that failed before an answer (network, policy, limits). */
export function fetchFailure(code: FetchErrorCode, timeoutMs: number): TextFailure {
  switch (code) {
    case 'timeout':
      return { status: 'failed', reason: `the site did not answer in ${seconds(timeoutMs)}; it may be slow or down`, retry: true };
    case 'dns_failure':
      return { status: 'failed', reason: "the site's name could not be found; check the address for typos", retry: true };
    case 'connection_failed':
      return { status: 'failed', reason: 'the site could not be reached; it may be down', retry: true };
    case 'tls_failure':
      return { status: 'failed', reason: "the site's secure connection could not be verified", retry: true };
    case 'bad_response':
      return { status: 'failed', reason: 'the site sent a malformed answer', retry: true };
    case 'aborted':
      return { status: 'failed', reason: 'the server stopped while reading the page', retry: true };
    case 'blocked_address':
      return { status: 'failed', reason: 'the address points to a private or local network, which the server does not read', retry: false };
    case 'too_many_redirects':
      return { status: 'failed', reason: 'the page redirects too many times', retry: false };
    case 'invalid_redirect':
      return { status: 'failed', reason: 'the page redirects to an address that is not a web page', retry: false };
    case 'invalid_url':
      return { status: 'none', reason: 'this is not a web address (http or https): there is no page to read', retry: false };
    case 'too_large':
      return { status: 'failed', reason: 'the page is larger than the server reads', retry: false };
  }
}

/** A type with no text to read: images, audio, video, archives and other binary files. */
export function binaryFailure(contentType: string): TextFailure {
  const major = contentType.split('/')[0];
  const what =
    major === 'image' ? 'an image' : major === 'audio' ? 'an audio file' : major === 'video' ? 'a video' : contentType ? `a ${contentType} file` : 'a binary file';
  return { status: 'none', reason: `this is ${what}: no text`, retry: false };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
