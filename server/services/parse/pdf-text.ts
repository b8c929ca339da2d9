import { getDocumentProxy, getMeta } from 'unpdf';

// A PDF's text with pdf.js (the serverless build unpdf ships: no canvas, no worker of its own, no
// binary, and it runs on Node 20). Called only inside the parse pool's worker, whose time and heap
// limits bound what a hostile document can cost.

/** Pages read at most; the page count still says how many the document has. */
const MAX_PAGES = 2000;

export interface PdfText {
  title: string;
  author: string;
  text: string;
  pageCount: number;
  /** the text stopped at `maxChars` or at the page limit */
  truncated: boolean;
}

/** Thrown for bytes pdf.js cannot open as a PDF (damaged, encrypted with a password, not a PDF). */
export class UnreadablePdf extends Error {
  override readonly name = 'UnreadablePdf';
}

/** Reads the text of `bytes` page by page, in reading order, until `maxChars` characters are kept. */
export async function extractPdfText(bytes: Uint8Array, maxChars: number): Promise<PdfText> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js detaches the buffer it is given, and the caller may still need its bytes.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false, useSystemFonts: false, stopAtErrors: false });
  } catch (error) {
    const name = (error as Error)?.name ?? '';
    if (name === 'PasswordException') throw new UnreadablePdf('the PDF is protected by a password');
    throw new UnreadablePdf(`the PDF could not be read (${(error as Error)?.message ?? String(error)})`);
  }
  try {
    const pageCount = pdf.numPages;
    const parts: string[] = [];
    let kept = 0;
    let truncated = pageCount > MAX_PAGES;
    for (let n = 1; n <= Math.min(pageCount, MAX_PAGES); n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      page.cleanup();
      let pageText = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        pageText += item.str + (item.hasEOL ? '\n' : '');
      }
      pageText = tidy(pageText);
      if (!pageText) continue;
      if (kept + pageText.length + 2 > maxChars) {
        parts.push(pageText.slice(0, Math.max(0, maxChars - kept - 2)));
        truncated = true;
        break;
      }
      parts.push(pageText);
      kept += pageText.length + 2;
    }
    const { title, author } = await documentInfo(pdf);
    return { title, author, text: parts.join('\n\n'), pageCount, truncated };
  } finally {
    await pdf.destroy();
  }
}

/** Spaces collapsed, lines trimmed, no run of blank lines. */
function tidy(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

async function documentInfo(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<{ title: string; author: string }> {
  try {
    const { info } = await getMeta(pdf);
    const record = info as Record<string, unknown>;
    const field = (key: string) => (typeof record[key] === 'string' ? (record[key] as string).trim() : '');
    return { title: field('Title'), author: field('Author') };
  } catch {
    // A damaged info dictionary costs the title, not the text.
    return { title: '', author: '' };
  }
}
