import { Parser } from 'htmlparser2';

/** How far into the body a <meta charset> is looked for (the HTML standard says 1024 bytes; be lenient). */
const PRESCAN_BYTES = 4096;

/**
 * Decodes an HTML body to text: a byte-order mark wins, then the charset of the Content-Type
 * header, then a <meta charset> / <meta http-equiv="Content-Type"> near the start, else UTF-8.
 * Unknown charset names fall back to UTF-8.
 */
export function decodeHtml(body: Buffer, contentTypeHeader = ''): string {
  return decodeBody(body, () => charsetParam(contentTypeHeader) ?? metaCharset(body.subarray(0, PRESCAN_BYTES)) ?? 'utf-8');
}

/** Decodes another text body (a stylesheet): a byte-order mark wins, then the Content-Type's charset, else UTF-8. */
export function decodeText(body: Buffer, contentTypeHeader = ''): string {
  return decodeBody(body, () => charsetParam(contentTypeHeader) ?? 'utf-8');
}

/** A byte-order mark wins over the declared charset, which is looked for only without one. */
function decodeBody(body: Buffer, declared: () => string): string {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(body.subarray(3));
  }
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return new TextDecoder('utf-16le').decode(body.subarray(2));
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return new TextDecoder('utf-16be').decode(body.subarray(2));
  return decoderFor(declared()).decode(body);
}

function decoderFor(label: string): TextDecoder {
  try {
    const decoder = new TextDecoder(label.trim().toLowerCase());
    // a page that declares UTF-16 in a meta tag but has no byte-order mark is really ASCII-compatible
    return decoder.encoding.startsWith('utf-16') ? new TextDecoder('utf-8') : decoder;
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** The charset parameter of a Content-Type value ("text/html; charset=ISO-8859-1"). */
function charsetParam(contentType: string): string | null {
  for (const part of contentType.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = part.slice(eq + 1).trim().replace(/^["']|["']$/g, '');
    if (value) return value;
  }
  return null;
}

/** Reads the start of the page with an HTML parser (as Latin-1, so no byte is lost) for a declared charset. */
function metaCharset(prefix: Buffer): string | null {
  let found: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (found || name !== 'meta') return;
        if (attribs.charset) {
          found = attribs.charset;
        } else if ((attribs['http-equiv'] ?? '').toLowerCase() === 'content-type' && attribs.content) {
          found = charsetParam(attribs.content);
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(prefix.toString('latin1'));
  parser.end();
  return found;
}
