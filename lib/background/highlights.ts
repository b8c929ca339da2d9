// The background's side of highlighting: finds a page's bookmark and its highlights, writes highlight
// changes (PUT /bookmark/{id} `highlights: [...]`, online first, else through the offline queue),
// keeps a local copy per page, and injects the content-side highlighter into tabs on demand.
// Content scripts only ever get what is needed to paint (never notes or tokens).
//
// A highlight made offline gets a local key (`l:<uuid>`) and keeps it on this device: it can be
// recoloured, noted and deleted before it is delivered (the queue folds those into its add), and once
// delivered its server id is looked up from the key (lib/background/queue.ts records it), so pages
// painted with the local key keep working, also after the service worker restarts.
import { browser } from 'wxt/browser';
import { ApiClientError, type TidemarkApi } from '../api/client/index.js';
import { DEFAULT_HIGHLIGHT_COLOR, HIGHLIGHT_COLORS, TRASH, type HighlightColor } from '../api/constants.js';
import type { Bookmark, HighlightChange } from '../api/types.js';
import { normalizeUrl } from '../api/url.js';
import { t } from '../i18n.js';
import { serverIdOf, type Account, type BookmarkRef, type HighlightsCacheEntry, type StoredHighlight } from '../model.js';
import type {
  AnchorStatus,
  HighlightListItem,
  HighlightListView,
  PageHighlightsView,
  PopupOpenResult,
  TabCommand,
} from '../messaging/protocol.js';
import { UserFacingError } from '../messaging/router.js';
import { ALWAYS_HAS_HIGHLIGHT_API } from '../browser-differences.js';
import { frameLacksHighlightApi } from '../painting/fallback-probe.js';
import { autoPaintAskedItem, highlightColorsItem, highlightIdsItem, highlightsCacheItem } from '../storage/items.js';
import { isLocalKey, type QueuedHighlightChange, type WriteQueue } from './queue.js';
import { isOffline, savedIdOf, userError } from './server-answers.js';

/** Built by WXT from entrypoints/highlighter-loader.ts and entrypoints/highlighter.ts. */
export const LOADER_FILE = '/highlighter-loader.js';
export const HIGHLIGHTER_FILE = '/highlighter.js' as const;
/** The rangy painter, injected before the highlighter only where the CSS Custom Highlight API is missing. */
export const FALLBACK_PAINTER_FILE = '/highlighter-fallback-painter.js' as const;
export const LOADER_SCRIPT_ID = 'tidemark-highlighter';
/** What automatic painting asks for (optional host permission). */
export const AUTO_PAINT_ORIGINS = ['http://*/*', 'https://*/*'];
const CACHE_PAGES = 300;

export interface HighlightsDeps {
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

export function storedOf(h: Bookmark['highlights'][number]): StoredHighlight {
  return { key: h._id, text: h.text, color: h.color, note: h.note ?? '', ...pick(h) };
}

/**
 * The order colours are offered in before any is used: yellow (the API's default), green, blue,
 * pink first, then the rest in the API's order.
 */
export const STARTER_COLORS: readonly HighlightColor[] = [
  ...(['yellow', 'green', 'blue', 'pink'] as const),
  ...HIGHLIGHT_COLORS.filter((c) => !['yellow', 'green', 'blue', 'pink'].includes(c)),
];

/** Colours ordered by use (most used first, then the starter order). */
export function colorsByUse(counts: Partial<Record<HighlightColor, number>>): HighlightColor[] {
  return [...STARTER_COLORS].sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || STARTER_COLORS.indexOf(a) - STARTER_COLORS.indexOf(b));
}

interface Page {
  key: string;
  ref: BookmarkRef | null;
  items: StoredHighlight[];
}

export class HighlightsService {
  private readonly newKey: () => string;
  /** Highlights removed just now, for Undo (their notes come back). */
  private readonly removed = new Map<string, StoredHighlight>();
  /** "Highlight with note": the popup opens the note editor of this highlight. */
  private noteRequest: string | null = null;
  /** Writes (and local-copy updates) run one at a time, so none overwrites another's local copy. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private deps: HighlightsDeps) {
    this.newKey = deps.newKey ?? (() => crypto.randomUUID());
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writes.then(fn);
    // The chain goes on after a failed write; that write's caller gets its error from `run`.
    this.writes = run.catch(() => {});
    return run;
  }

  // --- local keys of highlights made offline ---

  /** Local key <-> server id for highlights made offline and delivered since. */
  private async keyMap(): Promise<{ toServer: (key: string) => string; alias: (id: string) => string }> {
    const ids = await this.deps.queue.highlightIds();
    const reverse = new Map(Object.entries(ids).map(([local, e]) => [e.id, local]));
    return {
      toServer: (key) => (isLocalKey(key) ? (ids[key]?.id ?? key) : key),
      alias: (id) => reverse.get(id) ?? id,
    };
  }

  /** The server's highlights as kept here: one made offline on this device keeps its local key. */
  private async fromServer(list: Bookmark['highlights']): Promise<StoredHighlight[]> {
    const { alias } = await this.keyMap();
    return list.map((h) => ({ ...storedOf(h), key: alias(h._id) }));
  }

  // --- the local copy ---

  private async cached(key: string): Promise<HighlightsCacheEntry | undefined> {
    return (await highlightsCacheItem.getValue())[key];
  }

  private async remember(page: Page): Promise<void> {
    if (!page.ref) return;
    // A copy: the storage item hands out its fallback object itself when nothing is stored.
    const all = { ...(await highlightsCacheItem.getValue()) };
    all[page.key] = { ref: page.ref, items: page.items, at: Date.now() };
    const keys = Object.keys(all);
    if (keys.length > CACHE_PAGES) {
      keys.sort((a, b) => all[a].at - all[b].at);
      for (const k of keys.slice(0, keys.length - CACHE_PAGES)) delete all[k];
    }
    await highlightsCacheItem.setValue(all);
  }

  /** Signing out: the pages' highlights are forgotten; `keepIds` keeps the local-key map queued writes still need. */
  async forgetAll(opts: { keepIds?: boolean } = {}): Promise<void> {
    this.removed.clear();
    await this.serial(async () => {
      await highlightsCacheItem.setValue({});
      if (!opts.keepIds) await highlightIdsItem.setValue({});
    });
  }

  /**
   * A queued highlight write reached the server: its answer, with the changes still waiting on top,
   * is the page's highlights now.
   */
  noteDelivered(bookmark: Bookmark): Promise<void> {
    return this.serial(async () => {
      const key = normalizeUrl(bookmark.link);
      if (!key) return;
      const { toServer } = await this.keyMap();
      const items = await this.fromServer(bookmark.highlights);
      for (const c of await this.deps.queue.pendingHighlightChanges(bookmark._id)) {
        if (!c._id) {
          if (c._local && c.text) items.push({ key: c._local, text: c.text, color: c.color ?? DEFAULT_HIGHLIGHT_COLOR, note: c.note ?? '', ...pick(c) });
          continue;
        }
        const at = items.findIndex((i) => i.key === c._id || toServer(i.key) === toServer(c._id!));
        if (at < 0) continue;
        if (c.text === '') items.splice(at, 1);
        else items[at] = applied(items[at], c);
      }
      await this.remember({ key, ref: `b:${bookmark._id}`, items });
    });
  }

  // --- finding the page ---

  private async tabUrl(tabId: number, fallback?: string): Promise<string> {
    const tab = await browser.tabs.get(tabId).catch(() => null);
    const url = tab?.url || fallback;
    if (!url) throw new UserFacingError(t('errorNoTabAccess'), 'unsupported');
    return url;
  }

  /** The page's bookmark and highlights: the server's when reachable, else the local copy. */
  async page(url: string): Promise<Page> {
    const key = normalizeUrl(url);
    if (!key) throw new UserFacingError(t('errorNotWebPage'), 'unsupported');
    if (!(await this.deps.account())) throw new UserFacingError(t('errorSignedOut'), 'signed-out');
    const cached = await this.cached(key);
    const queued = await this.deps.queue.pendingCreate((link) => normalizeUrl(link) === key);
    if (queued) return { key, ref: queued.ref, items: cached?.ref === queued.ref ? cached.items : [] };
    let id: number | null | undefined;
    const hit = this.deps.lookup(key);
    if (hit) id = hit.id;
    else if (hit === null) id = null;
    else {
      try {
        const res = await this.deps.api.urlExists([url], { retries: 0 });
        id = savedIdOf(res, key);
      } catch (err) {
        if (!isOffline(err)) throw userError(err);
        id = cached ? serverIdOf(cached.ref) : null;
      }
    }
    if (!id) return { key, ref: cached?.ref ?? null, items: cached?.items ?? [] };
    // Writes still queued for this bookmark: the local copy already has them.
    if ((await this.deps.queue.busy()) && cached && serverIdOf(await this.deps.queue.serverRef(cached.ref)) === id) {
      return { key, ref: `b:${id}`, items: cached.items };
    }
    try {
      const b = await this.deps.api.getBookmark(id);
      if (b.removed || b.collectionId === TRASH) return { key, ref: null, items: [] };
      const page: Page = { key, ref: `b:${id}`, items: await this.fromServer(b.highlights) };
      await this.remember(page);
      return page;
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 404) return { key, ref: null, items: [] };
      if (!isOffline(err)) throw userError(err);
      return { key, ref: `b:${id}`, items: cached?.items ?? [] };
    }
  }

  async view(page: Page): Promise<PageHighlightsView> {
    const colors = await highlightColorsItem.getValue();
    return {
      highlights: page.items.map(({ note, ...h }) => ({ ...h, hasNote: note.trim() !== '' })),
      colors: colorsByUse(colors.counts),
      lastColor: colors.last,
    };
  }

  // --- writes ---

  /**
   * PUT /bookmark/{id} with `highlights`; queued when the server cannot be reached, or when a change
   * names a highlight whose add still waits in the queue (local key). Null: queued.
   */
  private async put(ref: BookmarkRef, changes: QueuedHighlightChange[], label: string): Promise<Bookmark | null> {
    const account = await this.deps.account();
    if (!account) throw new UserFacingError(t('errorSignedOut'), 'signed-out');
    const resolved = await this.deps.queue.serverRef(ref);
    const id = serverIdOf(resolved);
    const key = this.newKey();
    let tried = false;
    if (id !== null && !changes.some((c) => isLocalKey(c._id)) && !(await this.deps.queue.busy())) {
      try {
        // The same body the queue would send for it (without the local marks), so a repeat under this key is recognised.
        const highlights: HighlightChange[] = changes.map(({ _local: _mark, ...c }) => c);
        const b = await this.deps.api.updateBookmark(id, { highlights }, { idempotencyKey: key, retries: 1 });
        this.deps.onSaved(b);
        return b;
      } catch (err) {
        if (!isOffline(err)) throw userError(err);
        // The server may have taken it (only the answer was lost): the queue repeats it as it is.
        tried = true;
      }
    }
    await this.deps.queue.enqueue(
      { op: 'update', ref: resolved, body: { highlights: changes }, key, userId: account.userId, serverUrl: account.serverUrl, label },
      { tried },
    );
    return null;
  }

  private async noteColor(color: HighlightColor): Promise<void> {
    const c = await highlightColorsItem.getValue();
    await highlightColorsItem.setValue({ counts: { ...c.counts, [color]: (c.counts[color] ?? 0) + 1 }, last: color });
  }

  /** Adds a highlight to the sender's page, saving the page as a bookmark first when it is not saved. */
  async add(
    tabId: number,
    url: string,
    h: { text: string; position?: number; prefix?: string; suffix?: string; color: HighlightColor; restore?: string; withNote?: boolean },
  ): Promise<PageHighlightsView & { key: string }> {
    return this.serial(() => this.doAdd(tabId, url, h));
  }

  private async doAdd(
    tabId: number,
    url: string,
    h: { text: string; position?: number; prefix?: string; suffix?: string; color: HighlightColor; restore?: string; withNote?: boolean },
  ): Promise<PageHighlightsView & { key: string }> {
    let page = await this.page(url);
    if (!page.ref) {
      // As the toolbar button's save would: the popup's own flow (never a duplicate).
      const opened = await this.deps.openForTab(tabId, { create: true });
      if (opened.state === 'signed-out') throw new UserFacingError(t('errorSignedOut'), 'signed-out');
      if (opened.state !== 'saved') throw new UserFacingError(opened.state === 'unsupported' ? opened.reason : t('errorNotWebPage'), 'unsupported');
      page = { ...page, ref: opened.bookmark.ref, items: [] };
    }
    const restored = h.restore ? this.removed.get(h.restore) : undefined;
    const change: HighlightChange = { text: h.text, color: h.color, ...pick(h) };
    if (restored?.note) change.note = restored.note;
    const before = new Set(page.items.map((i) => i.key));
    const local = `l:${this.newKey()}`;
    const b = await this.put(page.ref!, [{ ...change, _local: local }], labelOf(h.text));
    let key: string;
    if (b) {
      const items = await this.fromServer(b.highlights);
      const added = items.filter((i) => !before.has(i.key));
      key = (added.find((i) => i.text === h.text && i.prefix === h.prefix) ?? added[added.length - 1])?.key ?? '';
      page = { ...page, ref: `b:${b._id}`, items };
    } else {
      key = local;
      const item: StoredHighlight = { key, text: h.text, color: h.color, note: restored?.note ?? '', ...pick(h) };
      page = { ...page, items: [...page.items, item] };
    }
    if (h.restore) this.removed.delete(h.restore);
    await this.remember(page);
    await this.noteColor(h.color);
    if (h.withNote) this.noteRequest = key;
    return { ...(await this.view(page)), key };
  }

  /**
   * The page's highlight named `key` (a local key or a server id, whichever the page has), and the id
   * a change should name: the server's, or the local key while its add still waits in the queue.
   */
  private async target(page: Page, key: string): Promise<{ item: StoredHighlight; id: string }> {
    const { toServer, alias } = await this.keyMap();
    const item =
      page.items.find((i) => i.key === key) ??
      page.items.find((i) => i.key === alias(key)) ??
      page.items.find((i) => toServer(i.key) === toServer(key));
    if (!page.ref || !item) throw new UserFacingError(t('errorHighlightGone'), 'not-found');
    let id = toServer(item.key);
    if (isLocalKey(id) && !(await this.deps.queue.busy())) {
      // Nothing waits in the queue, so its add was delivered just now (or refused).
      id = (await this.keyMap()).toServer(item.key);
      if (isLocalKey(id)) throw new UserFacingError(t('errorHighlightGone'), 'not-found');
    }
    return { item, id };
  }

  change(url: string, key: string, fields: { color?: HighlightColor; note?: string }): Promise<Page> {
    return this.serial(async () => {
      let page = await this.page(url);
      const { item, id } = await this.target(page, key);
      const b = await this.put(page.ref!, [{ _id: id, ...fields }], labelOf(item.text));
      if (b) page = { ...page, ref: `b:${b._id}`, items: await this.fromServer(b.highlights) };
      else page = { ...page, items: page.items.map((i) => (i.key === item.key ? { ...i, ...fields } : i)) };
      await this.remember(page);
      if (fields.color) await this.noteColor(fields.color);
      return page;
    });
  }

  remove(url: string, key: string): Promise<Page> {
    return this.serial(async () => {
      let page = await this.page(url);
      const { item, id } = await this.target(page, key);
      const b = await this.put(page.ref!, [{ _id: id, text: '' }], labelOf(item.text));
      if (b) page = { ...page, ref: `b:${b._id}`, items: await this.fromServer(b.highlights) };
      else page = { ...page, items: page.items.filter((i) => i.key !== item.key) };
      this.removed.set(key, item);
      if (this.removed.size > 20) this.removed.delete(this.removed.keys().next().value!);
      await this.remember(page);
      return page;
    });
  }

  // --- the tab's highlighter ---

  /** Whether a page may have highlights to paint (saved, or saved offline). Cheap: the index first. */
  async maybeSaved(url: string): Promise<boolean> {
    const key = normalizeUrl(url);
    if (!key || !(await this.deps.account())) return false;
    const hit = this.deps.lookup(key);
    if (hit) return true;
    if ((await this.cached(key))?.items.length) return true;
    if (hit === null) return false;
    return (await this.page(url)).ref !== null;
  }

  /** Injects the highlighter into a tab (needs a host permission or activeTab); once per frame. */
  async inject(tabId: number, frameId = 0): Promise<void> {
    const target = { tabId, frameIds: [frameId] };
    const [probe] = ALWAYS_HAS_HIGHLIGHT_API ? [] : await browser.scripting.executeScript({ target, func: frameLacksHighlightApi });
    const files = probe?.result === true ? [FALLBACK_PAINTER_FILE, HIGHLIGHTER_FILE] : [HIGHLIGHTER_FILE];
    await browser.scripting.executeScript({ target, files });
  }

  /** Sends a command to the tab's highlighter, injecting it first when it is not there. */
  async command<T>(tabId: number, command: TabCommand): Promise<T> {
    try {
      const r = await browser.tabs.sendMessage(tabId, command, { frameId: 0 });
      if (r !== undefined) return r as T;
    } catch {
      /* not injected yet */
    }
    await this.inject(tabId);
    return (await browser.tabs.sendMessage(tabId, command, { frameId: 0 })) as T;
  }

  async list(tabId: number): Promise<HighlightListView> {
    const page = await this.page(await this.tabUrl(tabId));
    let statuses: AnchorStatus[] | null = null;
    if (page.items.length) statuses = await this.command<AnchorStatus[]>(tabId, { tidemark: 'status' }).catch(() => null);
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
    const editNoteOf = this.noteRequest;
    this.noteRequest = null;
    // Asked on any saved page, not only once highlights exist: without it, selecting text does nothing.
    const askAutoPaint = !(await autoPaintAskedItem.getValue()) && !(await this.autoPaintGranted());
    return { found, notFound, askAutoPaint, editNoteOf };
  }

  async setNote(tabId: number, key: string, note: string): Promise<HighlightListView> {
    await this.change(await this.tabUrl(tabId), key, { note });
    // The note is saved; a tab without the highlighter (not injected yet, closed) has nothing to repaint.
    await this.command(tabId, { tidemark: 'refresh' }).catch(() => {});
    return this.list(tabId);
  }

  // --- the side panel's changes (named by tab; the page is repainted after each) ---

  async recolorInTab(tabId: number, key: string, color: HighlightColor): Promise<HighlightListView> {
    await this.change(await this.tabUrl(tabId), key, { color });
    // Saved; a tab without the highlighter (not injected yet, closed) has nothing to repaint.
    await this.command(tabId, { tidemark: 'refresh' }).catch(() => {});
    return this.list(tabId);
  }

  async removeInTab(tabId: number, key: string): Promise<HighlightListView> {
    await this.remove(await this.tabUrl(tabId), key);
    // As above: nothing to repaint without the highlighter.
    await this.command(tabId, { tidemark: 'refresh' }).catch(() => {});
    return this.list(tabId);
  }

  /** Undo of removeInTab: the highlight is added again where it was, with its note. */
  async restoreInTab(tabId: number, key: string): Promise<HighlightListView> {
    const item = this.removed.get(key);
    if (!item) throw new UserFacingError(t('errorNothingToUndo'), 'not-found');
    const { note: _note, key: _key, ...h } = item;
    await this.add(tabId, await this.tabUrl(tabId), { ...h, restore: key });
    // As above: nothing to repaint without the highlighter.
    await this.command(tabId, { tidemark: 'refresh' }).catch(() => {});
    return this.list(tabId);
  }

  /**
   * "Edit note" on the page: the side panel (opened by the caller while the click lasts) shows that
   * highlight's note; without a side panel, the popup is tried. The page never sees notes.
   */
  async editNote(key: string, panel: Promise<boolean> = Promise.resolve(false)): Promise<{ opened: boolean }> {
    this.noteRequest = key;
    if (await panel) return { opened: true };
    try {
      await (browser.action as unknown as { openPopup(): Promise<void> }).openPopup();
      return { opened: true };
    } catch {
      return { opened: false };
    }
  }

  // --- automatic painting (optional host permission) ---

  async autoPaintGranted(): Promise<boolean> {
    return browser.permissions.contains({ origins: AUTO_PAINT_ORIGINS }).catch(() => false);
  }

  /**
   * Registers the small loader for every http(s) origin the extension may read (the optional
   * permission for automatic painting, and the server's host). It paints saved pages on load.
   */
  async syncRegistration(): Promise<void> {
    const origins = ((await browser.permissions.getAll()).origins ?? []).filter((o) => /^(https?|\*):\/\//.test(o));
    const existing = await browser.scripting.getRegisteredContentScripts({ ids: [LOADER_SCRIPT_ID] }).catch(() => []);
    if (existing.length && [...(existing[0].matches ?? [])].sort().join() === [...origins].sort().join()) return;
    // Already gone (unregistered meanwhile) is what we want; registering follows.
    if (existing.length) await browser.scripting.unregisterContentScripts({ ids: [LOADER_SCRIPT_ID] }).catch(() => {});
    if (!origins.length) return;
    await browser.scripting.registerContentScripts([
      { id: LOADER_SCRIPT_ID, js: [LOADER_FILE.slice(1)], matches: origins, runAt: 'document_idle', allFrames: false, persistAcrossSessions: true },
    ]);
  }
}

/** The offline queue's label of a highlight write. */
function labelOf(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return t('queueHighlightLabel', short);
}

/** `item` with the fields a queued change sets. */
function applied(item: StoredHighlight, c: HighlightChange): StoredHighlight {
  const out = { ...item };
  if (c.text !== undefined) out.text = c.text;
  if (c.color !== undefined) out.color = c.color;
  if (c.note !== undefined) out.note = c.note;
  return { ...out, ...pick(c) };
}

/** The anchoring fields of `h` that are set. */
function pick(h: { position?: number; prefix?: string; suffix?: string }) {
  const out: { position?: number; prefix?: string; suffix?: string } = {};
  if (h.position !== undefined) out.position = h.position;
  if (h.prefix !== undefined) out.prefix = h.prefix;
  if (h.suffix !== undefined) out.suffix = h.suffix;
  return out;
}
