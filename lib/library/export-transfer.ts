// An export file on its way from the background to the library page, in pieces over a port: the
// background passes the server's streamed answer on as it arrives (never the whole file at once,
// and no message near the browser's size limit), and the page gathers the pieces into a Blob.
// Pure: the ports are the caller's.

/** The port's name (runtime.connect from the library page). */
export const EXPORT_PORT = 'tidemark-library-export';

/** Characters per piece the background sends. */
export const EXPORT_PIECE_CHARS = 1 << 20;

/** What the background posts on the port, in this order: start, pieces, then end or error. */
export type ExportPortMessage =
  | { kind: 'start'; name: string; type: string }
  | { kind: 'piece'; text: string }
  | { kind: 'end'; chars: number }
  | { kind: 'error'; message: string };

/** Splits `text` into pieces of at most `size` characters, never between the two halves of a surrogate pair. */
export function* pieces(text: string, size = EXPORT_PIECE_CHARS): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * Gathers the pieces into a Blob. Text is handed to a Blob every few megabytes, so the page's own
 * memory holds a few pieces at most (browsers keep Blob data outside the script's heap).
 */
export class ExportAssembler {
  private blobs: Blob[] = [];
  private waiting: string[] = [];
  private waitingChars = 0;
  private received = 0;
  file: { name: string; type: string } | null = null;

  constructor(private readonly flushChars = 8 * EXPORT_PIECE_CHARS) {}

  /** Takes one message; the finished file when it was the end, else null. Throws on an error or out of order. */
  take(m: ExportPortMessage): { name: string; blob: Blob } | null {
    switch (m.kind) {
      case 'start':
        this.file = { name: m.name, type: m.type };
        return null;
      case 'piece':
        if (!this.file) throw new Error('The export arrived without its start.');
        this.waiting.push(m.text);
        this.waitingChars += m.text.length;
        this.received += m.text.length;
        if (this.waitingChars >= this.flushChars) this.flush();
        return null;
      case 'end':
        if (!this.file) throw new Error('The export arrived without its start.');
        if (m.chars !== this.received) throw new Error(`The export arrived incomplete (${this.received} of ${m.chars} characters). Try again.`);
        this.flush();
        return { name: this.file.name, blob: new Blob(this.blobs, { type: this.file.type }) };
      case 'error':
        throw new Error(m.message);
    }
  }

  private flush() {
    if (!this.waiting.length) return;
    this.blobs.push(new Blob(this.waiting));
    this.waiting = [];
    this.waitingChars = 0;
  }
}
