// Keeps the saved-link index in step with the server: one full listing (paged) after sign-in, then
// only the changes since the last cursor (GET /links?since=). The index is kept in IndexedDB, so a
// restarted service worker has it at once. Until it is synced (first run, after sign-in, after an
// error) lookups say "unknown" and the badge asks url/exists instead.
//
// The keys are the server's (`link_key`); lookups use this extension's normalizeUrl. Both must be of
// the same URL key version (lib/api/url.ts): a stored index of another version is dropped and
// rebuilt, and a server answering with keys of another version leaves the index unusable (lookups
// say "unknown", so url/exists answers) until one of them is updated.
import type { TidemarkApi } from '../api/client/index.js';
import { LIMITS } from '../api/constants.js';
import type { LinksResponse } from '../api/types.js';
import { URL_KEY_VERSION } from '../api/url.js';
import type { Account } from '../model.js';
import { savedIndexRecord } from '../storage/items.js';
import { IndexBuilder, SavedLinkIndex, type IndexHit } from './saved-index.js';
import { reportError } from './report-error.js';

export type IndexState = 'empty' | 'syncing' | 'ready' | 'error';

export interface IndexSyncDeps {
  api: TidemarkApi;
  account: () => Promise<Account | null>;
  now?: () => number;
  pageSize?: number;
  /** Called after a sync that changed the index (the badge refreshes open tabs). */
  onSynced?: () => void;
  /** This extension's URL key version (tests pretend another). */
  keyVersion?: number;
}

export class SavedIndexService {
  #index: SavedLinkIndex | null = null;
  #owner: string | null = null;
  #cursor = 0;
  #syncedAt = 0;
  #status: IndexState = 'empty';
  #loading: Promise<void> | null = null;
  #syncing: Promise<void> | null = null;
  readonly #now: () => number;
  readonly #keyVersion: number;

  readonly #deps: IndexSyncDeps;

  constructor(deps: IndexSyncDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#keyVersion = deps.keyVersion ?? URL_KEY_VERSION;
  }

  get state(): IndexState {
    return this.#status;
  }

  get lastSyncedAt(): number {
    return this.#syncedAt;
  }

  get size(): number {
    return this.#index?.size ?? 0;
  }

  get byteSize(): number {
    return this.#index?.byteSize() ?? 0;
  }

  private static ownerOf(account: Account): string {
    return `${account.serverUrl}|${account.userId}`;
  }

  /** Loads the stored index once per service-worker life. */
  load(): Promise<void> {
    this.#loading ??= (async () => {
      const account = await this.#deps.account();
      if (!account) return;
      // An unreadable stored snapshot is treated as none: the next sync rebuilds the index from the server.
      const snap = await savedIndexRecord.get().catch(() => undefined);
      if (!snap || `${snap.serverUrl}|${snap.userId}` !== SavedIndexService.ownerOf(account)) return;
      // Keys of another URL key version: the next sync lists everything again.
      if ((snap.keyVersion ?? 1) !== this.#keyVersion) return;
      if (this.#index) return; // a sync finished first
      this.#index = new SavedLinkIndex({ hashes: snap.hashes, ids: snap.ids, collections: snap.collections });
      this.#owner = SavedIndexService.ownerOf(account);
      this.#cursor = snap.cursor;
      this.#syncedAt = snap.syncedAt;
      this.#status = 'ready';
    })();
    return this.#loading;
  }

  /**
   * The bookmark saved under this link key: a hit, null (not saved), or undefined when the index
   * cannot say (not synced, or the last sync failed).
   */
  lookup(key: string): IndexHit | null | undefined {
    if (this.#status !== 'ready' || !this.#index) return undefined;
    return this.#index.lookup(key);
  }

  /** A save the extension just made (the next sync confirms it). */
  noteSaved(id: number, key: string, collectionId: number): void {
    this.#index?.upsert(id, key, collectionId);
  }

  noteRemoved(id: number): void {
    this.#index?.remove(id);
  }

  /** Forgets everything (sign-out, another account). */
  async reset(): Promise<void> {
    this.#index = null;
    this.#owner = null;
    this.#cursor = 0;
    this.#syncedAt = 0;
    this.#status = 'empty';
    this.#loading = null;
    await savedIndexRecord.remove().catch(reportError('saved-link index removal'));
  }

  /** Brings the index up to date. One sync at a time; a failure leaves the state 'error'. */
  sync(): Promise<void> {
    this.#syncing ??= this.#doSync().finally(() => {
      this.#syncing = null;
    });
    return this.#syncing;
  }

  async #doSync(): Promise<void> {
    await this.load();
    const account = await this.#deps.account();
    if (!account) return;
    const owner = SavedIndexService.ownerOf(account);
    const previous = this.#status;
    if (previous !== 'ready') this.#status = 'syncing';
    try {
      if (this.#index && this.#owner === owner) await this.#syncChanges();
      else await this.#syncAll(owner);
      this.#status = 'ready';
      this.#syncedAt = this.#now();
      await this.#persist(account);
      this.#deps.onSynced?.();
    } catch (err) {
      this.#status = 'error';
      throw err;
    }
  }

  async #syncAll(owner: string): Promise<void> {
    const limit = this.#deps.pageSize ?? LIMITS.linksPerAnswerMax;
    const builder = new IndexBuilder();
    let after = 0;
    let cursor: number | null = null;
    for (;;) {
      const page = this.#sameKeys(await this.#deps.api.links({ after, limit }));
      cursor ??= page.cursor; // the first page's cursor: later changes come with `since`
      for (const [id, key, col] of page.items) builder.add(id, key, col);
      if (!page.more || page.items.length === 0) break;
      after = page.items[page.items.length - 1][0];
    }
    this.#index = builder.finish();
    this.#owner = owner;
    this.#cursor = cursor ?? 0;
    // Changes made while paging are picked up right away.
    await this.#syncChanges();
  }

  async #syncChanges(): Promise<void> {
    const limit = this.#deps.pageSize ?? LIMITS.linksPerAnswerMax;
    for (;;) {
      const page = this.#sameKeys(await this.#deps.api.links({ since: this.#cursor, limit }));
      for (const id of page.removed ?? []) this.#index!.remove(id);
      for (const [id, key, col] of page.items) this.#index!.upsert(id, key, col);
      this.#cursor = page.cursor;
      if (!page.more) break;
    }
  }

  /** The answer, when its keys are of this extension's version; else the sync fails (lookups fall back to url/exists). */
  #sameKeys(page: LinksResponse): LinksResponse {
    const theirs = page.keyVersion ?? 1;
    if (theirs !== this.#keyVersion) {
      throw new Error(
        `The server keys saved links by version ${theirs} of the link rules, this extension by version ${this.#keyVersion}: ` +
          'saved pages are checked with the server one by one until the server or the extension is updated.',
      );
    }
    return page;
  }

  async #persist(account: Account): Promise<void> {
    if (!this.#index) return;
    const arrays = this.#index.arrays();
    await savedIndexRecord
      .set({ serverUrl: account.serverUrl, userId: account.userId, keyVersion: this.#keyVersion, cursor: this.#cursor, syncedAt: this.#syncedAt, ...arrays })
      .catch(reportError('saved-link index save'));
  }
}
