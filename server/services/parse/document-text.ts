import { decodeText } from './decode-html.js';
import { extractPdfText } from './pdf-text.js';
import type { ExtractedArticle } from '../../repositories/index.js';

// The text of documents that are not HTML pages, in the same shape as a page's article: a PDF (its
// pages' text, with the page count) and plain text (text/plain, JSON, XML, decoded by its BOM or
// charset). Their reader HTML is built here from escaped text, so nothing of the document's own
// markup reaches the reader.

/** A PDF's text and page count; its title from the document's info, else the file's name. */
export async function pdfDocumentText(bytes: Uint8Array, url: string, maxChars: number): Promise<ExtractedArticle> {
  const pdf = await extractPdfText(bytes, maxChars);
  return {
    title: oneLine(pdf.title) || fileName(url),
    byline: oneLine(pdf.author),
    siteName: hostName(url),
    html: paragraphs(pdf.text),
    text: pdf.text,
    truncated: pdf.truncated,
    pageCount: pdf.pageCount,
  };
}

/** A plain-text document as it is, cut at `maxChars`. */
export function plainDocumentText(bytes: Uint8Array, contentType: string, url: string, maxChars: number): ExtractedArticle {
  const decoded = decodeText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType)
    .replace(/\r\n?/g, '\n')
    .trim();
  const truncated = decoded.length > maxChars;
  let text = truncated ? decoded.slice(0, maxChars) : decoded;
  // Never end on half a surrogate pair.
  if (truncated && /[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  return { title: fileName(url), byline: '', siteName: hostName(url), html: paragraphs(text), text, truncated };
}

/** Blank-line separated paragraphs as <p>, lines within one kept apart by <br>; all text escaped. */
function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${p.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function hostName(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** The last part of the address's path ("report.pdf"), for a document without a title of its own. */
function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    return oneLine(decodeURIComponent(last)) || hostName(url);
  } catch {
    return '';
  }
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 500 ? `${t.slice(0, 499).trimEnd()}…` : t;
}
