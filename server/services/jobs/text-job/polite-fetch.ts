import type { IncomingHttpHeaders } from 'node:http';
import { ARTICLE_UPLOAD_MAX_BYTES } from '../../../../lib/api/schemas/article.js';
import { sniffFile } from '../../files/sniff.js';
import { FetchError, fetchPage, type Resolver } from '../../parse/safe-fetch.js';
import { binaryFailure, fetchFailure, statusFailure, type TextFailure } from './failure-reason.js';
import { HostGate } from './host-gate.js';

// The text job's fetcher: the SSRF-safe fetchPage (same address policy, redirects and decompression
// limits as everything else the server reads), one request at a time per host with a pause between
// them, and each outcome sorted into a document worth extracting or a reason a person can read.

export interface PoliteFetchSettings {
  /** pause between two requests to one host */
  hostDelayMs: number;
  /** for the whole fetch: DNS, redirects and body */
  timeoutMs: number;
  /** bytes read at most; a longer PDF is refused */
  maxBytes: number;
  /** an HTML or text page is cut here: the extension's upload limit, so both ways in keep the same */
  maxPageBytes?: number;
  allowPrivateNetwork: boolean;
  /** DNS resolver instead of the system's (tests) */
  resolve?: Resolver;
}

/** What the fetched bytes are, for the extraction. */
export type DocumentKind = 'html' | 'pdf' | 'plain';

export interface FetchedDocument {
  kind: DocumentKind;
  bytes: Buffer;
  /** the Content-Type header as sent (its charset decodes HTML and text) */
  contentType: string;
  finalUrl: string;
  /** the body was cut at maxBytes */
  truncated: boolean;
}

export type PoliteFetchResult = { ok: true; document: FetchedDocument } | { ok: false; failure: TextFailure };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf']);
const PLAIN_TYPES = new Set(['application/json', 'application/xml', 'application/rss+xml', 'application/atom+xml']);
/** Types that say nothing: the first bytes decide. */
const UNSURE_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/download', 'application/unknown']);

/** The kind of a declared media type; 'sniff' when the bytes must tell; null for a type with no text. */
function kindOf(contentType: string): DocumentKind | 'sniff' | null {
  if (HTML_TYPES.has(contentType)) return 'html';
  if (PDF_TYPES.has(contentType)) return 'pdf';
  if (contentType.startsWith('text/') || PLAIN_TYPES.has(contentType)) return 'plain';
  if (UNSURE_TYPES.has(contentType)) return 'sniff';
  return null;
}

function sniffedKind(head: Buffer): { kind: DocumentKind } | { mime: string } {
  const { mime } = sniffFile(head.subarray(0, 4096));
  const kind = kindOf(mime);
  return kind && kind !== 'sniff' ? { kind } : { mime };
}

/** Retry-After as milliseconds (seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfter(headers: IncomingHttpHeaders): number | undefined {
  const raw = headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

export class PoliteFetcher {
  private readonly gate: HostGate;

  constructor(private readonly settings: PoliteFetchSettings) {
    this.gate = new HostGate(settings.hostDelayMs);
  }

  /**
   * Fetches `url` when its host is free. Answers the document, or why there is no text; throws only
   * when `signal` aborts (the job is stopping) or for a fault in this code.
   */
  async fetch(url: string, signal?: AbortSignal): Promise<PoliteFetchResult> {
    const host = hostOf(url);
    if (!host) return { ok: false, failure: fetchFailure('invalid_url', this.settings.timeoutMs) };
    return this.gate.run(host, () => this.fetchNow(url, signal), signal);
  }

  private async fetchNow(url: string, signal?: AbortSignal): Promise<PoliteFetchResult> {
    const { timeoutMs, maxBytes } = this.settings;
    let page;
    try {
      page = await fetchPage(url, {
        allowPrivateNetwork: this.settings.allowPrivateNetwork,
        resolve: this.settings.resolve,
        timeoutMs,
        maxBytes,
        onTooLarge: 'truncate',
        accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5',
        signal,
        // Images and other binary types are known by their header: their bytes are never read.
        wantBody: ({ status, contentType }) => status >= 200 && status < 300 && kindOf(contentType) !== null,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof FetchError) return { ok: false, failure: fetchFailure(error.code, timeoutMs) };
      throw error;
    }
    if (page.status < 200 || page.status >= 300) return { ok: false, failure: statusFailure(page.status, retryAfter(page.headers)) };

    let kind = kindOf(page.contentType);
    if (kind === null) return { ok: false, failure: binaryFailure(page.contentType) };
    if (kind === 'sniff') {
      const sniffed = sniffedKind(page.body);
      if ('mime' in sniffed) return { ok: false, failure: binaryFailure(sniffed.mime === 'application/octet-stream' ? '' : sniffed.mime) };
      kind = sniffed.kind;
    }
    if (page.body.length === 0) return { ok: false, failure: { status: 'none', reason: 'the page is empty: no text', retry: false } };
    if (kind === 'pdf') {
      // A PDF cut short cannot be opened: its index of objects sits at its end.
      if (page.truncated) return { ok: false, failure: { status: 'failed', reason: `the PDF is larger than ${formatMb(maxBytes)}, the most the server reads`, retry: false } };
      return { ok: true, document: { kind, bytes: page.body, contentType: page.contentTypeHeader, finalUrl: page.finalUrl, truncated: false } };
    }
    const pageCap = Math.min(maxBytes, this.settings.maxPageBytes ?? ARTICLE_UPLOAD_MAX_BYTES);
    const cut = page.body.length > pageCap;
    return {
      ok: true,
      document: {
        kind,
        // A copy of the kept part, so the rest can be freed and the part moved to the worker alone.
        bytes: cut ? Buffer.from(page.body.subarray(0, pageCap)) : page.body,
        contentType: page.contentTypeHeader,
        finalUrl: page.finalUrl,
        truncated: cut || page.truncated,
      },
    };
  }
}

function formatMb(bytes: number): string {
  return bytes >= 100 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
