// Saving and editing bookmarks: the popup's flow (find the page's bookmark or create it), edits,
// remove/undo, and saves from the context menu and the keyboard. Online first; when the server
// cannot be reached the write goes to the offline queue with the same idempotency key.
import { browser, type Browser } from 'wxt/browser';
import { ApiClientError, type TidemarkApi } from '../api/client/index.js';
import type { Bookmark, BookmarkCreate } from '../api/types.js';
import { TRASH, UNSORTED } from '../api/constants.js';
import { isHttpUrl, normalizeUrl } from '../api/url.js';
import { t } from '../i18n.js';
import { draftOf, toUpdateBody, type Account, type AppendChanges, type BookmarkChanges, type BookmarkDraft } from '../model.js';
import { isLocalRef, refOf, serverIdOf, type BookmarkRef } from '../bookmark-ref.js';
import type { PageInfo, PopupOpenResult, WriteResult } from '../messaging/protocol.js';
import { UserFacingError } from '../messaging/router.js';
import { defaultCollectionItem, lastCollectionItem, saveOnOpenItem, signedOutReasonItem } from '../storage/items.js';
import type { WriteQueue } from './queue.js';
import { readPageInfo } from './page-info.js';
import { appendedUpdate, isEmptyAppend, splitAppend } from './append.js';
import { isOffline, savedIdOf, userError } from './server-answers.js';
import { reportError } from './report-error.js';

/** A write that failed before anything was sent (reading what it builds on failed). */
class NotSentError extends Error {
  constructor(override readonly cause: unknown) {
    super((cause as Error)?.message ?? 'not sent');
  }
}

/** Browser and extension pages: no extension may read them, so they can never be saved. */
export function isClosedPage(url: string): boolean {
  return /^(chrome|about|edge|brave|opera|vivaldi|chrome-extension|moz-extension|extension|view-source|devtools|chrome-search|chrome-untrusted):/i.test(url);
}

interface BookmarksDeps {
  api: TidemarkApi;
  queue: WriteQueue;
  account: () => Promise<Account | null>;
  /** The saved-link index: hit, null (not saved) or undefined (cannot say). */
  lookup: (key: string) => { id: number; collectionId: number } | null | undefined;
  /** A bookmark was saved, changed or removed: update the index, the url/exists cache and the badges. */
  onSaved: (bookmark: Bookmark) => void;
  onRemoved: (id: number, link: string) => void;
  /** Remember a collection as used. */
  usedCollection: (id: number) => Promise<void>;
  readPage?: (tab: Browser.tabs.Tab & { url: string }) => Promise<PageInfo>;
  /** Sends the page in tab `tabId` as the text of bookmark `id` (not awaited: the save's answer never waits for it). */
  sendText?: (tabId: number, id: number) => void;
  newKey?: () => string;
}

export class BookmarksService {
  readonly #newKey: () => string;

  readonly #deps: BookmarksDeps;

  constructor(deps: BookmarksDeps) {
    this.#deps = deps;
    this.#newKey = deps.newKey ?? (() => crypto.randomUUID());
  }

  async #requireAccount(): Promise<Account> {
    const account = await this.#deps.account();
    if (!account) throw new UserFacingError(t('errorSignedOut'), 'signed-out');
    return account;
  }

  /** Where new bookmarks go: the default collection from the options, else the last one used. */
  async #targetCollection(): Promise<number> {
    return (await defaultCollectionItem.getValue()) ?? (await lastCollectionItem.getValue()) ?? UNSORTED;
  }

  /**
   * The tab's page. Its address is hidden only where Tidemark has no access: after a click on the
   * toolbar button (which grants access to the tab) that means a page no extension may read.
   */
  async #pageTab(tabId: number): Promise<Browser.tabs.Tab & { url: string }> {
    const tab = await browser.tabs.get(tabId).catch(() => null);
    if (!tab) throw new UserFacingError(t('errorNoTab'), 'unsupported');
    if (!tab.url) throw new UserFacingError(t('errorPageCannotBeSaved'), 'unsupported');
    return tab as Browser.tabs.Tab & { url: string };
  }

  /**
   * The popup opened on a tab: the page's bookmark for editing, created first when the page is
   * not saved yet and "save on open" is on. Never creates a duplicate: the index answers first,
   * then url/exists (authoritative) is asked before any create.
   */
  async openForTab(tabId: number, opts: { create?: boolean } = {}): Promise<PopupOpenResult> {
    const account = await this.#deps.account();
    if (!account) return { state: 'signed-out', reason: await signedOutReasonItem.getValue() };
    let tab: Browser.tabs.Tab & { url: string };
    try {
      tab = await this.#pageTab(tabId);
    } catch (err) {
      return { state: 'unsupported', reason: (err as Error).message };
    }
    if (!isHttpUrl(tab.url)) return { state: 'unsupported', reason: t(isClosedPage(tab.url) ? 'errorPageCannotBeSaved' : 'errorNotWebPage') };
    const key = normalizeUrl(tab.url)!;
    let reading: Promise<PageInfo> | null = null;
    /** The page's metadata, read once and only when needed (creating, or offline). */
    const pageInfo = () => (reading ??= (this.#deps.readPage ?? readPageInfo)(tab));

    // Already in the queue from an earlier, offline save of this page.
    const queued = await this.#deps.queue.pendingCreate((link) => normalizeUrl(link) === key);
    if (queued) return { state: 'saved', bookmark: this.#draftFromCreate(queued.ref, queued.body), created: false, queued: true, serverUrl: account.serverUrl };

    const hit = this.#deps.lookup(key);
    if (hit) {
      try {
        const existing = await this.#loadExisting(hit.id);
        if (existing) return this.#opened(tabId, existing, opts);
      } catch (err) {
        if (!isOffline(err)) throw userError(err);
        // Offline, and the index knows it is saved, but not what is stored (tags, note...): the
        // draft holds only what this device adds, and the popup says so. Never the page's fields
        // in place of the stored ones.
        const ref = refOf(hit.id);
        const adding = await this.#deps.queue.pendingAppend(ref);
        const draft: BookmarkDraft = {
          ref,
          link: tab.url,
          title: tab.title || tab.url,
          excerpt: '',
          note: adding.note ?? '',
          tags: adding.tags ?? [],
          important: false,
          collectionId: hit.collectionId,
          cover: '',
          removed: false,
        };
        return { state: 'saved', bookmark: draft, created: false, queued: false, offline: true, partial: true };
      }
    }
    void pageInfo(); // read the page while url/exists is asked
    // And what a create needs from storage: read meanwhile, not after the server's answer.
    const creating = Promise.all([opts.create ?? saveOnOpenItem.getValue(), this.#targetCollection()]);
    creating.catch(() => undefined); // awaited below when the page is not saved yet; unused otherwise
    let found: number | null | undefined;
    /** The server did not answer: a queued save says so (serverUrl); one queued behind earlier writes does not. */
    let unreachable = false;
    try {
      const res = await this.#deps.api.urlExists([tab.url], { retries: 1 });
      found = savedIdOf(res, key);
    } catch (err) {
      if (!isOffline(err)) throw userError(err);
      found = undefined; // cannot ask: trust the index, or save (queued)
      unreachable = true;
    }
    if (found) {
      const existing = await this.#loadExisting(found).catch((err) => {
        throw userError(err);
      });
      if (existing) {
        this.#deps.onSaved(existing);
        return this.#opened(tabId, existing, opts);
      }
    }
    const [page, [create, collectionId]] = await Promise.all([pageInfo(), creating]);
    if (!create) return { state: 'unsaved', page };
    const result = await this.create(this.#createBody(page, collectionId), page.title, account);
    const saved: PopupOpenResult = { state: 'saved', bookmark: result.bookmark!, created: true, queued: result.state === 'queued' };
    // A save that waits in the offline queue sends no text: a page may be 5 MB, and the queue keeps its
    // writes in extension storage, rewritten after every step. The server's job reads the address
    // once the save arrives, and "Update text" sends the page as seen here later.
    const id = serverIdOf(result.bookmark!.ref);
    if (id !== null) this.#deps.sendText?.(tabId, id);
    if (result.state === 'queued' && unreachable) saved.serverUrl = account.serverUrl;
    if (page.titleCutAt) saved.titleCutAt = page.titleCutAt;
    return saved;
  }

  /**
   * An existing bookmark opened. Its text is sent again when the page is saved again (the save
   * command or menu on a saved page); not on every opening: the side panel opens it at each tab
   * change, and the popup has "Update text".
   */
  #opened(tabId: number, b: Bookmark, opts: { create?: boolean }): PopupOpenResult {
    if (opts.create) this.#deps.sendText?.(tabId, b._id);
    return { state: 'saved', bookmark: draftOf(b), created: false, queued: false };
  }

  async #loadExisting(id: number): Promise<Bookmark | null> {
    try {
      const b = await this.#deps.api.getBookmark(id);
      if (b.removed || b.collectionId === TRASH) {
        this.#deps.onRemoved(id, b.link); // the index had not heard yet
        return null;
      }
      return b;
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 404) {
        this.#deps.onRemoved(id, '');
        return null;
      }
      throw err;
    }
  }

  #createBody(page: PageInfo, collectionId: number): BookmarkCreate {
    const body: BookmarkCreate = { link: page.url, title: page.title, collection: { $id: collectionId }, pleaseParse: {} };
    if (page.excerpt) body.excerpt = page.excerpt;
    if (page.cover) {
      body.cover = page.cover;
      body.media = [{ type: 'image', link: page.cover }];
    }
    return body;
  }

  #draftFromCreate(ref: BookmarkRef, body: BookmarkCreate): BookmarkDraft {
    return {
      ref,
      link: body.link,
      title: body.title ?? body.link,
      excerpt: body.excerpt ?? '',
      note: body.note ?? '',
      tags: body.tags ?? [],
      important: body.important ?? false,
      collectionId: body.collection?.$id ?? UNSORTED,
      cover: body.cover ?? '',
      removed: false,
    };
  }

  /** Creates a bookmark, or queues the create when the server is unreachable. */
  async create(body: BookmarkCreate, label: string, account?: Account): Promise<WriteResult> {
    account ??= await this.#requireAccount();
    const key = this.#newKey();
    const localRef = `l:${key}` as const;
    const collectionId = body.collection?.$id ?? UNSORTED;
    // The recently used list is a convenience: updated beside the write, never holding it up or failing it.
    this.#deps.usedCollection(collectionId).catch(reportError('recently used collections'));
    if (!(await this.#deps.queue.busy())) {
      try {
        const bookmark = await this.#deps.api.createBookmark(body, { idempotencyKey: key, retries: 1 });
        this.#deps.onSaved(bookmark);
        return { state: 'saved', bookmark: draftOf(bookmark) };
      } catch (err) {
        if (!isOffline(err)) throw userError(err);
      }
    }
    await this.#deps.queue.enqueue({ op: 'create', ref: localRef, body, key, userId: account.userId, serverUrl: account.serverUrl, label });
    return { state: 'queued', bookmark: this.#draftFromCreate(localRef, body) };
  }

  /**
   * `append`: the popup never saw the stored bookmark (see PopupOpenResult.partial): its `tags` and
   * `note` are additions, merged with what the server has when sent.
   */
  async update(ref: BookmarkRef, changes: BookmarkChanges, label = '', opts: { append?: boolean } = {}): Promise<WriteResult> {
    const account = await this.#requireAccount();
    if (changes.collectionId !== undefined) {
      await lastCollectionItem.setValue(changes.collectionId);
      await this.#deps.usedCollection(changes.collectionId);
    }
    const { rest, append } = opts.append ? splitAppend(changes) : { rest: changes, append: undefined };
    const body = toUpdateBody(rest);
    const sendNow = async (id: number, key: string) => {
      let out = body;
      if (append && !isEmptyAppend(append)) {
        // Reading what is stored failed: the write itself was never sent, so the queue may still merge later edits into it.
        const stored = await this.#deps.api.getBookmark(id, { retries: 1 }).catch((err: unknown) => {
          throw new NotSentError(err);
        });
        out = appendedUpdate(stored, body, append);
      }
      return this.#deps.api.updateBookmark(id, out, { idempotencyKey: key, retries: 1 });
    };
    return this.#write(ref, account, label, 'update', sendNow, body, append);
  }

  /** Moves to Trash (the popup offers Undo). */
  async remove(ref: BookmarkRef, label = ''): Promise<WriteResult> {
    const account = await this.#requireAccount();
    return this.#write(ref, account, label, 'remove', (id, key) => this.#deps.api.removeBookmark(id, { idempotencyKey: key, retries: 1 }));
  }

  /** Undo of Remove: back to the collection it was in. */
  async restore(ref: BookmarkRef, collectionId: number, label = ''): Promise<WriteResult> {
    return this.update(ref, { collectionId: collectionId === TRASH ? UNSORTED : collectionId }, label);
  }

  async #write(
    ref: BookmarkRef,
    account: Account,
    label: string,
    op: 'update' | 'remove',
    send: (id: number, key: string) => Promise<Bookmark | null>,
    body?: ReturnType<typeof toUpdateBody>,
    append?: AppendChanges,
  ): Promise<WriteResult> {
    const resolved = await this.#deps.queue.serverRef(ref);
    const key = this.#newKey();
    const id = serverIdOf(resolved);
    let tried = false;
    if (id !== null && !isLocalRef(resolved) && !(await this.#deps.queue.busy())) {
      try {
        tried = true;
        const bookmark = await send(id, key);
        if (op === 'remove' || !bookmark || bookmark.removed) this.#deps.onRemoved(id, bookmark?.link ?? '');
        else this.#deps.onSaved(bookmark);
        return { state: 'saved', bookmark: bookmark ? draftOf(bookmark) : null };
      } catch (caught) {
        const notSent = caught instanceof NotSentError;
        const err = notSent ? caught.cause : caught;
        if (!isOffline(err)) throw userError(err);
        if (notSent) tried = false;
      }
    }
    const common = { key, userId: account.userId, serverUrl: account.serverUrl, label };
    // A write whose online try failed may still have reached the server: it is queued as sent, and
    // later edits are never merged into it.
    if (op === 'update') await this.#deps.queue.enqueue({ op, ref: resolved, body: body!, ...(append ? { append } : {}), ...common }, { tried });
    else await this.#deps.queue.enqueue({ op, ref: resolved, ...common }, { tried });
    return { state: 'queued', bookmark: null };
  }

  /** Context menu "Save link": the link, unless it is saved already. */
  async saveLink(link: string, title: string | undefined): Promise<WriteResult & { exists?: boolean }> {
    const account = await this.#requireAccount();
    if (!isHttpUrl(link)) throw new UserFacingError(t('errorNotWebPage'), 'unsupported');
    const key = normalizeUrl(link)!;
    if (this.#deps.lookup(key)) return { state: 'saved', bookmark: null, exists: true };
    try {
      const res = await this.#deps.api.urlExists([link], { retries: 1 });
      if (res.result && res.ids.length) return { state: 'saved', bookmark: null, exists: true };
    } catch (err) {
      if (!isOffline(err)) throw userError(err);
    }
    const body: BookmarkCreate = { link, collection: { $id: await this.#targetCollection() }, pleaseParse: {} };
    if (title) body.title = title;
    return this.create(body, title || link, account);
  }

  /** Context menu "Save image": an image bookmark whose cover is the image. */
  async saveImage(src: string, pageTitle: string | undefined): Promise<WriteResult> {
    const account = await this.#requireAccount();
    if (!isHttpUrl(src)) throw new UserFacingError(t('errorImageNotWeb'), 'unsupported');
    const body: BookmarkCreate = {
      link: src,
      type: 'image',
      cover: src,
      media: [{ type: 'image', link: src }],
      collection: { $id: await this.#targetCollection() },
    };
    if (pageTitle) body.title = pageTitle;
    return this.create(body, pageTitle || src, account);
  }
}

