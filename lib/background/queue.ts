// The durable offline queue. Writes the server could not take (it was unreachable) wait in extension
// storage and are sent in order, exactly once: every write carries an Idempotency-Key the server
// honours, so a write whose answer was lost is repeated safely. State is saved after every step, so
// a stopped service worker or a browser restart loses nothing.
import { ApiClientError, type TidemarkApi } from '../api/client/index.js';
import type { Bookmark } from '../api/types.js';
import { EMPTY_QUEUE, type Account, type BookmarkRef, type FailedWrite, type QueuedWrite, type QueueState } from '../model.js';
import type { QueueView } from '../messaging/protocol.js';
import { queueItem } from '../storage/items.js';

export type NewWrite = QueuedWrite extends infer W ? (W extends QueuedWrite ? Omit<W, 'seq' | 'queuedAt' | 'attempts'> : never) : never;

export interface QueueDeps {
  api: TidemarkApi;
  account: () => Promise<Account | null>;
  now?: () => number;
  /** The queue changed (for the popup's list and the retry alarm). */
  onChange?: (view: QueueView, pending: number) => void;
  /** A queued write reached the server. `bookmark` is the server's answer (null after a delete from Trash). */
  onDelivered?: (write: QueuedWrite, bookmark: Bookmark | null, serverId: number) => void;
}

export interface DrainResult {
  sent: number;
  failed: number;
  remaining: number;
  /** Why draining stopped before the queue was empty. */
  stoppedBy?: 'network' | 'signed-out';
}

const MAX_FAILURES = 20;

export function viewOf(state: QueueState): QueueView {
  return {
    entries: state.entries.map(({ op, label, queuedAt, attempts }) => ({ op, label, queuedAt, attempts })),
    failures: state.failures,
  };
}

export class WriteQueue {
  private lock: Promise<unknown> = Promise.resolve();
  private draining: Promise<DrainResult> | null = null;
  private inFlight: number | null = null;
  private readonly now: () => number;

  constructor(private deps: QueueDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Runs `fn` on the stored state with no other change in between; saves what it returns. */
  private mutate<T>(fn: (state: QueueState) => { state: QueueState; value: T } | null): Promise<T | undefined> {
    const run = this.lock.then(async () => {
      const current = await queueItem.getValue();
      const out = fn(structuredClone(current));
      if (!out) return undefined;
      await queueItem.setValue(out.state);
      this.deps.onChange?.(viewOf(out.state), out.state.entries.length);
      return out.value;
    });
    this.lock = run.catch(() => {});
    return run;
  }

  async state(): Promise<QueueState> {
    await this.lock;
    return queueItem.getValue();
  }

  async view(): Promise<QueueView> {
    return viewOf(await this.state());
  }

  /** Writes are waiting or being sent: new writes must queue behind them to keep the order. */
  async busy(): Promise<boolean> {
    return this.draining !== null || (await this.state()).entries.length > 0;
  }

  /** The server id a local ref got once its create went through, or null while still queued. */
  async serverRef(ref: BookmarkRef): Promise<BookmarkRef> {
    if (!ref.startsWith('l:')) return ref;
    const id = (await this.state()).resolved[ref];
    return id ? (`b:${id}` as BookmarkRef) : ref;
  }

  /** The queued create of this link key, if any (reopening the popup must not create it twice). */
  async pendingCreate(matches: (link: string) => boolean): Promise<Extract<QueuedWrite, { op: 'create' }> | null> {
    const s = await this.state();
    return (s.entries.find((e) => e.op === 'create' && matches(e.body.link)) as Extract<QueuedWrite, { op: 'create' }>) ?? null;
  }

  async enqueue(write: NewWrite): Promise<void> {
    await this.mutate((state) => {
      const last = state.entries[state.entries.length - 1];
      // Consecutive edits of one bookmark become one update, unless the earlier one may already
      // have reached the server (its key names that exact request).
      if (write.op === 'update' && last?.op === 'update' && last.ref === write.ref && last.attempts === 0 && last.seq !== this.inFlight) {
        // Highlight changes add up (each entry is one add/update/remove); other fields: the later value wins.
        const highlights = last.body.highlights && write.body.highlights ? [...last.body.highlights, ...write.body.highlights] : undefined;
        last.body = { ...last.body, ...write.body, ...(highlights ? { highlights } : {}) };
        last.label = write.label;
        return { state, value: undefined };
      }
      state.entries.push({ ...write, seq: state.nextSeq++, queuedAt: this.now(), attempts: 0 } as QueuedWrite);
      return { state, value: undefined };
    });
  }

  async clear(): Promise<void> {
    await this.mutate(() => ({ state: structuredClone(EMPTY_QUEUE), value: undefined }));
  }

  async dismissFailures(): Promise<void> {
    await this.mutate((state) => ({ state: { ...state, failures: [] }, value: undefined }));
  }

  /** Sends queued writes in order until the queue is empty or the server is unreachable. One drain at a time. */
  drain(): Promise<DrainResult> {
    this.draining ??= this.doDrain().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async doDrain(): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, failed: 0, remaining: 0 };
    for (;;) {
      const state = await this.state();
      const write = state.entries[0];
      if (!write) return result;
      // From here on, later edits are not folded into this write: it may reach the server as read.
      this.inFlight = write.seq;
      result.remaining = state.entries.length;
      const account = await this.deps.account();
      if (!account) {
        this.inFlight = null;
        result.stoppedBy = 'signed-out';
        return result;
      }
      if (account.userId !== write.userId || account.serverUrl !== write.serverUrl) {
        await this.fail(write, 'It was made while signed in to another account, so it was not sent.');
        result.failed++;
        continue;
      }
      let serverId: number | null = null;
      if (write.op !== 'create') {
        const ref = write.ref.startsWith('l:') ? state.resolved[write.ref] : Number(write.ref.slice(2));
        if (!ref) {
          await this.fail(write, 'The bookmark it changes could not be saved, so the change was dropped.');
          result.failed++;
          continue;
        }
        serverId = ref;
      }
      try {
        const opts = { idempotencyKey: write.key, retries: 1 };
        let bookmark: Bookmark | null;
        if (write.op === 'create') bookmark = await this.deps.api.createBookmark(write.body, opts);
        else if (write.op === 'update') bookmark = await this.deps.api.updateBookmark(serverId!, write.body, opts);
        else bookmark = await this.deps.api.removeBookmark(serverId!, opts);
        const id = bookmark?._id ?? serverId!;
        await this.mutate((s) => {
          s.entries = s.entries.filter((e) => e.seq !== write.seq);
          if (write.op === 'create') s.resolved[write.ref] = id;
          return { state: s, value: undefined };
        });
        result.sent++;
        this.deps.onDelivered?.(write, bookmark, id);
      } catch (err) {
        if (err instanceof ApiClientError && (err.temporary || err.kind === 'unauthorized')) {
          await this.mutate((s) => {
            const e = s.entries.find((x) => x.seq === write.seq);
            if (e) e.attempts++;
            return { state: s, value: undefined };
          });
          result.stoppedBy = err.kind === 'unauthorized' ? 'signed-out' : 'network';
          result.remaining = (await this.state()).entries.length;
          return result;
        }
        await this.fail(write, (err as Error).message || 'The server refused it.');
        result.failed++;
      } finally {
        this.inFlight = null;
      }
    }
  }

  private async fail(write: QueuedWrite, message: string): Promise<void> {
    const failure: FailedWrite = { op: write.op, label: write.label, message, at: this.now() };
    await this.mutate((s) => {
      s.entries = s.entries.filter((e) => e.seq !== write.seq);
      s.failures = [...s.failures, failure].slice(-MAX_FAILURES);
      return { state: s, value: undefined };
    });
  }
}
