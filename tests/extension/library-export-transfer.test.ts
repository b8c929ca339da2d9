// An export file crosses from the background to the library page in pieces: the file the page
// saves is exactly the server's, whatever its size and characters, and a broken transfer is never
// saved as if it were whole.
import { describe, expect, it } from 'vitest';
import { ExportAssembler, pieces, type ExportPortMessage } from '../../lib/library/export-transfer.js';

const send = (text: string, size: number, flushChars: number) => {
  const file = new ExportAssembler(flushChars);
  const messages: ExportPortMessage[] = [{ kind: 'start', name: 'x.md', type: 'text/markdown' }, ...[...pieces(text, size)].map((t) => ({ kind: 'piece' as const, text: t })), { kind: 'end', chars: text.length }];
  let out: { name: string; blob: Blob } | null = null;
  for (const m of messages) out = file.take(m) ?? out;
  return out!;
};

describe('export pieces', () => {
  it('never cuts a character made of two UTF-16 units in half', () => {
    const text = 'ab😀cd😀😀e';
    for (let size = 2; size <= 6; size++) {
      const parts = [...pieces(text, size)];
      expect(parts.join('')).toBe(text);
      for (const p of parts) expect(p).toBe(Buffer.from(p, 'utf8').toString('utf8')); // no lone surrogate
    }
  });

  it('the gathered file is byte for byte the text sent, through pieces and intermediate Blobs', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => `- [Seite ${i} — “tides” & <moons>](https://example.test/${i}) 😀\n`).join('');
    for (const [size, flush] of [[1 << 20, 8 << 20], [997, 5000], [64, 64]] as const) {
      const { name, blob } = send(text, size, flush);
      expect(name).toBe('x.md');
      expect(blob.type).toBe('text/markdown');
      expect(await blob.text()).toBe(text);
      expect(blob.size).toBe(Buffer.byteLength(text));
    }
    expect(await send('', 10, 10).blob.text()).toBe('');
  });

  it('refuses a transfer that is short, out of order or failed, with words for the user', () => {
    const file = new ExportAssembler();
    expect(() => file.take({ kind: 'piece', text: 'x' })).toThrow(/without its start/);
    file.take({ kind: 'start', name: 'a.csv', type: 'text/csv' });
    file.take({ kind: 'piece', text: 'abc' });
    expect(() => file.take({ kind: 'end', chars: 10 })).toThrow('The export arrived incomplete (3 of 10 characters). Try again.');
    expect(() => new ExportAssembler().take({ kind: 'error', message: 'Could not reach the Tidemark server.' })).toThrow('Could not reach the Tidemark server.');
  });
});
