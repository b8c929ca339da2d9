import { describe, expect, it } from 'vitest';
import { makePdf } from '../../../tests/helpers/make-pdf.js';
import { extractPdfText, UnreadablePdf } from './pdf-text.js';

// pdf.js reads back what a PDF written in the test says, page by page, with the page count.

describe('PDF text', () => {
  it('reads every page\'s text, the page count and the title', async () => {
    const bytes = makePdf(['Tide gauges in Brest (since 1711)', 'The second page says more.'], 'Sea levels');
    const read = await extractPdfText(bytes, 100_000);
    expect(read).toMatchObject({ title: 'Sea levels', pageCount: 2, truncated: false });
    expect(read.text).toBe('Tide gauges in Brest (since 1711)\n\nThe second page says more.');
  });

  it('stops at the character limit and says so, still counting every page', async () => {
    const read = await extractPdfText(makePdf(['a'.repeat(50), 'b'.repeat(50), 'c'.repeat(50)]), 60);
    expect(read.pageCount).toBe(3);
    expect(read.truncated).toBe(true);
    expect(read.text.length).toBeLessThanOrEqual(60);
    expect(read.text.startsWith('a'.repeat(50))).toBe(true);
    expect(read.text).not.toContain('c');
  });

  it('refuses bytes that are not a PDF with a reason', async () => {
    await expect(extractPdfText(Buffer.from('%PDF-1.4\nthis is not really a pdf'), 1000)).rejects.toBeInstanceOf(UnreadablePdf);
  });
});
