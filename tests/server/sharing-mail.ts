// Reading invitation emails in tests: a small MIME reader (headers, multipart, quoted-printable and
// base64 bodies), the outbox folder of the dev mailer, and the join link inside a message.
import fs from 'node:fs';
import path from 'node:path';

export interface ReadMessage {
  headers: Record<string, string>;
  text: string;
  html?: string;
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const norm = raw.replace(/\r\n/g, '\n');
  const cut = norm.indexOf('\n\n');
  const head = cut === -1 ? norm : norm.slice(0, cut);
  const body = cut === -1 ? '' : norm.slice(cut + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodeBody(body: string, encoding = '7bit'): string {
  switch (encoding.toLowerCase()) {
    case 'quoted-printable': {
      const bytes = body
        .replace(/=\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    }
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** Decodes a MIME header's encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _cs: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
    );
}

/** Reads an RFC 5322 message as sent by nodemailer: its headers and its text (and HTML) part. */
export function readMessage(raw: string): ReadMessage {
  const { headers, body } = splitHead(raw);
  for (const k of Object.keys(headers)) headers[k] = decodeHeader(headers[k]);
  const type = headers['content-type'] ?? 'text/plain';
  const out: ReadMessage = { headers, text: '' };
  const visit = (contentType: string, encoding: string | undefined, content: string) => {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (/^multipart\//i.test(contentType) && boundary) {
      const parts = content.split(`--${boundary}`).slice(1);
      for (const part of parts) {
        if (part.startsWith('--')) break;
        const p = splitHead(part.replace(/^\n/, ''));
        visit(p.headers['content-type'] ?? 'text/plain', p.headers['content-transfer-encoding'], p.body.replace(/\n$/, ''));
      }
    } else if (/^text\/html/i.test(contentType)) out.html = decodeBody(content, encoding);
    else if (/^text\/plain/i.test(contentType)) out.text = decodeBody(content, encoding);
  };
  visit(type, headers['content-transfer-encoding'], body);
  return out;
}

/** The join link in an invitation's text: its URL, collection id and token. */
export function joinLinkIn(text: string): { url: string; collectionId: number; token: string } {
  const match = /(https?:\/\/\S+\/join\?\S+)/.exec(text);
  if (!match) throw new Error(`no join link in the message:\n${text}`);
  const url = new URL(match[1]);
  return { url: match[1], collectionId: Number(url.searchParams.get('collection')), token: url.searchParams.get('token')! };
}

/** Messages the dev mailer wrote to `<dataDir>/outbox/`, oldest first. */
export function outbox(dataDir: string): (ReadMessage & { file: string })[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => ({ file: path.join(dir, f), ...readMessage(fs.readFileSync(path.join(dir, f), 'utf8')) }));
}

/** The newest outbox message to `email`. */
export function lastMailTo(dataDir: string, email: string): ReadMessage & { file: string } {
  const mine = outbox(dataDir).filter((m) => (m.headers.to ?? '').toLowerCase().includes(email.toLowerCase()));
  if (mine.length === 0) throw new Error(`no mail to ${email} in the outbox`);
  return mine[mine.length - 1];
}
