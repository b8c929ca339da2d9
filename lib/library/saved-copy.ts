// The document the saved-copy page puts in its sandboxed frame: the server's sanitised copy with
// the server's Content-Security-Policy in front of it (as a <meta>, the form a srcdoc frame can
// carry) and links opening in a new tab. The frame's `sandbox` attribute stands for the policy's
// `sandbox` directive, which a <meta> cannot carry.
import type { SavedCopy } from './types.js';

/** Directives a <meta> policy ignores (and warns about): the frame's attributes and the page cover them. */
const NOT_IN_META = new Set(['sandbox', 'frame-ancestors', 'report-uri', 'report-to']);

/** The sandbox the frame gets: nothing runs, no same origin, no forms; a link may open a normal new tab. */
export const COPY_FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/** When the server sends no policy: the copy may show images, styles and fonts and run nothing. */
const FALLBACK_CSP = "default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline' http: https:; font-src data: http: https:; media-src http: https:";

/** The server's policy without the directives a <meta> cannot carry; `default-src 'none'` when it had none. */
export function metaPolicy(csp: string): string {
  const kept = csp
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !NOT_IN_META.has(d.split(/\s+/)[0]!.toLowerCase()));
  if (!kept.some((d) => /^default-src\s/i.test(d))) return FALLBACK_CSP;
  return kept.join('; ');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The frame's document: the policy and `<base target="_blank">` first (a doctype, when the copy
 * starts with one, stays first so the copy keeps its rendering mode), then the copy as it is.
 */
export function copyDocument(html: string, csp: string): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="${attr(metaPolicy(csp))}"><base target="_blank">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${head}${html.slice(doctype[0].length)}` : `${head}${html}`;
}

/** The title of the copy (its <title>), read without running anything in it. */
export function copyTitle(html: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!m) return '';
  const doc = new DOMParser().parseFromString(`<p>${m[1]}</p>`, 'text/html');
  return (doc.body.textContent ?? '').trim();
}

/**
 * What the saved-copy page shows, from the server's answer to GET /bookmark/{id}/cache and its text:
 * the copy, the policy it is served with, the page's address and when it was kept. Both hosts read it
 * the same way.
 */
export function savedCopyFrom(res: Response, html: string): SavedCopy {
  const modified = res.headers.get('last-modified');
  let pageUrl = res.headers.get('x-copy-url') ?? '';
  try {
    pageUrl = decodeURI(pageUrl);
  } catch {
    // Not valid percent-encoding: show the address as the server sent it.
  }
  return {
    html,
    csp: res.headers.get('content-security-policy') ?? '',
    pageUrl,
    savedAt: modified ? new Date(modified).toISOString() : null,
  };
}

