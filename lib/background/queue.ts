// The durable offline queue. Writes the server could not take (it was unreachable) wait in extension
// storage and are sent in order, exactly once: every write carries an Idempotency-Key the server
// honours, so a write whose answer was lost is repeated safely. State is saved after every step, so
// a stopped service worker or a browser restart loses nothing.
//
// Highlights made offline get a local key (`l:<uuid>`): their add carries it as `_local`, and later
// changes name it as `_id`. While the add has not been sent, changes are folded into it (a recolour
// or a note becomes part of the add; a delete drops the add). Once sent, changes wait as their own
// writes and the local key is replaced by the server's id when they are sent (the id is recorded in
// extension storage when the add is delivered, so this also works after a restart).
//
// Writes belong to the account they were made for: signing out keeps them, only the signed-in
// account's writes are shown and sent, and signing back in to that account sends them.
import { ApiClientError, type TidemarkApi } from '../api/client/index.js';
import type { Bookmark, BookmarkUpdate, HighlightChange } from '../api/types.js';
import { appendedUpdate, isEmptyAppend, mergeAppend } from './append.js';
import { EMPTY_QUEUE, type Account, type AppendChanges, type FailedWrite, type QueuedWrite, type QueueState } from '../model.js';
import type { BookmarkRef } from '../bookmark-ref.js';
import type { QueueView } from '../messaging/protocol.js';
import { highlightIdsItem, queueItem, type HighlightIdEntry } from '../storage/items.js';

type NewWrite = QueuedWrite extends infer W ? (W extends QueuedWrite ? Omit<W, 'seq' | 'queuedAt' | 'attempts'> : never) : never;

/** A highlight change as queued: an add made offline carries its local key as `_local`; `_id` may be a local key. */
export type QueuedHighlightChange = HighlightChange & { _local?: string };

interface EnqueueOptions {
  /**
   * The write was already sent once (an online try whose answer never came): it may have reached the
   * server under its key, so it is kept exactly as it is (nothing is folded into it) and repeated.
   */
  tried?: boolean;
}

interface QueueDeps {
  api: TidemarkApi;
  account: () => Promise<Account | null>;
  now?: () => number;
  /** The queue changed (for the popup's list and the retry alarm). */
  onChange?: (view: QueueView, pending: number) => void;
  /** A queued write reached the server. `bookmark` is the server's answer (null after a delete from Trash). */
  onDelivered?: (write: QueuedWrite, bookmark: Bookmark | null, serverId: number) => void;
  /** A queued library bulk change reached the server. */
  onBulkDelivered?: (write: Extract<QueuedWrite, { op: 'bulk' }>) => void;
}

interface DrainResult {
  sent: number;
  failed: number;
  remaining: number;
  /** Why draining stopped before the queue was empty. */
  stoppedBy?: 'network' | 'signed-out';
}

const MAX_FAILURES = 20;
/** Local highlight keys remembered after delivery (the oldest are forgotten first). */
const MAX_HIGHLIGHT_IDS = 2000;
/** Appended to a write's key when the server says the key was used for another body (see doDrain). */
const REKEY_SUFFIX = '.r';

export const isLocalKey = (key: string | undefined): key is `l:${string}` => typeof key === 'string' && key.startsWith('l:');

/** Whether a queued write was made for `account` (null: nobody is signed in, nothing is theirs). */
function isFor(write: Pick<QueuedWrite, 'userId' | 'serverUrl'>, account: Pick<Account, 'userId' | 'serverUrl'> | null): boolean {
  return !!account && write.userId === account.userId && write.serverUrl === account.serverUrl;
}

/** What the signed-in account sees: its own waiting writes, and how many wait for other accounts. */
function viewOf(state: QueueState, account: Pick<Account, 'userId' | 'serverUrl'> | null): QueueView {
  const mine = state.entries.filter((e) => isFor(e, account));
  return {
    entries: mine.map(({ op, label, queuedAt, attempts }) => ({ op, label, queuedAt, attempts })),
    failures: state.failures,
    otherAccounts: state.entries.length - mine.length,
  };
}

const highlightsOf = (body: BookmarkUpdate) => body.highlights as QueuedHighlightChange[] | undefined;
const isEmptyUpdate = (body: BookmarkUpdate) => Object.keys(body).every((k) => k === 'highlights' && !body.highlights?.length);

/** Adds `later` to `earlier`: a change of a highlight already listed is merged into it (later fields win; a delete wins). */
function mergeHighlightChanges(earlier: QueuedHighlightChange[], later: QueuedHighlightChange[]): QueuedHighlightChange[] {
  const out = earlier.map((c) => ({ ...c }));
  for (const change of later) {
    const same = change._id ? out.find((c) => c._id === change._id) : undefined;
    if (!same) out.push({ ...change });
    else if (change.text === '') out.splice(out.indexOf(same), 1, { _id: change._id, text: '' });
    else Object.assign(same, change);
  }
  return out;
}

/** The bookmark id a queued write targets, once known. */
function bookmarkIdOf(ref: BookmarkRef, state: QueueState): number | null {
  if (ref.startsWith('l:')) return state.resolved[ref] ?? null;
  return Number(ref.slice(2));
}

export class WriteQueue {
  #lock: Promise<unknown> = Promise.resolve();
  #draining: Promise<DrainResult> | null = null;
  #inFlight: number | null = null;
  readonly #now: () => number;

  readonly #deps: QueueDeps;

  constructor(deps: QueueDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** Runs `fn` on the stored state with no other change in between; saves the state it returns (if any). */
  #mutate<T>(fn: (state: QueueState, account: Account | null) => { state: QueueState | null; value: T } | null): Promise<T | undefined> {
    const run = this.#lock.then(async () => {
      const current = await queueItem.getValue();
      const account = await this.#deps.account();
      const out = fn(structuredClone(current), account);
      if (!out) return undefined;
      if (out.state) {
        await queueItem.setValue(out.state);
        const view = viewOf(out.state, account);
        this.#deps.onChange?.(view, view.entries.length);
      }
      return out.value;
    });
    // The lock goes on after a failed step; that step's caller gets its error from `run`.
    this.#lock = run.catch(() => {});
    return run;
  }

  async state(): Promise<QueueState> {
    await this.#lock;
    return queueItem.getValue();
  }

  async view(): Promise<QueueView> {
    return viewOf(await this.state(), await this.#deps.account());
  }

  /** The signed-in account's writes are waiting or being sent: its new writes must queue behind them to keep the order. */
  async busy(): Promise<boolean> {
    if (this.#draining !== null) return true;
    const [account, state] = await Promise.all([this.#deps.account(), this.state()]);
    return state.entries.some((e) => isFor(e, account));
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
    const account = await this.#deps.account();
    return (s.entries.find((e) => e.op === 'create' && isFor(e, account) && matches(e.body.link)) as Extract<QueuedWrite, { op: 'create' }>) ?? null;
  }

  /** Local highlight key -> server id, for the highlights made offline that were delivered. */
  async highlightIds(): Promise<Record<string, HighlightIdEntry>> {
    return highlightIdsItem.getValue();
  }

  /** The highlight changes still waiting for bookmark `bookmarkId`, in the order they will be sent. */
  async pendingHighlightChanges(bookmarkId: number): Promise<QueuedHighlightChange[]> {
    const s = await this.state();
    const out: QueuedHighlightChange[] = [];
    for (const e of s.entries) {
      if (e.op !== 'update' || bookmarkIdOf(e.ref, s) !== bookmarkId) continue;
      for (const c of highlightsOf(e.body) ?? []) out.push({ ...c });
    }
    return out;
  }

  /** The additions still waiting for `ref` (tags to add, a note to add) in the writes that may still change. */
  async pendingAppend(ref: BookmarkRef): Promise<AppendChanges> {
    const s = await this.state();
    const account = await this.#deps.account();
    let out: AppendChanges | undefined;
    for (const e of s.entries) {
      if (e.op === 'update' && e.ref === ref && isFor(e, account) && this.#open(e)) out = mergeAppend(out, e.append);
    }
    return out ?? {};
  }

  /** Whether an entry may still change: never sent, and not being sent now. */
  #open(entry: QueuedWrite): boolean {
    return entry.attempts === 0 && entry.seq !== this.#inFlight;
  }

  /** Folds a change of a not-yet-delivered highlight into its queued add, when that add was never sent. */
  #foldIntoAdd(state: QueueState, change: QueuedHighlightChange): boolean {
    for (const entry of state.entries) {
      if (entry.op !== 'update' || !this.#open(entry)) continue;
      const list = highlightsOf(entry.body);
      const at = list?.findIndex((c) => !c._id && c._local === change._id) ?? -1;
      if (!list || at < 0) continue;
      if (change.text === '') {
        list.splice(at, 1);
        if (!list.length) delete entry.body.highlights;
        if (isEmptyUpdate(entry.body) && isEmptyAppend(entry.append)) state.entries = state.entries.filter((e) => e !== entry);
      } else {
        const { _id: _ignored, _local: _also, ...fields } = change;
        Object.assign(list[at], fields);
      }
      return true;
    }
    return false;
  }

  async enqueue(write: NewWrite, opts: EnqueueOptions = {}): Promise<void> {
    await this.#mutate((state) => {
      const incoming = structuredClone(write);
      if (incoming.op === 'update' && !opts.tried) {
        const list = highlightsOf(incoming.body);
        if (list) {
          const rest = list.filter((c) => !(isLocalKey(c._id) && this.#foldIntoAdd(state, c)));
          if (rest.length) incoming.body.highlights = rest;
          else delete incoming.body.highlights;
          // Everything in it was folded into writes already queued.
          if (isEmptyUpdate(incoming.body) && isEmptyAppend(incoming.append)) return { state, value: undefined };
        }
      }
      // An addition carries the popup's whole value of its field (all tags to add, the whole note to
      // add): the same field in an earlier, unsent write of this bookmark is replaced, not added twice.
      if (incoming.op === 'update' && incoming.append && !opts.tried) {
        const fields = Object.keys(incoming.append) as (keyof AppendChanges)[];
        for (const e of state.entries) {
          if (e.op !== 'update' || e.ref !== incoming.ref || !e.append || !this.#open(e)) continue;
          for (const f of fields) delete e.append[f];
          if (!Object.keys(e.append).length) delete e.append;
        }
        state.entries = state.entries.filter((e) => e.op !== 'update' || !isEmptyUpdate(e.body) || !isEmptyAppend(e.append) || !this.#open(e));
      }
      const last = state.entries[state.entries.length - 1];
      // Consecutive edits of one bookmark become one update, unless the earlier one may already
      // have reached the server (its key names that exact request).
      if (!opts.tried && incoming.op === 'update' && last?.op === 'update' && last.ref === incoming.ref && this.#open(last)) {
        const a = highlightsOf(last.body);
        const b = highlightsOf(incoming.body);
        // Highlight changes add up (a second change of one highlight merges into the first); other fields: the later value wins.
        const highlights = a && b ? mergeHighlightChanges(a, b) : (a ?? b);
        last.body = { ...last.body, ...incoming.body, ...(highlights ? { highlights } : {}) };
        const append = mergeAppend(last.append, incoming.append);
        if (append) last.append = append;
        last.label = incoming.label;
        return { state, value: undefined };
      }
      state.entries.push({ ...incoming, seq: state.nextSeq++, queuedAt: this.#now(), attempts: opts.tried ? 1 : 0 } as QueuedWrite);
      return { state, value: undefined };
    });
  }

  async clear(): Promise<void> {
    await this.#mutate(() => ({ state: structuredClone(EMPTY_QUEUE), value: undefined }));
  }

  async dismissFailures(): Promise<void> {
    await this.#mutate((state) => ({ state: { ...state, failures: [] }, value: undefined }));
  }

  /** Sends queued writes in order until the queue is empty or the server is unreachable. One drain at a time. */
  drain(): Promise<DrainResult> {
    this.#draining ??= this.#doDrain().finally(() => {
      this.#draining = null;
    });
    return this.#draining;
  }

  /**
   * The body to send for a queued update: local highlight keys replaced by the server's ids and the
   * `_local` marks left out. The same every time it is sent (the ids of earlier writes are known by
   * then), so a repeat matches its Idempotency-Key. Null: nothing is left to send.
   */
  async #outgoing(body: BookmarkUpdate): Promise<BookmarkUpdate | null> {
    const list = highlightsOf(body);
    if (!list) return body;
    const ids = await highlightIdsItem.getValue();
    const highlights: HighlightChange[] = [];
    for (const { _local: _mark, ...change } of list) {
      if (isLocalKey(change._id)) {
        const id = ids[change._id]?.id;
        // Its add never reached the server (refused): there is nothing to change.
        if (!id) continue;
        change._id = id;
      }
      highlights.push(change);
    }
    const out: BookmarkUpdate = { ...body, highlights };
    if (!highlights.length) delete out.highlights;
    return isEmptyUpdate(out) ? null : out;
  }

  /** Records the server ids of the highlights a delivered update added (matched by text and place, newest first). */
  async #recordHighlightIds(body: BookmarkUpdate, bookmark: Bookmark): Promise<void> {
    const list = highlightsOf(body) ?? [];
    const adds = list.filter((c): c is QueuedHighlightChange & { _local: string } => !c._id && !!c._local);
    if (!adds.length) return;
    const ids = { ...(await highlightIdsItem.getValue()) };
    const mine = new Set(adds.map((a) => a._local));
    const claimed = new Set(Object.entries(ids).filter(([k]) => !mine.has(k)).map(([, v]) => v.id));
    for (const c of list) if (c._id && !isLocalKey(c._id)) claimed.add(c._id);
    const now = this.#now();
    for (let i = adds.length - 1; i >= 0; i--) {
      const a = adds[i];
      for (let j = bookmark.highlights.length - 1; j >= 0; j--) {
        const h = bookmark.highlights[j];
        if (claimed.has(h._id)) continue;
        if (h.text === a.text && h.position === a.position && h.prefix === a.prefix && h.suffix === a.suffix) {
          ids[a._local] = { id: h._id, at: now };
          claimed.add(h._id);
          break;
        }
      }
    }
    const keys = Object.keys(ids);
    if (keys.length > MAX_HIGHLIGHT_IDS) {
      keys.sort((x, y) => ids[x].at - ids[y].at);
      for (const k of keys.slice(0, keys.length - MAX_HIGHLIGHT_IDS)) delete ids[k];
    }
    await highlightIdsItem.setValue(ids);
  }

  /** The first waiting write, marked as being sent (nothing is folded into it from now on). */
  /** The signed-in account's first waiting write, marked as being sent (nothing is folded into it from now on). */
  #next(): Promise<{ write: QueuedWrite; pending: number } | undefined> {
    return this.#mutate((state, account) => {
      const mine = state.entries.filter((e) => isFor(e, account));
      const write = mine[0];
      this.#inFlight = write?.seq ?? null;
      return write ? { state: null, value: { write, pending: mine.length } } : null;
    });
  }

  async #doDrain(): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, failed: 0, remaining: 0 };
    if (!(await this.#deps.account())) {
      result.stoppedBy = 'signed-out';
      result.remaining = (await this.state()).entries.length;
      return result;
    }
    for (;;) {
      const next = await this.#next();
      if (!next) {
        result.remaining = 0;
        return result;
      }
      const { write } = next;
      result.remaining = next.pending;
      const account = await this.#deps.account();
      if (!account) {
        this.#inFlight = null;
        result.stoppedBy = 'signed-out';
        return result;
      }
      if (!isFor(write, account)) {
        // The account changed between picking the write and now: it stays for its own account.
        this.#inFlight = null;
        result.stoppedBy = 'signed-out';
        return result;
      }
      if (write.op === 'bulk') {
        if ((await this.#sendBulk(write, result)) === 'stop') return result;
        continue;
      }
      let serverId: number | null = null;
      if (write.op !== 'create') {
        const id = bookmarkIdOf(write.ref, await this.state());
        if (!id) {
          await this.#fail(write, 'The bookmark it changes could not be saved, so the change was dropped.');
          result.failed++;
          continue;
        }
        serverId = id;
      }
      let body = write.op === 'update' ? await this.#outgoing(write.body) : null;
      // Highlight changes that came to nothing, but additions to send.
      if (write.op === 'update' && !body && !isEmptyAppend(write.append)) body = {};
      if (write.op === 'update' && !body) {
        await this.#fail(write, 'The highlight it changes could not be saved, so the change was dropped.');
        result.failed++;
        continue;
      }
      // Counted before sending: from here on the server may have it under this key, so a stopped
      // service worker's successor does not fold later edits into it either.
      await this.#countAttempt(write.seq);
      try {
        const opts = { idempotencyKey: write.key, retries: 1 };
        let bookmark: Bookmark | null;
        if (write.op === 'create') bookmark = await this.#deps.api.createBookmark(write.body, opts);
        else if (write.op === 'update') {
          // Additions to a bookmark never seen here: merged with what the server has now.
          const append = write.append;
          const out = append && !isEmptyAppend(append) ? appendedUpdate(await this.#deps.api.getBookmark(serverId!), body!, append) : body!;
          bookmark = Object.keys(out).length ? await this.#deps.api.updateBookmark(serverId!, out, opts) : await this.#deps.api.getBookmark(serverId!);
        }
        else bookmark = await this.#deps.api.removeBookmark(serverId!, opts);
        const id = bookmark?._id ?? serverId!;
        // Before the write leaves the queue: a restart in between repeats it and gets the same answer.
        if (write.op === 'update' && bookmark) await this.#recordHighlightIds(write.body, bookmark);
        await this.#mutate((s) => {
          s.entries = s.entries.filter((e) => e.seq !== write.seq);
          if (write.op === 'create') s.resolved[write.ref] = id;
          return { state: s, value: undefined };
        });
        result.sent++;
        this.#deps.onDelivered?.(write, bookmark, id);
      } catch (err) {
        if (err instanceof ApiClientError && (err.temporary || err.kind === 'unauthorized')) {
          result.stoppedBy = err.kind === 'unauthorized' ? 'signed-out' : 'network';
          result.remaining = (await this.state()).entries.length;
          return result;
        }
        // The key was used for another body: an earlier form of this write (before later edits were
        // folded in by a worker that did not know it had been sent) reached the server. What is
        // queued now is the whole intended change, so it is sent once more under a new key.
        if (err instanceof ApiClientError && err.status === 422 && !write.key.endsWith(REKEY_SUFFIX)) {
          await this.#mutate((s) => {
            const e = s.entries.find((x) => x.seq === write.seq);
            if (!e) return null;
            e.key = `${e.key}${REKEY_SUFFIX}`;
            return { state: s, value: undefined };
          });
          continue;
        }
        await this.#fail(write, (err as Error).message || 'The server refused it.');
        result.failed++;
      } finally {
        this.#inFlight = null;
      }
    }
  }

  /** Counts a sending attempt on the queued write, before it is sent. */
  #countAttempt(seq: number): Promise<void> {
    return this.#mutate((s) => {
      const e = s.entries.find((x) => x.seq === seq);
      if (!e) return null;
      e.attempts++;
      return { state: s, value: undefined };
    });
  }

  /** Sends a queued bulk change (ids only: the server finds them wherever they are now). */
  async #sendBulk(write: Extract<QueuedWrite, { op: 'bulk' }>, result: DrainResult): Promise<'next' | 'stop'> {
    await this.#countAttempt(write.seq);
    try {
      const opts = { idempotencyKey: write.key, retries: 1 };
      if (write.method === 'DELETE') await this.#deps.api.bulkRemove(write.collectionId, write.ids, undefined, opts);
      else await this.#deps.api.bulkUpdate(write.collectionId, { ...write.body, ids: write.ids }, undefined, opts);
      await this.#mutate((s) => {
        s.entries = s.entries.filter((e) => e.seq !== write.seq);
        return { state: s, value: undefined };
      });
      result.sent++;
      this.#deps.onBulkDelivered?.(write);
      return 'next';
    } catch (err) {
      if (err instanceof ApiClientError && (err.temporary || err.kind === 'unauthorized')) {
        result.stoppedBy = err.kind === 'unauthorized' ? 'signed-out' : 'network';
        result.remaining = (await this.state()).entries.length;
        return 'stop';
      }
      await this.#fail(write, (err as Error).message || 'The server refused it.');
      result.failed++;
      return 'next';
    } finally {
      this.#inFlight = null;
    }
  }

  async #fail(write: QueuedWrite, message: string): Promise<void> {
    const failure: FailedWrite = { op: write.op, label: write.label, message, at: this.#now() };
    await this.#mutate((s) => {
      s.entries = s.entries.filter((e) => e.seq !== write.seq);
      s.failures = [...s.failures, failure].slice(-MAX_FAILURES);
      return { state: s, value: undefined };
    });
    this.#inFlight = null;
  }
}
