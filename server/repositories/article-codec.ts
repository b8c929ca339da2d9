import { promisify } from 'node:util';
import zlib from 'node:zlib';

const compress = promisify(zlib.brotliCompress);
const decompress = promisify(zlib.brotliDecompress);

/** Between the html and the text in one packed article (neither holds it: DOMPurify and the text walk drop NUL). */
const SEPARATOR = '\u0000';

/**
 * Packs text with brotli at a middle quality: prose to about 40 % of its size at a few milliseconds
 * a page. Runs on libuv's thread pool, so a megabyte of text never holds up the event loop.
 */
async function packText(text: string): Promise<Buffer | null> {
  if (text === '') return null;
  const raw = Buffer.from(text, 'utf8');
  return compress(raw, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/** Packed sizes up to this are unpacked on the spot: a thread-pool round trip costs more than the work. */
const UNPACK_INLINE_MAX = 16 * 1024;

/** The text `packText` stored; '' for none. */
async function unpackText(packed: Buffer | Uint8Array | null): Promise<string> {
  if (!packed || packed.length === 0) return '';
  if (packed.length <= UNPACK_INLINE_MAX) return zlib.brotliDecompressSync(packed).toString('utf8');
  return (await decompress(packed)).toString('utf8');
}

/**
 * An article's html and text in one brotli stream, for a store that keeps both packed (SQLite):
 * the text repeats the html's words, and within one stream it costs little more than its tags'
 * worth (about half of packing the two apart).
 */
export function packArticle(html: string, text: string): Promise<Buffer | null> {
  return html === '' && text === '' ? Promise.resolve(null) : packText(html.replaceAll(SEPARATOR, '') + SEPARATOR + text);
}

export async function unpackArticle(packed: Buffer | Uint8Array | null): Promise<{ html: string; text: string }> {
  const both = await unpackText(packed);
  const at = both.indexOf(SEPARATOR);
  return at < 0 ? { html: both, text: '' } : { html: both.slice(0, at), text: both.slice(at + 1) };
}

const deflate = promisify(zlib.deflateRaw);
const inflate = promisify(zlib.inflateRaw);

/** The most of a text deflate can look back into: its window. */
const DICTIONARY_MAX = 32 * 1024;

/** The text as deflate's preset dictionary: its start, where the html's first references to it point. */
function dictionary(text: string): Buffer {
  return Buffer.from(text, 'utf8').subarray(0, DICTIONARY_MAX);
}

/**
 * Packs an article's html for a store that keeps its text apart (PostgreSQL): deflated with the
 * text as a preset dictionary, the html's runs of text become references to it, so the html costs
 * little more than its markup (a sixth to a quarter of brotli on the html alone). Past about 30 KB
 * of text and html together the window no longer reaches the text, and the rest packs as plain
 * deflate does. Unpacking needs the same text.
 */
export async function packHtml(html: string, text: string): Promise<Buffer | null> {
  if (html === '') return null;
  return deflate(Buffer.from(html, 'utf8'), { level: 9, memLevel: 9, dictionary: dictionary(text) });
}

/** The html `packHtml` stored with this `text`; '' for none. */
export async function unpackHtml(packed: Buffer | Uint8Array | null, text: string): Promise<string> {
  if (!packed || packed.length === 0) return '';
  return (await inflate(packed, { dictionary: dictionary(text) })).toString('utf8');
}
