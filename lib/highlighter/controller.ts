// The content-side highlighter (injected on demand, see loader.ts): turns selections into highlights
// through the background, paints the page's highlights, re-anchors them after page changes and SPA
// navigations, and answers the background's commands (context menu, keyboard command, popup list).
// It never sees tokens or notes: only what painting needs. Keys live in memory, never in the DOM.
import { browser } from '@wxt-dev/browser';
import { anchorAllSliced, describeRange, type AnchorResult } from '../anchoring/index.js';
import { PageIndex } from './page-index.js';
import type { HighlightColor } from '../api/constants.js';
import { t } from '../i18n.js';
import { send } from '../messaging/client.js';
import type { AnchorStatus, HighlightOutcome, PageHighlight, PageHighlightsView, TabCommand, TabCommandType, TabDataOf, TabResultOf } from '../messaging/protocol.js';
import { framePainter } from '../painting/fallback-slot.js';
import type { Painter } from '../painting/types.js';
import { Toolbar, type Marker } from '../../components/highlighter/toolbar.js';
import { copyText } from './clipboard.js';
import { highlightableSelection } from './editable.js';
import { SELECTION_PENDING_GLOBAL } from './loader.js';

const REANCHOR_DELAY_MS = 400;
/** The browser's own `browser` namespace exists (the webextension-polyfill's own test): listeners may answer with a promise. */
const PROMISE_LISTENERS = (globalThis as { browser?: { runtime?: { id?: string } } }).browser?.runtime?.id !== undefined;

interface Undo {
  label: string;
  run(): Promise<void>;
}

export class Highlighter {
  private painter!: Painter;
  private toolbar: Toolbar;
  private items = new Map<string, PageHighlight>();
  private results = new Map<string, AnchorResult & { start?: number }>();
  private view: PageHighlightsView | null = null;
  private undo: Undo | null = null;
  private observer: MutationObserver | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private markersFrame = 0;
  private url = location.href;
  private ready: Promise<void>;
  /** The page's text index, kept between highlights and re-anchors until the page's text changes. */
  private pageIndex = new PageIndex(
    () => document.body ?? document.documentElement,
    () => this.pageChanged(this.observer?.takeRecords() ?? []),
  );
  /** Counts paintAll runs: a run overtaken by a newer one (the page changed again) stops. */
  private paintRun = 0;

  constructor() {
    this.toolbar = new Toolbar({
      highlight: (color, withNote) => void this.highlightSelection(color, withNote),
      recolor: (key, color) => void this.recolor(key, color),
      editNote: (key) => void this.editNote(key),
      copy: (key) => void this.copy(key),
      remove: (key) => void this.remove(key),
      undo: () => void this.runUndo(),
      show: (key) => void this.show(key),
    });
    // Registered at once, not after the painter loads: the background sends its command as soon as
    // the injection returns. Commands wait for `ready`.
    // The browser's own runtime (no webextension-polyfill in the injected script), answering the way
    // the background's webextension-polyfill expects: where the browser has a native promise-based
    // `browser` (Firefox), the polyfill steps aside and a returned promise is the answer; elsewhere
    // (Chrome) the answer goes through sendResponse, a failure as the polyfill's rejection envelope,
    // which its tabs.sendMessage turns back into a rejection with this message.
    browser.runtime.onMessage.addListener(((message: unknown, sender: { id?: string; tab?: unknown }, sendResponse: (answer: unknown) => void) => {
      if (sender.id !== browser.runtime.id || sender.tab) return undefined;
      // Only the extension itself can send here (tabs.sendMessage), with payloads the compiler has
      // typed from lib/messaging/schemas.ts; the background checks the answers.
      const cmd = message as TabCommand;
      if (!cmd || typeof cmd !== 'object' || !Object.hasOwn(this.commands, cmd.tidemark)) return undefined;
      const run = this.commands[cmd.tidemark] as (data: unknown) => Promise<unknown>;
      const answer = this.ready.then(() => run(cmd.data));
      if (PROMISE_LISTENERS) return answer;
      answer.then(sendResponse, (err: unknown) => {
        sendResponse({ __mozWebExtensionPolyfillReject__: true, message: err instanceof Error ? err.message : String(err) });
      });
      return true;
    }) as Parameters<typeof browser.runtime.onMessage.addListener>[0]);
    this.ready = this.start();
  }

  private async start() {
    this.painter = framePainter(document);
    this.listen();
    // refresh() fails only when the background cannot be reached (the extension was reloaded): the page stays as it is.
    await this.refresh().catch(() => {});
    // The reader's selection that made the loader ask for us (not one made by find in page or a script).
    const g = globalThis as unknown as Record<string, unknown>;
    const pending = g[SELECTION_PENDING_GLOBAL] === true;
    delete g[SELECTION_PENDING_GLOBAL];
    if (pending && highlightableSelection()) this.onSelectionEnd();
  }

  // --- page state ---

  private setView(view: PageHighlightsView) {
    this.view = view;
    this.toolbar.setColors(view.colors);
    const next = new Map(view.highlights.map((h) => [h.key, h]));
    for (const key of this.items.keys()) if (!next.has(key)) this.unpaint(key);
    this.items = next;
  }

  /** Asks the background for the page's highlights and paints them. */
  async refresh(): Promise<void> {
    this.url = location.href;
    this.setView(await send('pageHighlights', null));
    await this.paintAll();
  }

  private unpaint(key: string) {
    this.painter.remove(key);
    this.results.delete(key);
  }

  /**
   * Anchors every highlight in the page as it is now and paints those found. On long pages the index
   * is built and the highlights anchored in slices (no long task); a page change meanwhile starts over.
   */
  async paintAll(): Promise<void> {
    const run = ++this.paintRun;
    const list = [...this.items.values()];
    let results: AnchorResult[] = [];
    if (list.length) {
      for (;;) {
        const { index, generation } = await this.pageIndex.current();
        if (run !== this.paintRun) return;
        results = await anchorAllSliced(index, list.map(({ text, position, prefix, suffix }) => ({ text, position, prefix, suffix })));
        if (run !== this.paintRun) return;
        if (this.pageIndex.generation === generation) break; // else the page changed while anchoring
      }
    }
    this.withoutObserving(() => {
      this.painter.clear();
      this.results.clear();
      const items = [];
      for (let i = 0; i < list.length; i++) {
        const r = results[i];
        this.results.set(list[i].key, r);
        if (r.status === 'anchored') items.push({ key: list[i].key, ranges: r.range, color: list[i].color, hasNote: list[i].hasNote });
      }
      this.painter.paintMany(items);
    });
    if (list.length) this.pageIndex.prepareSearchWhenIdle();
    this.updateMarkers();
  }

  private updateMarkers() {
    const height = Math.max(document.documentElement.scrollHeight, 1);
    const markers: Marker[] = [];
    for (const [key, r] of this.results) {
      if (r.status !== 'anchored') continue;
      const item = this.items.get(key);
      if (!item) continue;
      const top = r.range.getBoundingClientRect().top + window.scrollY;
      markers.push({ key, color: item.color, at: Math.min(0.995, Math.max(0, top / height)) });
    }
    this.withoutObserving(() => this.toolbar.setMarkers(markers));
  }

  /** The page's layout changed without a DOM change (resize, images, fonts): the marks move with the text. */
  private relayoutMarkers() {
    if (this.markersFrame || !this.results.size) return;
    this.markersFrame = requestAnimationFrame(() => {
      this.markersFrame = 0;
      this.updateMarkers();
    });
  }

  // --- page changes ---

  private withoutObserving(fn: () => void) {
    this.pageChanged(this.observer?.takeRecords() ?? []); // the page's own changes before ours
    fn();
    const ours = this.observer?.takeRecords() ?? []; // our own work is not a page change...
    // ...but the fallback painter splits text nodes, so an index kept from before no longer fits.
    if (ours.length > 0 && this.painter.kind === 'class-applier') this.pageIndex.stale();
  }

  /** The page changed (records from the MutationObserver): anchor again if its text may have. */
  private pageChanged(records: readonly MutationRecord[]) {
    const theirs = records.filter((r) => !this.ours(r));
    if (theirs.length > 0 && this.pageIndex.invalidate(theirs)) this.schedule();
  }

  private listen() {
    document.addEventListener('mouseup', (e) => {
      if (!e.isTrusted || this.toolbar.contains(e.target)) return;
      setTimeout(() => this.onSelectionEnd(e), 0);
    });
    document.addEventListener('keyup', (e) => {
      if (e.isTrusted && e.shiftKey && !this.toolbar.contains(e.target)) this.onSelectionEnd();
    });
    document.addEventListener('mousedown', (e) => {
      if (!this.toolbar.contains(e.target)) this.toolbar.hide();
    });
    window.addEventListener('scroll', () => this.toolbar.hide(), { passive: true });
    window.addEventListener('popstate', () => this.schedule());
    // Only changes that can touch the page's text make the index stale (scripts, styles, comments do not).
    this.observer = new MutationObserver((records) => this.pageChanged(records));
    this.observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    new ResizeObserver(() => this.relayoutMarkers()).observe(document.documentElement);
  }

  private ours(r: MutationRecord): boolean {
    const host = this.toolbar.host;
    if (r.target === host) return true;
    const nodes = [...r.addedNodes, ...r.removedNodes];
    return nodes.length > 0 && nodes.every((n) => n === host);
  }

  /** Debounced: after the page changed (or navigated in place), anchor again. */
  private schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // As above: without the background there is nothing to repaint with.
      if (location.href !== this.url) void this.refresh().catch(() => {});
      else if (this.items.size) void this.paintAll();
    }, REANCHOR_DELAY_MS);
  }

  // --- commands from the background ---

  /** The background's commands: one handler per command of TAB_COMMANDS (lib/messaging/schemas.ts). */
  private readonly commands: { [K in TabCommandType]: (data: TabDataOf<K>) => Promise<TabResultOf<K>> } = {
    highlight: ({ color, withNote }) => this.highlightSelection(color, withNote),
    status: () => this.status(),
    show: ({ key }) => this.show(key),
    refresh: async () => {
      await this.refresh();
      return true;
    },
  };

  /** Where each highlight was found (for the popup's list in page order). */
  async status(): Promise<AnchorStatus[]> {
    const { index } = await this.pageIndex.current();
    const out: AnchorStatus[] = [];
    for (const [key, r] of this.results) {
      if (r.status !== 'anchored') out.push({ key, status: r.status, start: -1 });
      else out.push({ key, status: 'anchored', start: index.offsetsOf(r.range)?.start ?? r.start });
    }
    return out;
  }

  async show(key: string): Promise<boolean> {
    if (!this.painter.scrollTo(key, { behavior: 'instant' as ScrollBehavior })) return false;
    return this.painter.flash(key);
  }

  // --- the user's actions ---

  private onSelectionEnd(e?: MouseEvent) {
    const sel = highlightableSelection();
    if (sel) {
      const rect = sel.getRangeAt(0).getBoundingClientRect();
      this.toolbar.showForSelection(rect);
      return;
    }
    if (!e) return;
    const key = this.painter.highlightsAt(e.clientX, e.clientY)[0];
    const item = key ? this.items.get(key) : undefined;
    if (item) this.toolbar.showForHighlight(item.key, item.color, item.hasNote, e.clientX, e.clientY);
  }

  /**
   * THE handler for making a highlight: toolbar swatches, "Add note", the context menu and the
   * keyboard command all come here. `color` null: the last colour used.
   */
  async highlightSelection(color: HighlightColor | null, withNote: boolean): Promise<HighlightOutcome> {
    await this.ready;
    const sel = highlightableSelection();
    if (!sel) return this.fail(t('errorNoSelection'));
    const range = sel.getRangeAt(0).cloneRange();
    // The kept index when the page's text has not changed since (one pass over a long page otherwise).
    const index = this.pageIndex.now();
    const descriptor = describeRange(index, range);
    if (!descriptor) return this.fail(t('errorNoSelection'));
    const offsets = index.offsetsOf(range);
    const chosen = color ?? this.view?.lastColor ?? 'yellow';
    this.toolbar.hide();
    let res: PageHighlightsView & { key: string };
    try {
      res = await send('addHighlight', { ...descriptor, color: chosen, withNote });
    } catch (err) {
      return this.fail((err as Error).message);
    }
    this.setView(res);
    const item = this.items.get(res.key);
    if (item) {
      this.withoutObserving(() => this.painter.paint(res.key, range, { color: item.color, hasNote: item.hasNote }));
      this.results.set(res.key, { status: 'anchored', range, start: offsets?.start ?? 0, end: offsets?.end ?? 0, method: 'exact', score: 1 });
      this.updateMarkers();
    }
    const key = res.key;
    this.undo = { label: t('highlightUndone'), run: () => this.remove(key, false) };
    this.toolbar.notify(t('highlightAdded'), true);
    if (withNote) await this.editNote(key);
    return { ok: true, key };
  }

  private fail(error: string): HighlightOutcome {
    this.toolbar.notify(error);
    return { ok: false, error };
  }

  private async recolor(key: string, color: HighlightColor, undoable = true) {
    const before = this.items.get(key)?.color;
    this.toolbar.hide();
    try {
      this.setView(await send('changeHighlight', { key, color }));
    } catch (err) {
      this.fail((err as Error).message);
      return;
    }
    this.painter.restyle(key, { color });
    this.updateMarkers();
    if (undoable && before) {
      this.undo = { label: t('highlightUndone'), run: () => this.recolor(key, before, false) };
      this.toolbar.notify(t('highlightRecolored'), true);
    }
  }

  private async remove(key: string, undoable = true) {
    const item = this.items.get(key);
    this.toolbar.hide();
    let view: PageHighlightsView;
    try {
      view = await send('removeHighlight', { key });
    } catch (err) {
      this.fail((err as Error).message);
      return;
    }
    this.setView(view);
    this.updateMarkers();
    if (!undoable) {
      this.toolbar.notify(t('highlightUndone'));
      return;
    }
    if (item) {
      const { text, position, prefix, suffix, color } = item;
      this.undo = {
        label: t('highlightUndone'),
        run: async () => {
          const res = await send('addHighlight', { text, position, prefix, suffix, color, restore: key });
          this.setView(res);
          await this.paintAll();
          this.toolbar.notify(t('highlightUndone'));
        },
      };
    }
    this.toolbar.notify(t('highlightRemoved'), !!item);
  }

  private async runUndo() {
    const undo = this.undo;
    this.undo = null;
    this.toolbar.hideToast();
    if (!undo) return;
    try {
      await undo.run();
    } catch (err) {
      this.fail((err as Error).message);
    }
  }

  private async editNote(key: string) {
    this.toolbar.hide();
    const { opened } = await send('editHighlightNote', { key }).catch(() => ({ opened: false }));
    if (!opened) this.toolbar.notify(t('highlightNoteInPopup'));
  }

  private async copy(key: string) {
    this.toolbar.hide();
    const text = this.items.get(key)?.text ?? '';
    this.toolbar.notify((await copyText(text)) ? t('highlightCopied') : t('errorCopy'));
  }
}
