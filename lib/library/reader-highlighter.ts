// Highlights in the library's reader: the bookmark's highlights anchored in the article and painted
// as on live pages (lib/anchoring, lib/painting), and the highlighter's own selection toolbar
// (lib/highlighter/ui) for making, recolouring, noting, copying and deleting them, stored through
// the library's host like any highlight. Notes are the reader's to show (this is Tidemark's own
// page, not a web page): the component is told when one is to be shown or edited.
import type { TextIndex } from '../anchoring/index.js';
import type { HighlightColor } from '../api/constants.js';
import { copyText } from '../highlighter/clipboard.js';
import { PageUi } from '../highlighter/ui/page-ui.js';
import { Toolbar } from '../highlighter/ui/toolbar.js';
import { TOOLBAR_CSS } from '../highlighter/ui/toolbar-css.js';
import { t } from '../i18n.js';
import type { StoredHighlight } from '../model.js';
import { HighlightApiPainter, supportsHighlightApi, type DisposablePainter } from '../painting/index.js';
import { highlightApiCss, NOTE_HIGHLIGHT } from '../painting/styles.js';
import type { LibraryHost } from './host.js';
import { describeSelection, indexArticle, placeHighlights } from './reader-anchoring.js';
import type { ReaderHighlights, ReaderTarget } from './types.js';

type Host = Pick<LibraryHost, 'readerHighlights' | 'addHighlight' | 'changeHighlight' | 'removeHighlight'>;

export interface ReaderHighlightsState {
  /** Found in the article, in its order. */
  found: StoredHighlight[];
  /** Not in the article's text (or not at one place only): listed, never painted. */
  notFound: StoredHighlight[];
}

export interface ReaderHighlighterEvents {
  changed(state: ReaderHighlightsState): void;
  /** A highlight's note to show (a click on it) or to edit (the toolbar's note button); `at`: where, in viewport coordinates. */
  note(key: string, edit: boolean, at: DOMRect): void;
  error(message: string): void;
}

/** The note underline in the reader's palette: the painter's dark dotted line vanishes on the dark one. */
const DARK_NOTE_CSS = `@media (prefers-color-scheme: dark){::highlight(${NOTE_HIGHLIGHT}){text-decoration-color:rgba(236,236,241,.85)}}`;
/** The toolbar is dark on every page; on the reader's dark palette it needs an edge to stand out. */
const DARK_TOOLBAR_CSS = '@media (prefers-color-scheme: dark){.bar,.toast{box-shadow:0 0 0 1px rgba(255,255,255,.18),0 4px 14px rgba(0,0,0,.5)}}';

export class ReaderHighlighter {
  private painter: DisposablePainter | null = null;
  private index: TextIndex | null = null;
  private items: StoredHighlight[] = [];
  private found = new Set<string>();
  private colors: HighlightColor[] = [];
  private lastColor: HighlightColor = 'yellow';
  private readonly ui = new PageUi(() => {});
  private readonly toolbar: Toolbar;
  private readonly sheet: CSSStyleSheet;
  private undo: (() => Promise<void>) | null = null;
  /** What scrolls the article: the reader, under the toolbar placed in the window. */
  private readonly scroller: Element | Document;
  private destroyed = false;
  private selectionTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly host: Host,
    private readonly target: ReaderTarget,
    private readonly events: ReaderHighlighterEvents,
  ) {
    this.toolbar = new Toolbar(this.ui, {
      highlight: (color, withNote) => void this.highlightSelection(color, withNote),
      recolor: (key, color) => void this.change(key, { color }),
      editNote: (key) => this.openNote(key, true),
      copy: (key) => void this.copy(key),
      remove: (key) => void this.remove(key),
      undo: () => void this.runUndo(),
    });
    // Constructed sheets: the web app's policy refuses <style> elements (style-src 'self'), not these.
    const toolbarSheet = new CSSStyleSheet();
    toolbarSheet.replaceSync(TOOLBAR_CSS + DARK_TOOLBAR_CSS);
    this.ui.root.adoptedStyleSheets = [...this.ui.root.adoptedStyleSheets, toolbarSheet];
    this.sheet = new CSSStyleSheet();
    this.sheet.replaceSync(`${highlightApiCss()}\n${DARK_NOTE_CSS}`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, this.sheet];
    root.addEventListener('mouseup', this.onPointerUp);
    root.addEventListener('keyup', this.onKeyUp);
    document.addEventListener('selectionchange', this.onSelectionChange);
    this.scroller = root.closest('.reader') ?? document;
    this.scroller.addEventListener('scroll', this.onScroll, { passive: true });
  }


  /** Loads the highlights, indexes the article and paints what it finds. */
  async start(): Promise<void> {
    // The library runs where the Highlight API exists (the extension's browsers, current phones); rangy's
    // fallback, which rewrites the article's markup, is left to live pages.
    if (!supportsHighlightApi(document)) throw new Error(t('readerNoHighlightApi'));
    const [index, view] = await Promise.all([
      indexArticle(this.root),
      this.host.readerHighlights(this.target),
    ]);
    if (this.destroyed) return;
    // documentStyled: this page has the rules (the sheet above), so the painter marks nothing.
    this.painter = new HighlightApiPainter(document, { documentStyled: true });
    this.index = index;
    await this.apply(view);
  }

  /** The host's answer (after a load or a change) painted again: the reader is small, a full repaint costs little. */
  private async apply(view: ReaderHighlights): Promise<void> {
    this.items = view.items;
    this.colors = view.colors;
    this.lastColor = view.lastColor;
    this.toolbar.setColors(view.colors);
    if (!this.painter || !this.index) return;
    const { placed, notFound } = await placeHighlights(this.index, view.items);
    if (this.destroyed) return;
    this.painter.clear();
    this.painter.paintMany(placed.map(({ highlight: h, result }) => ({ key: h.key, ranges: result.range, color: h.color, hasNote: h.note.trim() !== '' })));
    this.found = new Set(placed.map((p) => p.highlight.key));
    this.events.changed({ found: placed.map((p) => p.highlight), notFound });
  }

  /** Scrolls to a highlight, flashes it and offers its toolbar (the list's buttons: the keyboard's way to it). */
  show(key: string): void {
    const painter = this.painter;
    const item = this.items.find((i) => i.key === key);
    if (!painter || !item || !painter.scrollTo(key)) return;
    void painter.flash(key);
    // Placed once the scroll has been laid out.
    requestAnimationFrame(() => {
      const rect = rangeRect(painter.rangesOf(key));
      if (!rect || this.destroyed) return;
      this.shownAt = this.scrollTop();
      this.toolbar.showForHighlight(key, item.color, item.note.trim() !== '', rect.left + rect.width / 2, rect.top);
      this.ui.root.querySelector<HTMLElement>('.bar button')?.focus();
    });
  }

  /** Saves a highlight's note (from the reader's note editor). */
  async setNote(key: string, note: string): Promise<boolean> {
    return this.change(key, { note });
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.selectionTimer);
    this.root.removeEventListener('mouseup', this.onPointerUp);
    this.root.removeEventListener('keyup', this.onKeyUp);
    document.removeEventListener('selectionchange', this.onSelectionChange);
    this.scroller.removeEventListener('scroll', this.onScroll);
    this.toolbar.destroy();
    this.ui.host.remove();
    this.painter?.destroy();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== this.sheet);
  }

  // --- selection and clicks ---

  private readonly onPointerUp = (e: MouseEvent) => {
    if (e.button !== 0) return;
    if (this.selectionRange()) return this.offerSelection();
    const key = this.painter?.highlightsAt(e.clientX, e.clientY)[0];
    const item = key ? this.items.find((i) => i.key === key) : undefined;
    if (!item) return;
    this.shownAt = this.scrollTop();
    this.toolbar.showForHighlight(item.key, item.color, item.note.trim() !== '', e.clientX, e.clientY);
    if (item.note.trim()) this.openNote(item.key, false);
  };

  /** The reader's scroll position when the toolbar was last shown. */
  private shownAt = 0;
  private scrollTop(): number {
    return this.scroller instanceof Element ? this.scroller.scrollTop : scrollY;
  }

  /**
   * Scrolling the text away takes the toolbar with it. Not a scroll that had already happened when it
   * was shown (its event comes a frame later): the position is compared with the one it was shown at.
   */
  private readonly onScroll = () => {
    if (this.toolbar.visible && Math.abs(this.scrollTop() - this.shownAt) > 24) this.toolbar.hide();
  };

  private readonly onKeyUp = (e: KeyboardEvent) => {
    if (e.key === 'Shift' || e.shiftKey) this.offerSelection();
  };

  /** Touch screens select with a long press and handles, without a mouseup: the toolbar follows the selection once it rests. */
  private readonly onSelectionChange = () => {
    clearTimeout(this.selectionTimer);
    this.selectionTimer = setTimeout(() => {
      if (this.selectionRange()) this.offerSelection();
    }, 350);
  };

  /** The selection when it is text of the article, else null. */
  private selectionRange(): Range | null {
    const sel = getSelection();
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed || !sel.toString().trim()) return null;
    const range = sel.getRangeAt(0);
    return this.root.contains(range.commonAncestorContainer) ? range : null;
  }

  private offerSelection(): void {
    const range = this.selectionRange();
    if (!range || this.toolbar.visible) return;
    this.shownAt = this.scrollTop();
    this.toolbar.showForSelection(range.getBoundingClientRect());
  }

  // --- changes ---

  private async highlightSelection(color: HighlightColor, withNote: boolean): Promise<void> {
    const range = this.selectionRange();
    const index = this.index;
    const painter = this.painter;
    this.toolbar.hide();
    if (!range || !index || !painter) return this.toolbar.notify(t('errorNoSelection'));
    const descriptor = describeSelection(index, range);
    if (!descriptor) return this.toolbar.notify(t('errorNoSelection'));
    const kept = range.cloneRange();
    // Painted at once; it takes its key when the host answers, and goes if it refuses.
    painter.paint('pending', kept, { color });
    getSelection()?.removeAllRanges();
    let res: ReaderHighlights & { key: string };
    try {
      res = await this.host.addHighlight(this.target, { ...descriptor, color });
    } catch (err) {
      painter.remove('pending');
      return this.fail(err);
    }
    painter.remove('pending');
    await this.apply(res);
    const key = res.key;
    this.undo = () => this.remove(key, false);
    this.toolbar.notify(t('highlightAdded'), true);
    if (withNote) this.openNote(key, true);
  }

  private async change(key: string, fields: { color?: HighlightColor; note?: string }, undoable = true): Promise<boolean> {
    const before = this.items.find((i) => i.key === key);
    this.toolbar.hide();
    try {
      await this.apply(await this.host.changeHighlight(this.target, key, fields));
    } catch (err) {
      this.fail(err);
      return false;
    }
    if (fields.color && undoable && before) {
      this.undo = async () => void (await this.change(key, { color: before.color }, false));
      this.toolbar.notify(t('highlightRecolored'), true);
    }
    return true;
  }

  private async remove(key: string, undoable = true): Promise<void> {
    const item = this.items.find((i) => i.key === key);
    this.toolbar.hide();
    try {
      await this.apply(await this.host.removeHighlight(this.target, key));
    } catch (err) {
      return this.fail(err);
    }
    if (!undoable || !item) return this.toolbar.notify(t('highlightUndone'));
    this.undo = async () => {
      const { text, position, prefix, suffix, color, note } = item;
      const res = await this.host.addHighlight(this.target, { text, position, prefix, suffix, color });
      // The note comes back with it.
      await this.apply(note ? await this.host.changeHighlight(this.target, res.key, { note }) : res);
      this.toolbar.notify(t('highlightUndone'));
    };
    this.toolbar.notify(t('highlightRemoved'), true);
  }

  private async runUndo(): Promise<void> {
    const undo = this.undo;
    this.undo = null;
    this.toolbar.hideToast();
    if (!undo) return;
    try {
      await undo();
    } catch (err) {
      this.fail(err);
    }
  }

  private async copy(key: string): Promise<void> {
    this.toolbar.hide();
    const text = this.items.find((i) => i.key === key)?.text ?? '';
    this.toolbar.notify((await copyText(text)) ? t('highlightCopied') : t('errorCopy'));
  }

  private openNote(key: string, edit: boolean): void {
    if (edit) this.toolbar.hide();
    const rect = this.painter && this.found.has(key) ? rangeRect(this.painter.rangesOf(key)) : null;
    this.events.note(key, edit, rect ?? this.root.getBoundingClientRect());
  }

  private fail(err: unknown): void {
    const message = (err as Error).message || String(err);
    this.toolbar.notify(message);
    this.events.error(message);
  }
}

/** The box around a highlight's ranges (viewport coordinates), null when it has none. */
function rangeRect(ranges: AbstractRange[]): DOMRect | null {
  const first = ranges[0];
  if (!first) return null;
  const r = document.createRange();
  r.setStart(first.startContainer, first.startOffset);
  const last = ranges[ranges.length - 1]!;
  r.setEnd(last.endContainer, last.endOffset);
  return r.getBoundingClientRect();
}
