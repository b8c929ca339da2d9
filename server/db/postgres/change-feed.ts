import pg from 'pg';
import type { CacheSignal } from '../read-cache.js';

/** The channel the change triggers notify (migration 0009), with the changed table as payload. */
const CHANGES_CHANNEL = 'tidemark_changes';

/**
 * SQL starting with this comment writes nothing a read cache holds (the rate-limit windows): it
 * does not empty this instance's caches.
 */
export const CACHE_NEUTRAL = '/* cache-neutral */';

/** How often the LISTEN connection proves it is alive. */
const HEARTBEAT_MS = 250;
/**
 * Caches are used only while the last heartbeat answered was sent less than this long ago. A
 * heartbeat's answer comes after every notification committed before it was sent (same
 * connection, in order), so a cached value is never older than this plus the time a
 * notification takes to arrive: the 1 s the issue allows, with room for a loaded machine.
 */
const PROVEN_FOR_MS = 800;
/** A heartbeat unanswered this long means the connection is dead though no error came: it is replaced. */
const GIVE_UP_MS = 5000;
/** Pauses between attempts to get the LISTEN connection back. */
const RECONNECT_MS = [100, 250, 500, 1000, 2000, 5000];

type Patched = pg.PoolClient & { [PATCHED]?: true };
const PATCHED = Symbol('tidemark.cachePatched');

/** Command tags of statements that change rows. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TRUNCATE', 'COPY']);

/**
 * Tells the PostgreSQL read caches of this instance when what they hold may have changed.
 *
 * - Another instance's commits: triggers on the cached tables (migration 0009) `pg_notify` the
 *   table's name in the writing transaction, so PostgreSQL delivers it at commit, to every
 *   instance's LISTEN connection (this class keeps one, outside the pool). Each table has its own
 *   generation, so a bookmark write does not empty the token cache.
 * - This instance's own writes: a write through the pool moves the local generation as soon as it
 *   is committed (a statement outside a transaction when it answers; inside one, at COMMIT), before
 *   the request that wrote answers, so the next request here reads its own write.
 * - The LISTEN connection lost, or silent for PROVEN_FOR_MS: `usable()` is false (caches are
 *   emptied and not used) until it is connected, listening and answering again; coming back moves
 *   the generation, since notifications may have been missed meanwhile.
 */
export class PgChangeFeed {
  private readonly tables = new Map<string, number>();
  private local = 0;
  private epoch = 0;
  private client: pg.Client | null = null;
  private listening = false;
  private provenAt = 0;
  private heartbeatInFlight = false;
  private heartbeatSentAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private attempts = 0;
  private closed = false;
  private warn: (message: string) => void = () => undefined;
  private lostReported = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connection: pg.ClientConfig,
  ) {
    // Every client the pool hands out reports its writes (pool.query checks clients out too).
    pool.on('acquire', (client) => this.watch(client as Patched));
  }

  /** Connects the LISTEN connection; resolves once it listens (or after the first failure, retrying in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Where losing and regaining the notifications is reported (the server's log). */
  reportTo(warn: (message: string) => void): void {
    this.warn = warn;
  }

  /** A signal for a cache whose values come from `tables`. */
  signal(tables: string[]): CacheSignal {
    for (const t of tables) if (!this.tables.has(t)) this.tables.set(t, 0);
    return {
      generation: () => {
        let g = this.local + this.epoch;
        for (const t of tables) g += this.tables.get(t) ?? 0;
        return g;
      },
      usable: () => this.usable(),
    };
  }

  /** True while notifications are known to arrive (see the class comment). */
  usable(): boolean {
    return this.listening && Date.now() - this.provenAt < PROVEN_FOR_MS;
  }

  /** The server process of the LISTEN connection (null while there is none), for tests that cut it. */
  listenerPid(): number | null {
    return this.listening ? ((this.client as unknown as { processID?: number } | null)?.processID ?? null) : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopTimer();
    this.lost();
    const client = this.client;
    this.client = null;
    // Closing a connection that already broke may fail; it is gone either way.
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.connection);
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.channel !== CHANGES_CHANNEL) return;
      const table = msg.payload ?? '';
      this.tables.set(table, (this.tables.get(table) ?? 0) + 1);
    });
    client.on('error', (err) => this.drop(client, err));
    client.on('end', () => this.drop(client, new Error('the connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      this.drop(client, err as Error);
      return;
    }
    if (this.client !== client || this.closed) return;
    // Anything may have changed while nobody listened.
    this.epoch++;
    this.attempts = 0;
    this.listening = true;
    this.provenAt = Date.now();
    if (this.lostReported) this.warn('PostgreSQL change notifications are back: read caches are on again');
    this.lostReported = false;
    this.stopTimer();
    this.heartbeatInFlight = false; // a heartbeat of a dropped connection may never answer
    this.timer = setInterval(() => this.heartbeat(client), HEARTBEAT_MS);
    this.timer.unref();
  }

  private heartbeat(client: pg.Client): void {
    if (this.heartbeatInFlight) {
      if (Date.now() - this.heartbeatSentAt > GIVE_UP_MS) this.drop(client, new Error(`no answer to a heartbeat in ${GIVE_UP_MS / 1000} s`));
      return;
    }
    this.heartbeatInFlight = true;
    const sent = Date.now();
    this.heartbeatSentAt = sent;
    client
      .query('SELECT 1')
      .then(() => {
        if (this.client === client) this.provenAt = Math.max(this.provenAt, sent);
      })
      .catch((err: Error) => this.drop(client, err))
      .finally(() => {
        if (this.client === client) this.heartbeatInFlight = false;
      });
  }

  /** The LISTEN connection failed: caches off, and a new connection after a pause. */
  private drop(client: pg.Client, err: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.lost();
    this.stopTimer();
    // The broken client may still hold a socket; ending it can fail, which changes nothing.
    client.end().catch(() => undefined);
    if (this.closed) return;
    if (!this.lostReported) {
      this.lostReported = true;
      this.warn(`PostgreSQL change notifications lost (${err.message}): read caches are off until they are back`);
    }
    const pause = RECONNECT_MS[Math.min(this.attempts++, RECONNECT_MS.length - 1)];
    const retry = setTimeout(() => void this.connect(), pause);
    retry.unref();
  }

  private lost(): void {
    this.listening = false;
    this.epoch++;
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Wraps a pool client's `query` once, so its committed writes move the local generation. */
  private watch(client: Patched): void {
    if (client[PATCHED]) return;
    client[PATCHED] = true;
    let inTransaction = false;
    let wrote = false;
    const seen = (text: unknown, result: pg.QueryResult | pg.QueryResult[] | undefined) => {
      const results = Array.isArray(result) ? result : result ? [result] : [];
      for (const r of results) {
        const command = r.command;
        if (command === 'BEGIN') {
          inTransaction = true;
          wrote = false;
        } else if (command === 'COMMIT' || command === 'ROLLBACK') {
          if (command === 'COMMIT' && wrote) this.local++;
          inTransaction = false;
          wrote = false;
        } else if (WRITES.has(command) || (command === 'SELECT' && typeof text === 'string' && /\b(INSERT|UPDATE|DELETE)\b/i.test(text))) {
          if (typeof text === 'string' && text.startsWith(CACHE_NEUTRAL)) continue;
          if (inTransaction) wrote = true;
          else this.local++;
        }
      }
    };
    // A statement that failed (a COMMIT cut off by a lost connection may or may not have landed):
    // counted as a write, which costs at most a refill of the caches.
    const failed = () => {
      this.local++;
    };
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as { text?: string; submit?: unknown } | string;
      // Cursors and other submittables are reads here; they pass through untouched.
      if (typeof first === 'object' && first !== null && typeof first.submit === 'function') return original(...args);
      const text = typeof first === 'string' ? first : first?.text;
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        const callback = last as (err: Error | null, res?: pg.QueryResult) => void;
        args[args.length - 1] = (err: Error | null, res?: pg.QueryResult) => {
          if (err) failed();
          else seen(text, res);
          callback(err, res);
        };
        return original(...args);
      }
      return (original(...args) as Promise<pg.QueryResult>).then(
        (res) => {
          seen(text, res);
          return res;
        },
        (err: unknown) => {
          failed();
          throw err;
        },
      );
    };
  }
}
