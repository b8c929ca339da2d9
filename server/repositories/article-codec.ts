import { promisify } from 'node:util';
import zlib from 'node:zlib';

const compress = promisify(zlib.brotliCompress);
const decompress = promisify(zlib.brotliDecompress);

/**
 * How a page's html and text are stored on both backends: brotli at a middle quality, which keeps
 * prose to about a quarter of its size at a few milliseconds per page. Runs on libuv's thread
 * pool, so a megabyte of text never holds up the event loop.
 */
export async function packText(text: string): Promise<Buffer | null> {
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

/** The text `packText` stored; '' for none. */
export async function unpackText(packed: Buffer | Uint8Array | null): Promise<string> {
  if (!packed || packed.length === 0) return '';
  return (await decompress(packed)).toString('utf8');
}
