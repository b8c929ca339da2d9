// The bookmark sync's passes (issue 37): one at a time, each reads the browser folder, asks the server
// for its changes when it pulls, plans (lib/bookmark-sync) and applies. What a pass applied is in the
// mirror, so the events it causes find nothing to send: no echoes. index.ts registers its listeners.
import { browser } from 'wxt/browser';
import { ApiClientError, type TidemarkApi } from '../../api/client/index.js';
import { appendLog } from '../../bookmark-sync/conflicts.js';
import { firstSync } from '../../bookmark-sync/first-sync.js';
import { collectionsInScope, folderMaps, plan } from '../../bookmark-sync/plan.js';
import { FOLDER_TITLE, type BookmarkSyncSettings, type BookmarkSyncStatus } from '../../bookmark-sync/settings.js';
import { snapshotInSlices, type Snapshot } from '../../bookmark-sync/snapshot.js';
import type { Mirror, RemoteBookmark, RemoteCollection } from '../../bookmark-sync/types.js';
import type { Account } from '../../model.js';
import { bookmarkSyncDecisionItem, bookmarkSyncMirrorRecord, bookmarkSyncSettingsItem, bookmarkSyncStatusItem } from '../../storage/items.js';
import type { WriteQueue } from '../queue.js';
import { reportError } from '../report-error.js';
import { applyOps } from './apply.js';
import { readFolder, rerootMirror } from './browser-folder.js';
import { allCollections, changesSince, currentCursor, fetchBookmarks, listInScope } from './remote.js';

export const ALARM_BOOKMARK_SYNC = 'bookmark-sync';
/** The pull alarm's period: at most every minute while the browser is open. */
const PULL_EVERY_MINUTES = 1;
/** The collections are asked on every fifth alarm pull (and at start-up, after this extension's changes, when an unknown collection shows up). */
const COLLECTIONS_EVERY = 5;
/** Browser events come in bursts (an import, a folder dragged): one pass after the burst. */
const SETTLE_MS = 250;
export interface Deps {
  api: TidemarkApi;
  queue: WriteQueue;
  account: () => Promise<Account | null>;
  now?: () => number;
}

export interface PassRequest {
  pull: boolean;
  collections: boolean;
}

export class BookmarkSync {
  readonly #deps: Deps;
  readonly #now: () => number;
  #running: Promise<void> | null = null;
  #wanted: PassRequest | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #soonPull = false;
  #statusLock: Promise<void> = Promise.resolve();
  #applying = false;
  #eventsWhileApplying = false;
  #alarmPulls = 0;
  /** Browser bookmarks changed here since the last pull that reached the server. */
  readonly #editedSincePull = new Set<string>();
  /** The sync turned itself off because another account signed in (the options page says so). */
  #otherAccount = false;
  /** When each browser bookmark was last changed here (the later-wins rule). */
  readonly #editedAt: Record<string, number> = {};
  /** Passes run (the bench prints them). */
  passes = 0;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /**
   * A browser bookmark event. Its pass also pulls (one feed request): a change here is planned against
   * Tidemark's changes since the last sync, so a delete never silently wins over an edit on the other side.
   */
  onBrowserEvent(id: string, edited: boolean): void {
    // Mostly the sync's own changes: a local pass after it looks whether a person's change came too.
    if (this.#applying) {
      this.#eventsWhileApplying = true;
      return;
    }
    if (edited) this.#editedAt[id] = this.#now();
    this.#editedSincePull.add(id);
    this.#soon(true);
  }

  /** One pass once the burst of events settles; it pulls when any event asked for it. */
  #soon(pull: boolean): void {
    this.#soonPull ||= pull;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const withPull = this.#soonPull;
      this.#timer = null;
      this.#soonPull = false;
      void this.request({ pull: withPull, collections: false });
    }, SETTLE_MS);
  }

  /** Asks for a pass; passes asked while one runs become one more pass after it. Resolves when a pass covering it has run. */
  request(want: PassRequest): Promise<void> {
    this.#wanted = { pull: (this.#wanted?.pull ?? false) || want.pull, collections: (this.#wanted?.collections ?? false) || want.collections };
    this.#running ??= (async () => {
      try {
        while (this.#wanted) {
          const next = this.#wanted;
          this.#wanted = null;
          await this.#pass(next).catch(async (err) => {
            await this.#status({ state: 'error', error: (err as Error)?.message || String(err) });
            await reportError('bookmark sync')(err);
          });
        }
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }

  /** The alarm's pull; the collections every few times. */
  onAlarm(): Promise<void> {
    this.#alarmPulls++;
    return this.request({ pull: true, collections: this.#alarmPulls % COLLECTIONS_EVERY === 0 });
  }

  /** Changes the shown state; one change at a time (passes and the queue's watcher both write it). */
  #status(change: Partial<BookmarkSyncStatus> | ((current: BookmarkSyncStatus) => Partial<BookmarkSyncStatus> | null)): Promise<void> {
    const run = this.#statusLock.then(async () => {
      const current = (await bookmarkSyncStatusItem.getValue()) ?? EMPTY_STATUS;
      const next = typeof change === 'function' ? change(current) : change;
      if (next) await bookmarkSyncStatusItem.setValue({ ...current, ...next });
    });
    // The lock goes on after a failed write; that write's caller gets its error from `run`.
    this.#statusLock = run.catch(() => undefined);
    return run;
  }

  /** Turned off: both sides stay as they are; the mapping is dropped, so turning it on again merges afresh (deleting nothing). */
  async turnedOff(): Promise<void> {
    await browser.alarms.clear(ALARM_BOOKMARK_SYNC);
    await bookmarkSyncMirrorRecord.remove().catch(reportError('bookmark sync mapping removal'));
    const otherAccount = this.#otherAccount;
    this.#otherAccount = false;
    await this.#status(() => ({ ...EMPTY_STATUS, otherAccount }));
  }

  async ensureAlarm(): Promise<void> {
    if (!(await browser.alarms.get(ALARM_BOOKMARK_SYNC))) {
      await browser.alarms.create(ALARM_BOOKMARK_SYNC, { periodInMinutes: PULL_EVERY_MINUTES, delayInMinutes: PULL_EVERY_MINUTES });
    }
  }

  async #pass(want: PassRequest): Promise<void> {
    const settings = await bookmarkSyncSettingsItem.getValue();
    if (!settings.enabled) return;
    const account = await this.#deps.account();
    if (!account) return;
    this.passes++;
    const owner = `${account.serverUrl}|${account.userId}`;
    const rootId = await this.#root(settings);
    // An unreadable mapping is taken as none: a first sync merges by address again and deletes nothing.
    let mirror = await bookmarkSyncMirrorRecord.get().catch(() => undefined);
    if (mirror && mirror.owner !== owner) {
      // Another account: merging this folder into it would copy one account's bookmarks into the other.
      // The settings' watcher calls turnedOff(), which shows why.
      this.#otherAccount = true;
      await bookmarkSyncSettingsItem.setValue({ ...settings, enabled: false });
      return;
    }
    if (!mirror || JSON.stringify(mirror.scope) !== JSON.stringify(settings.scope)) {
      await this.#status({ state: 'syncing', error: null });
      mirror = await this.#firstSync(account, owner, rootId, settings);
    } else {
      if (mirror.rootId !== rootId) rerootMirror(mirror, rootId);
      if ((await this.#regularPass(account, mirror, want)) === 'held') return;
    }
    await this.#afterPass(mirror);
  }

  async #root(settings: BookmarkSyncSettings): Promise<string> {
    if (settings.folderId && (await browser.bookmarks.get(settings.folderId).catch(() => null))) return settings.folderId;
    // The chosen folder is gone (or none was chosen): a "Tidemark" folder under "Other bookmarks".
    const [top] = await browser.bookmarks.getTree();
    const other = (top.children ?? []).find((c) => c.id === '2' || c.id === 'unfiled_____' || (c as { folderType?: string }).folderType === 'other') ?? top.children?.[1] ?? top.children![0];
    const folder = await browser.bookmarks.create({ parentId: other.id, title: FOLDER_TITLE });
    await bookmarkSyncSettingsItem.setValue({ ...settings, folderId: folder.id });
    return folder.id;
  }

  /** The folder now; addresses the mirror knows unchanged keep their key. */
  async #snapshot(rootId: string, mirror?: Mirror): Promise<Snapshot> {
    const root = await readFolder(rootId);
    return snapshotInSlices(root, mirror && ((id, url) => (mirror.bookmarks[id]?.url === url ? mirror.bookmarks[id].key : undefined)));
  }

  async #firstSync(account: Account, owner: string, rootId: string, settings: BookmarkSyncSettings): Promise<Mirror> {
    const { api } = this.#deps;
    const cursor = await currentCursor(api);
    const [collections, bookmarks, snapshot] = await Promise.all([allCollections(api), listInScope(api, settings.scope), this.#snapshot(rootId)]);
    const planned = firstSync({ snapshot, owner, scope: settings.scope, cursor, collections, bookmarks });
    await this.#apply(account, planned.mirror, snapshot, planned.ops, new Map(bookmarks.map((b) => [b.id, b])), collections, true);
    return planned.mirror;
  }

  async #regularPass(account: Account, mirror: Mirror, want: PassRequest): Promise<'held' | 'done'> {
    const { api, queue } = this.#deps;
    // Creates the queue delivered since: their server ids.
    const resolved = (await queue.state()).resolved;
    for (const b of Object.values(mirror.bookmarks)) if (b.ref.startsWith('l:') && resolved[b.ref]) b.ref = `b:${resolved[b.ref]}`;

    const snapshot = await this.#snapshot(mirror.rootId, mirror);
    const remote = new Map<number, RemoteBookmark>();
    let removed = new Set<number>();
    let collections: RemoteCollection[] | null = null;
    let cursor = mirror.cursor;
    const editedSincePull = new Set(this.#editedSincePull);
    let changes: Awaited<ReturnType<typeof changesSince>> | null = null;
    if (want.pull) {
      try {
        changes = await changesSince(api, mirror.cursor);
      } catch (err) {
        // Offline: this pass still sends the browser's changes to the queue; the pull waits for the next pass.
        if (!(err instanceof ApiClientError && err.temporary)) throw err;
      }
    }
    if (changes) {
      cursor = changes.cursor;
      removed = new Set(changes.removed);
      const { folderOf, collectionOf } = folderMaps(mirror);
      const bySid = new Map<number, string>();
      for (const [id, b] of Object.entries(mirror.bookmarks)) if (b.ref.startsWith('b:')) bySid.set(Number(b.ref.slice(2)), id);
      const wanted: number[] = [];
      let unknownCollection = false;
      // Every mirrored bookmark the feed names is fetched: the feed also names renamed ones, and cannot
      // tell this device's own change from another device's change after it (the plan finds echoes equal).
      // Only the first sync's batch creates, seconds old, are taken as echoes when unmoved.
      const echoes = new Set(mirror.echoes ?? []);
      for (const [id, key, col] of changes.items) {
        const base = bySid.has(id) ? mirror.bookmarks[bySid.get(id)!] : undefined;
        if (base && echoes.has(id) && base.key === key && collectionOf.get(base.parent) === col) continue;
        if (!bySid.has(id) && !folderOf.has(col)) {
          unknownCollection = true;
          continue;
        }
        wanted.push(id);
      }
      if (want.collections || unknownCollection) {
        collections = await allCollections(api);
        const inScope = collectionsInScope(collections, mirror.scope);
        for (const [id, , col] of changes.items) if (!bySid.has(id) && !folderOf.has(col) && inScope.has(col)) wanted.push(id);
      }
      for (const b of await fetchBookmarks(api, wanted)) remote.set(b.id, b);
      delete mirror.echoes;
      for (const id of editedSincePull) this.#editedSincePull.delete(id);
    }
    const decision = await bookmarkSyncDecisionItem.getValue();
    const planned = plan({ snapshot, mirror, remote, removed, collections, localEditedAt: this.#editedAt, editedSincePull, now: this.#now(), removals: decision ?? 'ask' });
    if (planned.held) {
      await this.#status({ state: 'held', held: planned.held });
      return 'held';
    }
    if (decision) await bookmarkSyncDecisionItem.setValue(null);
    await this.#apply(account, mirror, snapshot, planned.ops, remote, collections ?? [], false);
    mirror.cursor = cursor;
    if (planned.conflicts.length) await this.#status((current) => ({ conflicts: appendLog(current.conflicts, planned.conflicts) }));
    return 'done';
  }

  async #apply(account: Account, mirror: Mirror, snapshot: Snapshot, ops: Parameters<typeof applyOps>[1], remote: Map<number, RemoteBookmark>, collections: RemoteCollection[], batchCreates: boolean) {
    if (!ops.length) return;
    this.#applying = true;
    this.#eventsWhileApplying = false;
    try {
      const { enqueued, batchCreated } = await applyOps(
        { api: this.#deps.api, queue: this.#deps.queue, account, mirror, snapshot, remote, collections: new Map(collections.map((c) => [c.id, c])), batchCreates },
        ops,
      );
      if (batchCreated.length) mirror.echoes = [...(mirror.echoes ?? []), ...batchCreated];
      if (enqueued) {
        // Sent now while online; collections whose folder went wait for these writes, then go too.
        void this.#deps.queue.drain().then(
          (r) => (r.remaining === 0 && mirror.collectionRemovals.length ? this.request({ pull: false, collections: false }) : undefined),
          reportError('offline queue drain'),
        );
      }
    } finally {
      this.#applying = false;
      // Saved even when a step failed: what was applied is the base of the next pass.
      await bookmarkSyncMirrorRecord.set(mirror).catch(reportError('bookmark sync mapping save'));
      // A person's change may have come while the pass applied its own: a local pass looks (it sends nothing for echoes).
      if (this.#eventsWhileApplying) this.#soon(false);
    }
  }

  async #afterPass(mirror: Mirror): Promise<void> {
    const { api, queue } = this.#deps;
    // Collections whose folder was deleted here: removed once every queued move out of them was sent.
    if (mirror.collectionRemovals.length && !(await queue.busy())) {
      while (mirror.collectionRemovals.length) {
        await api.removeCollection(mirror.collectionRemovals[0]);
        mirror.collectionRemovals.shift();
        await bookmarkSyncMirrorRecord.set(mirror);
      }
    }
    await bookmarkSyncMirrorRecord.set(mirror);
    await this.#status({ state: 'ok', error: null, held: null, lastSyncAt: this.#now(), mirrored: Object.keys(mirror.bookmarks).length });
  }
}

const EMPTY_STATUS: BookmarkSyncStatus = { state: 'off', lastSyncAt: null, error: null, otherAccount: false, mirrored: 0, conflicts: [], held: null };
