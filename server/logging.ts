import { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

/**
 * What the request log may show of a URL: the path, and of the query only the names, plus values
 * that are plain numbers (page, count, ids). Query values carry what must never reach a log: search
 * words and note text, invitation and OAuth tokens (/join?token=, /oauth/authorize?state=).
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const shown = [...params].map(([name, value]) => `${encodeURIComponent(name)}=${/^\d{1,20}$/.test(value) ? value : '…'}`);
  return `${url.slice(0, q)}?${shown.join('&')}`;
}

/**
 * Fastify's request serializer without the parts that may hold secrets: no headers (Authorization,
 * Cookie), the URL through loggableUrl; the client address as the server sees it (behind a trusted
 * proxy, the forwarded one).
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip };
  },
};

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that the readable line shows in its own place. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime']);

/** One JSON log line as a line for a person: time, level, what happened, then any other fields. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return `${json}\n`;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toISOString().slice(11, 23);
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const req = entry.req as { method?: string; url?: string; remoteAddress?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  let text: string;
  if (res && typeof entry.responseTime === 'number') {
    // "request completed": the one line a request gets here.
    text = `${res.statusCode} ${entry.responseTime.toFixed(1)} ms`;
  } else if (req) {
    text = `${req.method} ${req.url} from ${req.remoteAddress}`;
  } else {
    text = String(entry.msg ?? '');
  }
  const id = entry.reqId ? ` [${String(entry.reqId)}]` : '';
  const rest = Object.entries(entry)
    .filter(([k]) => !SHOWN.has(k))
    .map(([k, v]) => {
      if (k === 'err' && v && typeof v === 'object') return `\n    ${(v as { stack?: string; message?: string }).stack ?? (v as { message?: string }).message}`;
      return ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
    })
    .join('');
  return `${time} ${level}${id} ${text}${rest}\n`;
}

/** A stream pino writes JSON lines into and that writes them readable to `out` (a terminal). */
export function prettyStream(out: { write(text: string): unknown } = process.stdout): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const text = lines.filter(Boolean).map(prettyLine).join('');
      if (text) out.write(text);
      done();
    },
  });
}
