import type { BookmarkType } from '../../../lib/api/constants.js';

// What an uploaded file is, decided from its first bytes (magic numbers), never from the name
// or the Content-Type the client claimed. The name only refines a container (a ZIP that is a
// .docx) or names the kind of a plain-text file.

interface SniffedType {
  mime: string;
  /** the bookmark type a file of this kind gets */
  type: BookmarkType;
}

/** Cover formats the contract allows. */
export const COVER_MIME_TYPES = new Set(['image/png', 'image/gif', 'image/jpeg']);

const ZIP_BY_EXTENSION: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
};

const TEXT_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
};

function startsWith(head: Buffer, bytes: number[], offset = 0): boolean {
  if (head.length < offset + bytes.length) return false;
  return bytes.every((b, i) => head[offset + i] === b);
}

function ascii(head: Buffer, offset: number, text: string): boolean {
  return head.length >= offset + text.length && head.toString('latin1', offset, offset + text.length) === text;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Whether the bytes read as text: no NUL bytes and valid UTF-8 (a cut multi-byte character at the end is fine). */
function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 3)));
    return true;
  } catch {
    return false;
  }
}

/** HTML, SVG or XML: text a browser would run scripts in if served inline. */
function looksLikeMarkup(head: Buffer): string | null {
  const start = head.toString('utf8', 0, Math.min(head.length, 1024)).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head') || start.startsWith('<body')) return 'text/html';
  if (start.startsWith('<svg') || (start.startsWith('<?xml') && start.includes('<svg'))) return 'image/svg+xml';
  if (start.startsWith('<?xml')) return 'application/xml';
  if (start.startsWith('<')) return 'text/html';
  return null;
}

/** The type of a file from its first bytes (a few KB) and, for containers and text, its name. */
export function sniffFile(head: Buffer, name = ''): SniffedType {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', type: 'image' };
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return { mime: 'image/gif', type: 'image' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', type: 'image' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return { mime: 'image/webp', type: 'image' };
  if (ascii(head, 0, 'BM') && head.length > 14) return { mime: 'image/bmp', type: 'image' };
  if (ascii(head, 0, '%PDF-')) return { mime: 'application/pdf', type: 'document' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return { mime: 'audio/wav', type: 'audio' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')) return { mime: 'video/x-msvideo', type: 'video' };
  if (ascii(head, 0, 'OggS')) return { mime: 'audio/ogg', type: 'audio' };
  if (ascii(head, 0, 'fLaC')) return { mime: 'audio/flac', type: 'audio' };
  if (ascii(head, 0, 'ID3') || (head.length > 1 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0)) return { mime: 'audio/mpeg', type: 'audio' };
  if (ascii(head, 4, 'ftyp')) {
    const brand = head.toString('latin1', 8, 12);
    if (brand.startsWith('M4A') || brand.startsWith('M4B')) return { mime: 'audio/mp4', type: 'audio' };
    if (brand === 'qt  ') return { mime: 'video/quicktime', type: 'video' };
    if (brand.startsWith('avif') || brand.startsWith('heic') || brand.startsWith('mif1')) return { mime: 'application/octet-stream', type: 'document' };
    return { mime: 'video/mp4', type: 'video' };
  }
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return { mime: 'video/webm', type: 'video' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    return { mime: ZIP_BY_EXTENSION[extensionOf(name)] ?? 'application/zip', type: 'document' };
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const ext = extensionOf(name);
    const mime = ext === 'xls' ? 'application/vnd.ms-excel' : ext === 'ppt' ? 'application/vnd.ms-powerpoint' : 'application/msword';
    return { mime, type: 'document' };
  }
  if (ascii(head, 0, '{\\rtf')) return { mime: 'application/rtf', type: 'document' };
  if (looksLikeText(head)) {
    const markup = looksLikeMarkup(head);
    if (markup) return { mime: markup, type: 'document' };
    return { mime: TEXT_BY_EXTENSION[extensionOf(name)] ?? 'text/plain', type: 'document' };
  }
  return { mime: 'application/octet-stream', type: 'document' };
}

/** Types a browser shows without running anything: served inline; everything else is a download. */
const INLINE = /^(image\/(png|gif|jpeg|webp|bmp)|application\/pdf|audio\/.+|video\/.+|text\/(plain|csv|markdown)|application\/json)$/;

export function servedInline(mime: string): boolean {
  return INLINE.test(mime);
}
