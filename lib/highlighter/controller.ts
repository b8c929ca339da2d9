// The content-side highlighter (injected on demand, see loader.ts): paints the page's highlights,
// re-anchors them after page changes and SPA navigations, and answers the background's commands
// (context menu, keyboard command, popup list). What painting stored highlights does not need is
// loaded on demand (parts.ts): the editor (selection toolbar, making and changing highlights, see
// editor.ts) and approximate anchoring. It never sees tokens or notes: only what painting needs.
// Keys live in memory, never in the DOM.
import { browser } from '@wxt-dev/browser';
import { NEEDS_APPROXIMATE, anchorAllSliced } from '../anchoring/anchor.js';
import type { AnchorResult } from '../anchoring/types.js';
import { SHOWING_ATTRIBUTES } from '../anchoring/visibility.js';
import { PageIndex } from './page-index.js';
import { send } from '../messaging/client.js';
import type { HighlightColor } from '../api/constants.js';
import type { AnchorStatus, PageHighlight, PageHighlightsView, TabCommand, TabCommandType, TabDataOf, TabResultOf } from '../messaging/protocol.js';
import { framePainter } from '../painting/fallback-slot.js';
import { supportsHighlightApi } from '../painting/highlight-api-painter.js';
import type { Painter } from '../painting/types.js';
import type { ScopeMarker } from '../painting/scope-marks.js';
import { PageUi, type Marker } from './ui/page-ui.js';
import type { Editor, EditorHost, HighlightOutcome, PlacedResult } from './editor-host.js';
import { SELECTION_PENDING_GLOBAL, STYLES_REGISTERED_GLOBAL } from './loader.js';
import { loadPart, loadedPart } from './parts.js';

const REANCHOR_DELAY_MS = 400;

/** refresh() fails when the background cannot be reached (the extension was reloaded or updated): the page keeps what it shows. */
const repaintFailed = (err: unknown) => console.error('Tidemark could not repaint the highlights; reload the page.', err);
/** Approximate anchoring could not be loaded (the extension reloaded or updated, the injection refused). */
const approximateFailed = (err: unknown) => {
  console.error('Tidemark could not load its search for changed text; reload the page.', err);
  return null;
};
/** The browser's own `browser` namespace exists (the webextension-polyfill's own test): listeners may answer with a promise. */
const PROMISE_LISTENERS = (globalThis as { browser?: { runtime?: { id?: string } } }).browser?.runtime?.id !== undefined;

export class Highlighter implements EditorHost {
  painter!: Painter;
  readonly ui = new PageUi((key) => void this.show(key));
  items = new Map<string, PageHighlight>();
  private results = new Map<string, PlacedResult>();
  view: PageHighlightsView | null = null;
  /** The editor once loaded (parts.ts). */
  private editor: Editor | null = null;
  private observer: MutationObserver | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private markersFrame = 0;
  private markersSoon = false;
  private url = location.href;
  private ready: Promise<void>;
  /** The page's text index, kept between highlights and re-anchors until the page's text changes. */
  readonly pageIndex = new PageIndex(
    () => document.body ?? document.documentElement,
    () => this.pageChanged(this.observer?.takeRecords() ?? []),
  );
  /** Counts anchoring runs: a run overtaken by a newer one (the page changed again) stops. */
  private paintRun = 0;
  /** The latest run anchors all of the page's highlights and has not painted yet. */
  private fullRun = false;
  /**
   * Highlights picked for anchoring again by runs that have not painted yet: a run overtaken by a newer
   * one (the page changed again meanwhile) hands its unfound ones on, as the changes that made them worth
   * a try are taken (PageIndex.mayPlace).
   */
  private retry = new Set<string>();

  constructor() {
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
    const g = globalThis as unknown as Record<string, unknown>;
    const documentStyled = g[STYLES_REGISTERED_GLOBAL] === true;
    // The rare frame without the CSS Custom Highlight API paints with rangy's class applier, a part of its
    // own. Should it fail to load (the error goes to the console), framePainter throws the reader's error.
    const api = supportsHighlightApi(document);
    if (!api) await loadPart('fallback-painter').catch(console.error);
    // Without the registered sheet (injected by a click), the Highlight API painter marks the parents of
    // highlighted text for its scoped sheet: that code is a part of its own, not parsed on other pages.
    // Should that script fail to load (the error, which says so, goes to the console), the highlights
    // are still painted, with an unscoped sheet: the page is restyled once, slower on a long page.
    const marks = documentStyled || !api ? undefined : ((await loadPart('scope-marks').then((make) => make(), console.error)) as ScopeMarker | undefined);
    this.painter = framePainter(document, { documentStyled, marks });
    this.listen();
    await this.refresh().catch(repaintFailed);
    // The reader's selection that made the loader ask for us (not one made by find in page or a script).
    const pending = g[SELECTION_PENDING_GLOBAL] === true;
    delete g[SELECTION_PENDING_GLOBAL];
    if (pending) this.onSelectionEnd();
  }

  // --- page state ---

  setView(view: PageHighlightsView): void {
    this.view = view;
    this.editor?.setColors(view.colors);
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

  placed(key: string, result: PlacedResult): void {
    this.setResult(key, result);
  }

  private unpaint(key: string) {
    this.painter.remove(key);
    this.results.delete(key);
  }

  /**
   * Anchors every highlight in the page as it is now and paints those found. On long pages the index
   * is built and the highlights anchored in slices (no long task); a page change meanwhile starts over.
   */
  paintAll(): Promise<void> {
    return this.anchorAndPaint();
  }

  /**
   * After the page changed: anchors again only the highlights the change may have moved, cut or made
   * findable: placed ones whose range no longer reads the text it was painted on (the others' ranges
   * followed the DOM and are still right), and unfound ones whose text the changes may have brought
   * (PageIndex.mayPlace: text re-read near where they could be, an element shown; all of them when the
   * index was built anew). A clock ticking or a comment added far from every highlight then costs a
   * range check per placed highlight and a small search per unfound one, not anchoring them. Everything is
   * anchored again while a run for everything is under way (it would start over anyway), and with the
   * fallback painter (its spans split the page's text nodes).
   */
  private repaintChanged(): void {
    // Asked only when some highlight is unfound: it brings the index up to date (a patch) at once.
    let mayPlace: ((d: PageHighlight) => boolean) | undefined;
    const only =
      this.fullRun || this.painter.kind === 'class-applier'
        ? undefined
        : [...this.items.values()].filter((h) => {
            const r = this.results.get(h.key);
            return r?.status !== 'anchored' ? this.retry.has(h.key) || (mayPlace ??= this.pageIndex.mayPlace())(h) : r.range.toString() !== r.painted;
          });
    only?.forEach((h) => this.retry.add(h.key));
    if (!only || only.length) void this.anchorAndPaint(only);
  }

  /** Anchors the page's highlights (`only` those, painted in place of their old paint) and paints them. */
  private async anchorAndPaint(only?: PageHighlight[]): Promise<void> {
    const run = ++this.paintRun;
    const list = only ?? [...this.items.values()];
    this.fullRun = !only;
    let results: AnchorResult[] = [];
    if (list.length) {
      for (;;) {
        const { index, generation } = await this.pageIndex.current();
        if (run !== this.paintRun) return;
        const descriptors = list.map(({ text, position, prefix, suffix }) => ({ text, position, prefix, suffix }));
        // Approximate anchoring is asked for at the first highlight that needs it, while the others are
        // anchored: those after its arrival use it at once; only the ones before are anchored again.
        results = await anchorAllSliced(index, descriptors, {
          get approximate() {
            return loadedPart('approximate');
          },
          // A failure is reported once, below, where these highlights are answered.
          needsApproximate: () => void loadPart('approximate').catch(() => undefined),
        });
        if (run !== this.paintRun) return;
        // Highlights exact anchoring could not place: approximate anchoring, loaded for them.
        const pending = descriptors.filter((_, i) => results[i] === NEEDS_APPROXIMATE);
        if (pending.length) {
          // Should its script fail to load, those highlights stay NEEDS_APPROXIMATE (not found) and the
          // others are painted all the same.
          const approximate = await loadPart('approximate').catch(approximateFailed);
          if (run !== this.paintRun) return;
          const placed = approximate ? await anchorAllSliced(index, pending, { approximate }) : null;
          if (run !== this.paintRun) return;
          let next = 0;
          if (placed) results = results.map((r) => (r === NEEDS_APPROXIMATE ? placed[next++] : r));
        }
        if (this.pageIndex.generation === generation) break; // else the page changed while anchoring
      }
    }
    this.fullRun = false;
    this.retry.clear();
    this.withoutObserving(() => {
      if (only) for (const { key } of only) this.unpaint(key);
      else {
        this.painter.clear();
        this.results.clear();
      }
      const items = [];
      for (let i = 0; i < list.length; i++) {
        const r = results[i];
        this.setResult(list[i].key, r);
        if (r.status === 'anchored') items.push({ key: list[i].key, ranges: r.range, color: list[i].color, hasNote: list[i].hasNote });
      }
      this.painter.paintMany(items);
      this.observe();
    });
    if (list.length) this.pageIndex.prepareSearchWhenIdle();
    this.updateMarkers();
  }

  /** Records where a highlight was found, and the text it is painted on (see repaintChanged). */
  private setResult(key: string, r: PlacedResult): void {
    if (r.status === 'anchored') r.painted = r.range.toString();
    this.results.set(key, r);
  }

  /**
   * Places the marks after the frame that shows the highlights, not in the task that paints them: on a long
   * page that frame is the slowest (reading 100 ranges' boxes and making their marks cost a few ms more
   * before it), and a mark is of no use before its highlight shows. Not in a hidden tab (no frames).
   */
  updateMarkers(): void {
    if (this.markersSoon) return;
    this.markersSoon = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.markersSoon = false;
        this.placeMarkers();
      }),
    );
  }

  private placeMarkers(): void {
    const height = Math.max(document.documentElement.scrollHeight, 1);
    const markers: Marker[] = [];
    for (const [key, r] of this.results) {
      if (r.status !== 'anchored') continue;
      const item = this.items.get(key);
      if (!item) continue;
      const top = r.range.getBoundingClientRect().top + window.scrollY;
      markers.push({ key, color: item.color, at: Math.min(0.995, Math.max(0, top / height)) });
    }
    this.withoutObserving(() => this.ui.setMarkers(markers));
  }

  /** The page's layout changed without a DOM change (resize, images, fonts): the marks move with the text. */
  private relayoutMarkers() {
    if (this.markersFrame || !this.results.size) return;
    this.markersFrame = requestAnimationFrame(() => {
      this.markersFrame = 0;
      this.placeMarkers();
    });
  }

  // --- page changes ---

  withoutObserving(fn: () => void): void {
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
      if (!e.isTrusted || this.ui.contains(e.target)) return;
      setTimeout(() => this.onSelectionEnd(e), 0);
    });
    document.addEventListener('keyup', (e) => {
      if (e.isTrusted && e.shiftKey && !this.ui.contains(e.target)) this.onSelectionEnd();
    });
    // While a selection is being made, the editor is loaded already, so that the toolbar (or a
    // highlight command) at its end does not wait for the editor's injection.
    const preload = () => {
      if (this.editor || document.getSelection()?.isCollapsed !== false) return;
      document.removeEventListener('selectionchange', preload);
      // A failed load is reported when the editor is needed (onSelectionEnd, highlightSelection).
      this.loadEditor().catch(() => document.addEventListener('selectionchange', preload));
    };
    document.addEventListener('selectionchange', preload);
    document.addEventListener('mousedown', (e) => {
      if (!this.ui.contains(e.target)) this.editor?.hide();
    });
    window.addEventListener('scroll', () => this.editor?.hide(), { passive: true });
    window.addEventListener('popstate', () => this.schedule());
    // Only changes that can touch the page's text make the index stale (scripts, styles, comments do not).
    this.observer = new MutationObserver((records) => this.pageChanged(records));
    this.observe();
    new ResizeObserver(() => this.relayoutMarkers()).observe(document.documentElement);
  }

  /**
   * Observes the page's text changes and, while some highlights are not found, the attributes that can
   * show hidden text (a <details> opened, a tab panel's class, `hidden`, `style`): the index patcher walks
   * such an element again once the changes settle (no style is read here), and the unfound are retried.
   */
  private observe() {
    const unfound = [...this.results.values()].some((r) => r.status !== 'anchored');
    this.observer?.observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributeFilter: unfound ? SHOWING_ATTRIBUTES : [] });
  }

  private ours(r: MutationRecord): boolean {
    const host = this.ui.host;
    if (r.target === host) return true;
    const nodes = [...r.addedNodes, ...r.removedNodes];
    return nodes.length > 0 && nodes.every((n) => n === host);
  }

  /** Debounced: after the page changed (or navigated in place), anchor again. */
  private schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (location.href !== this.url) void this.refresh().catch(repaintFailed);
      else if (this.items.size) this.repaintChanged();
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

  /**
   * Where each highlight was found (for the popup's list in page order). `start` ranks the placed ones in
   * document order, read from their ranges as they are now: highlights left in place after a page change
   * keep ranges that followed the DOM, while the offsets they were anchored at may be out of date.
   */
  async status(): Promise<AnchorStatus[]> {
    const out: AnchorStatus[] = [];
    const placed: Array<{ key: string; range: Range; start?: number }> = [];
    for (const [key, r] of this.results) {
      if (r.status !== 'anchored') out.push({ key, status: r.status, start: -1 });
      else placed.push({ key, range: r.range, start: r.start });
    }
    placed.sort((a, b) => {
      try {
        return a.range.compareBoundaryPoints(Range.START_TO_START, b.range);
      } catch {
        // Ranges in different trees (one in an open shadow root) cannot be compared: by where each was found.
        return (a.start ?? 0) - (b.start ?? 0);
      }
    });
    placed.forEach(({ key }, rank) => out.push({ key, status: 'anchored', start: rank }));
    return out;
  }

  async show(key: string): Promise<boolean> {
    if (!this.painter.scrollTo(key, { behavior: 'instant' as ScrollBehavior })) return false;
    // Shown once scrolled to: the answer does not wait for the flash (the tab may close during it).
    void this.painter.flash(key);
    return true;
  }

  // --- the user's actions (the editor, loaded on the first one) ---

  private loadEditor(): Promise<Editor> {
    if (this.editor) return Promise.resolve(this.editor);
    return loadPart('editor').then((factory) => (this.editor ??= factory(this)));
  }

  /**
   * A selection ended, or a click landed: the editor is loaded when there is a selection (it decides
   * whether the selection is one to offer its toolbar for: not in form fields or editable content)
   * or when a painted highlight was clicked.
   */
  private onSelectionEnd(e?: MouseEvent) {
    const selected = document.getSelection()?.isCollapsed === false;
    // A click on a highlight (ours only: the editor's own, painted before its answer came, too).
    if (!selected && !(e && this.painter.highlightsAt(e.clientX, e.clientY).length)) return;
    this.loadEditor().then(
      (editor) => editor.onSelectionEnd(e),
      // Nothing on the page to show it in: the console is where a failed load is seen.
      (err: unknown) => console.error('Tidemark: the highlight toolbar could not be loaded.', err),
    );
  }

  /** Making a highlight (context menu, keyboard command): through the editor. */
  async highlightSelection(color: HighlightColor | null, withNote: boolean): Promise<HighlightOutcome> {
    // Only called as a command, which waits for `ready` (see the constructor).
    let editor: Editor;
    try {
      editor = await this.loadEditor();
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
    return editor.highlightSelection(color, withNote);
  }
}
