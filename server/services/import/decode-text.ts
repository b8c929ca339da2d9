import { ImportFormatError } from './types.js';

export const UNSUPPORTED_FILE =
  'file is not a Netscape bookmark file, Pocket export or Instapaper CSV';

const SNIFF_BYTES = 8192;

/**
 * Turns an uploaded file into text: honours UTF-8 and UTF-16 byte-order marks, otherwise reads
 * UTF-8, or Windows-1252 when the bytes are not valid UTF-8. Empty and binary files (images,
 * archives, databases) are refused with a message that says so.
 */
export function decodeImportText(buf: Buffer): string {
  if (buf.length === 0) {
    throw new ImportFormatError(`${UNSUPPORTED_FILE}: the file is empty`);
  }
  let text: string;
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) {
    text = new TextDecoder('utf-16le').decode(buf.subarray(2));
  } else if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    text = new TextDecoder('utf-16be').decode(buf.subarray(2));
  } else {
    if (looksBinary(buf)) {
      throw new ImportFormatError(
        `${UNSUPPORTED_FILE}: it holds binary data (is it a zip, image or database?). Export your bookmarks as HTML or CSV and upload that file`,
      );
    }
    const start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(start));
    } catch {
      // not valid UTF-8: older exports (Internet Explorer, old Netscape) were written in Windows-1252
      text = new TextDecoder('windows-1252').decode(buf);
    }
  }
  if (text.trim().length === 0) {
    throw new ImportFormatError(`${UNSUPPORTED_FILE}: the file holds only blank space`);
  }
  return text;
}

/** NUL bytes or many control characters in the first few KB mean this is not a text export. */
function looksBinary(buf: Buffer): boolean {
  const end = Math.min(buf.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = buf[i]!;
    if (b === 0) return true;
    // tab, LF, CR and form feed are normal in text files
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return control > end * 0.02;
}
