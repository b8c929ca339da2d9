import pg from 'pg';

// bigint columns (ids, epoch milliseconds, byte counts) as JavaScript numbers, as SQLite gives them:
// every value Tidemark stores is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** PostgreSQL could not be reached or refused us: the message names the server and what to check. */
export class DatabaseUnreachableError extends Error {}

/** `host:port/database` of a connection URL, without the password, for messages. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return 'the configured server';
  }
}

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** Turns a connection failure into words a person can act on. */
function explainConnectError(url: string, err: unknown): DatabaseUnreachableError {
  const where = describeDatabaseUrl(url);
  const e = err as { code?: string; message?: string };
  let what: string;
  switch (e.code) {
    case 'ECONNREFUSED':
      what = 'nothing is listening there. Check that PostgreSQL is running, and the host and port in the URL';
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      what = 'the host name does not resolve. Check the host in the URL';
      break;
    case 'ETIMEDOUT':
      what = 'the connection timed out. Check the host, port and any firewall between here and the server';
      break;
    case '28P01':
    case '28000':
      what = 'the server refused the user name or password. Check the credentials in the URL and pg_hba.conf';
      break;
    case '3D000':
      what = 'that database does not exist. Create it first (createdb) or fix its name in the URL';
      break;
    default:
      what = `${e.message ?? String(err)}. Check that PostgreSQL is running and the URL is right`;
  }
  return new DatabaseUnreachableError(`Cannot connect to PostgreSQL at ${where}: ${what}.`);
}

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** SQLSTATEs of a server going away or not taking connections: shutdown, crash, starting up, too many clients. */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);
/** What the driver says when a connection ends under a query or cannot be made in time. */
const DRIVER_MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/, /connection error and is not queryable/, /Client was closed and is not queryable/];

/**
 * True when `err` means the server cannot be reached right now (as opposed to a wrong query): the
 * pool drops broken connections and opens new ones once the server is back.
 */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_GONE.has(e.code) || e.code.startsWith('08'))) return true;
  return typeof e.message === 'string' && DRIVER_MESSAGES.some((re) => re.test(e.message as string));
}

/** A pool on `url`, after one successful round trip (so a wrong URL fails here, clearly). */
export async function connectPool(url: string, opts: { max?: number; connectTimeoutMs?: number } = {}): Promise<pg.Pool> {
  // Idle connections stay open for ten minutes (pg's default closes them after 10 s): a new
  // PostgreSQL backend answers its first few dozen queries several times slower while its caches
  // fill, so closing after every short pause in traffic made the next searches pay that again.
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 10 * 60_000,
  });
  // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {
    /* the broken client is dropped by the pool; the next query opens a new connection */
  });
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    // The connection error is the one to report; closing a pool that never connected may fail too.
    await pool.end().catch(() => undefined);
    throw explainConnectError(url, err);
  }
  return pool;
}
