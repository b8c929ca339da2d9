// The server suite's log. In a run with tests/setup/suite-log.ts (both server lanes), every server a
// test starts through tests/helpers/server.ts writes its log at level info, as `serve` does, into
// files of its own, and records beside it the secrets its requests and answers carried: bearer
// tokens, cookies, passwords, CSRF values, OAuth codes and states, invitation tokens, note and
// highlight text, search words. When the run ends, the setup's teardown looks for each server's
// secrets in each of its log lines (findLeaks below) and fails the run on any: the log of the whole
// suite run, not only of the tests written about logging.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import pino from 'pino';

/** Set by tests/setup/suite-log.ts for the run's workers; unset elsewhere (Playwright, benches): no log. */
export const SUITE_LOG_ENV = 'TEST_SUITE_LOG_DIR';

/** Shorter values are too common to find in a line by chance only (and no real secret is that short). */
const MIN_SECRET_LENGTH = 8;
/** Field names (in a body, a query or a JSON answer) whose values must never reach a log line. */
const SECRET_FIELD = /pass|token|secret|csrf|^code$|code_verifier|^state$|^note$|^text$|^search$|^q$/i;

interface Recorder {
  /** A secret the server received or answered. */
  record(value: unknown, from: string): void;
  /** A value the server received in a field that is not secret (a URL, a title). */
  plain(value: unknown): void;
}

let seq = 0;

function openRecorder(base: string): Recorder {
  const seen = new Set<string>();
  const write = (file: string, value: unknown, from?: string) => {
    if (typeof value !== 'string') return;
    const v = value.trim();
    const key = `${file}\n${v}`;
    if (v.length < MIN_SECRET_LENGTH || /^[\d.]+$/.test(v) || seen.has(key)) return;
    seen.add(key);
    fs.appendFileSync(`${base}.${file}`, `${JSON.stringify(from ? { v, from } : { v })}\n`);
  };
  return { record: (value, from) => write('secrets', value, from), plain: (value) => write('plain', value) };
}

/**
 * One server's part of the run's log: where its log lines go, and `attach`, which records the secrets
 * of every request it answers (call before it listens). Undefined
 * outside a run with the check (then tests keep the server silent).
 */
export function openServerLog(): { destination: pino.DestinationStream; attach(app: FastifyInstance): void } | undefined {
  const dir = process.env[SUITE_LOG_ENV];
  if (!dir) return undefined;
  // One set of files per server: a value one test sends as a password and another as a page address is not a leak.
  const base = path.join(dir, `${process.pid}-${++seq}`);
  // Synchronous writes: a worker process can end without flushing a buffer. Left open when the server
  // closes: a pool's idle connection can still report an error after that (its database dropped by the
  // test), and the server's handler logs it; a closed stream would throw instead. Its file closes
  // with the worker process.
  const destination = pino.destination({ dest: `${base}.log`, sync: true, append: true });
  const rec = openRecorder(base);
  return {
    destination,
    attach(app) {
      recordSecrets(app, rec);
    },
  };
}


function fields(value: unknown, from: string, rec: Recorder, depth = 0): void {
  if (!value || typeof value !== 'object' || depth > 6) return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') {
      if (SECRET_FIELD.test(key)) rec.record(v, `${from} field ${key}`);
      else rec.plain(v);
    } else fields(v, from, rec, depth + 1);
  }
}

function recordUrl(url: string, from: string, rec: Recorder): void {
  const q = url.indexOf('?');
  if (q < 0) return;
  for (const [key, v] of new URLSearchParams(url.slice(q + 1).split('#')[0])) {
    if (SECRET_FIELD.test(key)) rec.record(v, `${from} query ${key}`);
    else rec.plain(v);
  }
}

function recordCookies(header: string | string[] | undefined, from: string, rec: Recorder): void {
  for (const line of [header ?? []].flat()) {
    // Cookie: a=1; b=2. Set-Cookie: a=1; Path=/; HttpOnly (the first pair is the cookie).
    const pairs = from.includes('set-cookie') ? [line.split(';')[0]!] : line.split(';');
    for (const pair of pairs) rec.record(decodeURIComponent(pair.slice(pair.indexOf('=') + 1)), from);
  }
}

function recordAuthorization(header: string | undefined, from: string, rec: Recorder): void {
  if (!header) return;
  const [scheme, credentials = ''] = header.split(/\s+/, 2);
  rec.record(credentials, from);
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    for (const part of decoded.split(':')) rec.record(decodeURIComponent(part), from);
  }
}

/** Hooks of the test helper, not of the server: what they see is what a client sent and received. */
function recordSecrets(app: FastifyInstance, rec: Recorder): void {
  const where = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
  app.addHook('onRequest', (request, _reply, done) => {
    const from = where(request);
    recordAuthorization(request.headers.authorization, `${from} authorization`, rec);
    recordCookies(request.headers.cookie, `${from} cookie`, rec);
    recordUrl(request.url, from, rec);
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    fields(request.body, `${where(request)} body`, rec);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const from = `${where(request)} answer`;
    recordCookies(reply.getHeader('set-cookie') as string | string[] | undefined, `${from} set-cookie`, rec);
    const location = reply.getHeader('location');
    if (typeof location === 'string') recordUrl(location, `${from} location`, rec);
    const type = String(reply.getHeader('content-type') ?? '');
    if (typeof payload === 'string' && type.startsWith('application/json') && payload.length < 1_000_000) {
      try {
        fields(JSON.parse(payload), from, { record: rec.record, plain: () => undefined });
      } catch {
        /* not JSON after all: nothing to record */
      }
    }
    done(null, payload);
  });
}

export interface Leak {
  secret: string;
  from: string;
  line: string;
}

/** Every string a log line holds: its JSON values (and keys' values nested), or the line when it is not JSON. */
function strings(line: string, out: Set<string>): void {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    out.add(line);
    return;
  }
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(entry);
}

/**
 * The log lines that hold a secret. Each distinct string of the log is searched once, for every
 * secret at once (by the secrets' first characters), so a run's many thousand lines and secrets
 * take a moment.
 */
export function findLeaks(lines: string[], secrets: { v: string; from: string }[]): Leak[] {
  const byPrefix = new Map<string, { v: string; from: string }[]>();
  for (const s of secrets) {
    if (s.v.length < MIN_SECRET_LENGTH) continue;
    const key = s.v.slice(0, MIN_SECRET_LENGTH);
    byPrefix.set(key, [...(byPrefix.get(key) ?? []), s]);
  }
  const lineOf = new Map<string, string>();
  for (const line of lines) {
    if (!line) continue;
    const found = new Set<string>();
    strings(line, found);
    for (const s of found) if (!lineOf.has(s)) lineOf.set(s, line);
  }
  const leaks: Leak[] = [];
  for (const [text, line] of lineOf) {
    for (let i = 0; i + MIN_SECRET_LENGTH <= text.length; i++) {
      for (const s of byPrefix.get(text.slice(i, i + MIN_SECRET_LENGTH)) ?? []) {
        if (text.startsWith(s.v, i)) leaks.push({ secret: s.v, from: s.from, line });
      }
    }
  }
  return leaks;
}

export interface ServerLog {
  /** The server's log lines. */
  lines: string[];
  /** The secrets it received or answered, less those it also received as a plain value (a fuzz test's string sent as a password and as an address). */
  secrets: { v: string; from: string }[];
}

function readLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** Reads a run's directory: each server's log lines and the secrets to look for in them. */
export function readSuiteLog(dir: string): ServerLog[] {
  const bases = new Set((fs.existsSync(dir) ? fs.readdirSync(dir) : []).map((name) => name.replace(/\.(log|secrets|plain)$/, '')));
  return [...bases].map((base) => {
    const p = path.join(dir, base);
    const plain = readLines(`${p}.plain`).map((l) => (JSON.parse(l) as { v: string }).v);
    const secrets = readLines(`${p}.secrets`)
      .map((l) => JSON.parse(l) as { v: string; from: string })
      .filter((s) => !plain.some((v) => v.includes(s.v)));
    return { lines: readLines(`${p}.log`), secrets };
  });
}
