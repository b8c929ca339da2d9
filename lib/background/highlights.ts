// The background's side of highlighting: finds a page's bookmark and its highlights, and carries out
// the content script's, popup's and side panel's highlight changes, one at a time. The parts it uses,
// each in its own file: the local copy (highlights-cache.ts), server writes (highlight-writes.ts),
// local keys of highlights made offline (highlight-keys.ts), colour statistics (highlight-colors.ts),
// injection and tab commands (highlighter-injection.ts), and the loader's registration
// (highlighter-registration.ts). Content scripts only ever get what is needed to paint (never notes or tokens).
//
// A highlight made offline gets a local key (`l:<uuid>`) and keeps it on this device: it can be
// recoloured, noted and deleted before it is delivered (the queue folds those into its add).
import { browser } from 'wxt/browser';
import { ApiClientError, type TidemarkApi } from '../api/client/index.js';
import { DEFAULT_HIGHLIGHT_COLOR, TRASH, type HighlightColor } from '../api/constants.js';
import type { Bookmark, HighlightChange } from '../api/types.js';
import { normalizeUrl } from '../api/url.js';
import { t } from '../i18n.js';
import type { Account, StoredHighlight } from '../model.js';
import { serverIdOf, type BookmarkRef } from '../bookmark-ref.js';
import type { AnchorStatus, HighlightListItem, HighlightListView, PageHighlightsView, PopupOpenResult } from '../messaging/protocol.js';
import { UserFacingError } from '../messaging/router.js';
import { autoPaintAskedItem, highlightIdsItem } from '../storage/items.js';
import { colorChoice, noteColorUse } from './highlight-colors.js';
import { fromServer, keyMap } from './highlight-keys.js';
import { writeHighlights, writeLabel } from './highlight-writes.js';
import { tabCommand } from './highlighter-injection.js';
import { autoPaintGranted } from './highlighter-registration.js';
import { cachedPage, forgetPages, rememberPage, type Page } from './highlights-cache.js';
import { isLocalKey, type QueuedHighlightChange, type WriteQueue } from './queue.js';
import { isOffline, savedIdOf, userError } from './server-answers.js';
import { applied, pick } from './stored-highlights.js';

interface HighlightsDeps {
  api: TidemarkApi;
  queue: WriteQueue;
  account: () => Promise<Account | null>;
  /** The saved-link index: hit, null (not saved) or undefined (cannot say). */
  lookup: (key: string) => { id: number; collectionId: number } | null | undefined;
  /** The popup's "open or save": finds the page's bookmark and creates it when asked. */
  openForTab: (tabId: number, opts: { create: boolean }) => Promise<PopupOpenResult>;
  onSaved: (bookmark: Bookmark) => void;
  newKey?: () => string;
}

export class HighlightsService {
  readonly #newKey: () => string;
  /** Highlights removed just now, for Undo (their notes come back). */
  readonly #removed = new Map<string, StoredHighlight>();
  /** "Highlight with note": the popup opens the note editor of this highlight. */
  #noteRequest: string | null = null;
  /** Writes (and local-copy updates) run one at a time, so none overwrites another's local copy. */
  #writes: Promise<unknown> = Promise.resolve();

  readonly #deps: HighlightsDeps;

  constructor(deps: HighlightsDeps) {
    this.#deps = deps;
    this.#newKey = deps.newKey ?? (() => crypto.randomUUID());
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(fn);
    // The chain goes on after a failed write; that write's caller gets its error from `run`.
    this.#writes = run.catch(() => {});
    return run;
  }

  #fromServer(list: Bookmark['highlights']): Promise<StoredHighlight[]> {
    return fromServer(this.#deps.queue, list);
  }

  #put(ref: BookmarkRef, changes: QueuedHighlightChange[], label: string): Promise<Bookmark | null> {
    return writeHighlights({ ...this.#deps, newKey: this.#newKey }, ref, changes, label);
  }

  /** Signing out: the pages' highlights are forgotten; `keepIds` keeps the local-key map queued writes still need. */
  async forgetAll(opts: { keepIds?: boolean } = {}): Promise<void> {
    this.#removed.clear();
    await this.#serial(async () => {
      await forgetPages();
      if (!opts.keepIds) await highlightIdsItem.setValue({});
    });
  }

  /**
   * A queued highlight write reached the server: its answer, with the changes still waiting on top,
   * is the page's highlights now.
   */
  noteDelivered(bookmark: Bookmark): Promise<void> {
    return this.#serial(async () => {
      const key = normalizeUrl(bookmark.link);
      if (!key) return;
      const { toServer } = await keyMap(this.#deps.queue);
      const items = await this.#fromServer(bookmark.highlights);
      for (const c of await this.#deps.queue.pendingHighlightChanges(bookmark._id)) {
        if (!c._id) {
          if (c._local && c.text) items.push({ key: c._local, text: c.text, color: c.color ?? DEFAULT_HIGHLIGHT_COLOR, note: c.note ?? '', ...pick(c) });
          continue;
        }
        const at = items.findIndex((i) => i.key === c._id || toServer(i.key) === toServer(c._id!));
        if (at < 0) continue;
        if (c.text === '') items.splice(at, 1);
        else items[at] = applied(items[at], c);
      }
      await rememberPage({ key, ref: `b:${bookmark._id}`, items });
    });
  }

  // --- finding the page ---

  async #tabUrl(tabId: number, fallback?: string): Promise<string> {
    const tab = await browser.tabs.get(tabId).catch(() => null);
    const url = tab?.url || fallback;
    if (!url) throw new UserFacingError(t('errorNoTabAccess'), 'unsupported');
    return url;
  }

  /**
   * The page's bookmark and highlights: the server's when reachable, else the local copy. `known`:
   * the bookmark's id when the caller knows it (the library's reader), found by the address otherwise.
   */
  async page(url: string, known?: number): Promise<Page> {
    const key = normalizeUrl(url);
    if (!key) throw new UserFacingError(t('errorNotWebPage'), 'unsupported');
    if (!(await this.#deps.account())) throw new UserFacingError(t('errorSignedOut'), 'signed-out');
    const cached = await cachedPage(key);
    const queued = await this.#deps.queue.pendingCreate((link) => normalizeUrl(link) === key);
    if (queued) return { key, ref: queued.ref, items: cached?.ref === queued.ref ? cached.items : [] };
    let id: number | null | undefined;
    const hit = known ? { id: known } : this.#deps.lookup(key);
    if (hit) id = hit.id;
    else if (hit === null) id = null;
    else {
      try {
        const res = await this.#deps.api.urlExists([url], { retries: 0 });
        id = savedIdOf(res, key);
      } catch (err) {
        if (!isOffline(err)) throw userError(err);
        id = cached ? serverIdOf(cached.ref) : null;
      }
    }
    if (!id) return { key, ref: cached?.ref ?? null, items: cached?.items ?? [] };
    // Writes still queued for this bookmark: the local copy already has them.
    if ((await this.#deps.queue.busy()) && cached && serverIdOf(await this.#deps.queue.serverRef(cached.ref)) === id) {
      return { key, ref: `b:${id}`, items: cached.items };
    }
    try {
      const b = await this.#deps.api.getBookmark(id);
      if (b.removed || b.collectionId === TRASH) return { key, ref: null, items: [] };
      const page: Page = { key, ref: `b:${id}`, items: await this.#fromServer(b.highlights) };
      await rememberPage(page);
      return page;
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 404) return { key, ref: null, items: [] };
      if (!isOffline(err)) throw userError(err);
      return { key, ref: `b:${id}`, items: cached?.items ?? [] };
    }
  }

  async view(page: Page): Promise<PageHighlightsView> {
    return {
      highlights: page.items.map(({ note, ...h }) => ({ ...h, hasNote: note.trim() !== '' })),
      ...(await colorChoice()),
    };
  }

  // --- changes ---

  /**
   * Adds a highlight to the sender's page, saving the page as a bookmark first when it is not saved.
   * `known`: the bookmark's id, from the library's reader (no tab, nothing to save).
   */
  async add(
    tabId: number,
    url: string,
    h: { text: string; position?: number; prefix?: string; suffix?: string; color: HighlightColor; restore?: string; withNote?: boolean },
    known?: number,
  ): Promise<PageHighlightsView & { key: string }> {
    return this.#serial(() => this.#doAdd(tabId, url, h, known));
  }

  async #doAdd(
    tabId: number,
    url: string,
    h: { text: string; position?: number; prefix?: string; suffix?: string; color: HighlightColor; restore?: string; withNote?: boolean },
    known?: number,
  ): Promise<PageHighlightsView & { key: string }> {
    let page = await this.page(url, known);
    if (!page.ref && known) throw new UserFacingError(t('errorHighlightGone'), 'not-found');
    if (!page.ref) {
      // As the toolbar button's save would: the popup's own flow (never a duplicate).
      const opened = await this.#deps.openForTab(tabId, { create: true });
      if (opened.state === 'signed-out') throw new UserFacingError(t('errorSignedOut'), 'signed-out');
      if (opened.state !== 'saved') throw new UserFacingError(opened.state === 'unsupported' ? opened.reason : t('errorNotWebPage'), 'unsupported');
      page = { ...page, ref: opened.bookmark.ref, items: [] };
    }
    const restored = h.restore ? this.#removed.get(h.restore) : undefined;
    const change: HighlightChange = { text: h.text, color: h.color, ...pick(h) };
    if (restored?.note) change.note = restored.note;
    const before = new Set(page.items.map((i) => i.key));
    const local = `l:${this.#newKey()}`;
    const b = await this.#put(page.ref!, [{ ...change, _local: local }], writeLabel(h.text));
    let key: string;
    if (b) {
      const items = await this.#fromServer(b.highlights);
      const added = items.filter((i) => !before.has(i.key));
      key = (added.find((i) => i.text === h.text && i.prefix === h.prefix) ?? added[added.length - 1])?.key ?? '';
      page = { ...page, ref: `b:${b._id}`, items };
    } else {
      key = local;
      const item: StoredHighlight = { key, text: h.text, color: h.color, note: restored?.note ?? '', ...pick(h) };
      page = { ...page, items: [...page.items, item] };
    }
    if (h.restore) this.#removed.delete(h.restore);
    await rememberPage(page);
    await noteColorUse(h.color);
    if (h.withNote) this.#noteRequest = key;
    return { ...(await this.view(page)), key };
  }

  /**
   * The page's highlight named `key` (a local key or a server id, whichever the page has), and the id
   * a change should name: the server's, or the local key while its add still waits in the queue.
   */
  async #target(page: Page, key: string): Promise<{ item: StoredHighlight; id: string }> {
    const { toServer, alias } = await keyMap(this.#deps.queue);
    const item =
      page.items.find((i) => i.key === key) ??
      page.items.find((i) => i.key === alias(key)) ??
      page.items.find((i) => toServer(i.key) === toServer(key));
    if (!page.ref || !item) throw new UserFacingError(t('errorHighlightGone'), 'not-found');
    let id = toServer(item.key);
    if (isLocalKey(id) && !(await this.#deps.queue.busy())) {
      // Nothing waits in the queue, so its add was delivered just now (or refused).
      id = (await keyMap(this.#deps.queue)).toServer(item.key);
      if (isLocalKey(id)) throw new UserFacingError(t('errorHighlightGone'), 'not-found');
    }
    return { item, id };
  }

  change(url: string, key: string, fields: { color?: HighlightColor; note?: string }, known?: number): Promise<Page> {
    return this.#serial(async () => {
      let page = await this.page(url, known);
      const { item, id } = await this.#target(page, key);
      const b = await this.#put(page.ref!, [{ _id: id, ...fields }], writeLabel(item.text));
      if (b) page = { ...page, ref: `b:${b._id}`, items: await this.#fromServer(b.highlights) };
      else page = { ...page, items: page.items.map((i) => (i.key === item.key ? { ...i, ...fields } : i)) };
      await rememberPage(page);
      if (fields.color) await noteColorUse(fields.color);
      return page;
    });
  }

  remove(url: string, key: string, known?: number): Promise<Page> {
    return this.#serial(async () => {
      let page = await this.page(url, known);
      const { item, id } = await this.#target(page, key);
      const b = await this.#put(page.ref!, [{ _id: id, text: '' }], writeLabel(item.text));
      if (b) page = { ...page, ref: `b:${b._id}`, items: await this.#fromServer(b.highlights) };
      else page = { ...page, items: page.items.filter((i) => i.key !== item.key) };
      this.#removed.set(key, item);
      if (this.#removed.size > 20) this.#removed.delete(this.#removed.keys().next().value!);
      await rememberPage(page);
      return page;
    });
  }

  // --- the tab's highlighter ---

  /** Whether a page may have highlights to paint (saved, or saved offline). Cheap: the index first. */
  async maybeSaved(url: string): Promise<boolean> {
    const key = normalizeUrl(url);
    if (!key || !(await this.#deps.account())) return false;
    const hit = this.#deps.lookup(key);
    if (hit) return true;
    if ((await cachedPage(key))?.items.length) return true;
    if (hit === null) return false;
    return (await this.page(url)).ref !== null;
  }

  async list(tabId: number): Promise<HighlightListView> {
    const page = await this.page(await this.#tabUrl(tabId));
    let statuses: AnchorStatus[] | null = null;
    if (page.items.length) statuses = await tabCommand(tabId, 'status', null).catch(() => null);
    const byKey = new Map(statuses?.map((s) => [s.key, s]) ?? []);
    const item = (h: StoredHighlight): HighlightListItem => ({
      key: h.key,
      text: h.text,
      color: h.color,
      note: h.note,
      status: statuses ? (byKey.get(h.key)?.status ?? 'orphan') : 'unknown',
    });
    const found = page.items
      .filter((h) => byKey.get(h.key)?.status === 'anchored')
      .sort((a, b) => byKey.get(a.key)!.start - byKey.get(b.key)!.start)
      .map(item);
    const notFound = statuses ? page.items.filter((h) => byKey.get(h.key)?.status !== 'anchored').map(item) : [];
    if (!statuses) found.push(...page.items.map(item));
    const editNoteOf = this.#noteRequest;
    this.#noteRequest = null;
    // Asked on any saved page, not only once highlights exist: without it, selecting text does nothing.
    const askAutoPaint = !(await autoPaintAskedItem.getValue()) && !(await autoPaintGranted());
    return { found, notFound, askAutoPaint, editNoteOf };
  }

  async setNote(tabId: number, key: string, note: string): Promise<HighlightListView> {
    await this.change(await this.#tabUrl(tabId), key, { note });
    // The note is saved; a tab without the highlighter (not injected yet, closed) has nothing to repaint.
    await tabCommand(tabId, 'refresh', null).catch(() => {});
    return this.list(tabId);
  }

  // --- the side panel's changes (named by tab; the page is repainted after each) ---

  async recolorInTab(tabId: number, key: string, color: HighlightColor): Promise<HighlightListView> {
    await this.change(await this.#tabUrl(tabId), key, { color });
    // Saved; a tab without the highlighter (not injected yet, closed) has nothing to repaint.
    await tabCommand(tabId, 'refresh', null).catch(() => {});
    return this.list(tabId);
  }

  async removeInTab(tabId: number, key: string): Promise<HighlightListView> {
    await this.remove(await this.#tabUrl(tabId), key);
    // As above: nothing to repaint without the highlighter.
    await tabCommand(tabId, 'refresh', null).catch(() => {});
    return this.list(tabId);
  }

  /** Undo of removeInTab: the highlight is added again where it was, with its note. */
  async restoreInTab(tabId: number, key: string): Promise<HighlightListView> {
    const item = this.#removed.get(key);
    if (!item) throw new UserFacingError(t('errorNothingToUndo'), 'not-found');
    const { note: _note, key: _key, ...h } = item;
    await this.add(tabId, await this.#tabUrl(tabId), { ...h, restore: key });
    // As above: nothing to repaint without the highlighter.
    await tabCommand(tabId, 'refresh', null).catch(() => {});
    return this.list(tabId);
  }

  /**
   * "Edit note" on the page: the side panel (opened by the caller while the click lasts) shows that
   * highlight's note; without a side panel, the popup is tried. The page never sees notes.
   */
  async editNote(key: string, panel: Promise<boolean> = Promise.resolve(false)): Promise<{ opened: boolean }> {
    this.#noteRequest = key;
    if (await panel) return { opened: true };
    try {
      await (browser.action as unknown as { openPopup(): Promise<void> }).openPopup();
      return { opened: true };
    } catch {
      return { opened: false };
    }
  }
}
