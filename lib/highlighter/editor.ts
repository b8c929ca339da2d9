// The highlighter's editor (injected on demand, see parts.ts): the selection toolbar, and making,
// recolouring, deleting (with Undo) and copying highlights through the background. It changes the
// page's painted state through the highlighter (EditorHost). It never sees tokens or notes.
import { describeOffsets } from '../anchoring/describe.js';
import { offsetsOf } from '../anchoring/range-offsets.js';
import type { HighlightColor } from '../api/constants.js';
import { t } from '../i18n.js';
import { send } from '../messaging/client.js';
import type { PageHighlightsView } from '../messaging/protocol.js';
import { Toolbar } from './ui/toolbar.js';
import { FirstFrameOverlay } from '../painting/first-frame-overlay.js';
import { afterNextFrame } from './after-frame.js';
import { copyText } from './clipboard.js';
import { highlightableSelection } from './editable.js';
import type { Editor, EditorHost, HighlightOutcome } from './editor-host.js';
import { paintNew } from './paint-new.js';

/** Numbers the highlights painted before their key is known. */
let pendingCount = 0;

interface Undo {
  label: string;
  run(): Promise<void>;
}

export class HighlightEditor implements Editor {
  private readonly toolbar: Toolbar;
  private undo: Undo | null = null;
  /** Highlights painted before the background answered: their key once it has (null: refused). */
  private readonly pending = new Map<string, Promise<string | null>>();
  /** Draws a new highlight's first frame (Highlight API painter only: see paint-new.ts). */
  private readonly overlay: FirstFrameOverlay | null;

  constructor(private readonly host: EditorHost) {
    this.toolbar = new Toolbar(host.ui, {
      highlight: (color, withNote) => void this.highlightSelection(color, withNote, true),
      recolor: (key, color) => void this.recolor(key, color),
      editNote: (key) => void this.editNote(key),
      copy: (key) => void this.copy(key),
      remove: (key) => void this.remove(key),
      undo: () => void this.runUndo(),
    });
    this.toolbar.setColors(host.view?.colors ?? []);
    this.overlay = host.painter.kind === 'highlight-api' ? new FirstFrameOverlay(host.ui.root) : null;
  }

  setColors(colors: HighlightColor[]): void {
    this.toolbar.setColors(colors);
  }

  hide(): void {
    this.toolbar.hide();
  }

  onSelectionEnd(e?: MouseEvent): void {
    const sel = highlightableSelection();
    if (sel) {
      const rect = sel.getRangeAt(0).getBoundingClientRect();
      this.toolbar.showForSelection(rect);
      // Sized in the frame that shows the toolbar, so that a command's first frame changes nothing else.
      this.overlay?.prepare();
      return;
    }
    if (!e) return;
    const key = this.host.painter.highlightsAt(e.clientX, e.clientY)[0];
    const show = (k: string | null | undefined) => {
      const item = k ? this.host.items.get(k) : undefined;
      if (item) this.toolbar.showForHighlight(item.key, item.color, item.hasNote, e.clientX, e.clientY);
    };
    // Clicked while it is being saved: its toolbar once it is.
    const saving = key ? this.pending.get(key) : undefined;
    if (saving) void saving.then(show);
    else show(key);
  }

  /**
   * `fromToolbar`: a click on the toolbar, whose own restyle (the button pressed) makes its frame the
   * page's whole repaint anyway: the painter paints at once. A command (context menu, keyboard) draws
   * the first frame on the overlay.
   */
  async highlightSelection(color: HighlightColor | null, withNote: boolean, fromToolbar = false): Promise<HighlightOutcome> {
    const host = this.host;
    const sel = highlightableSelection();
    if (!sel) return this.fail(t('errorNoSelection'));
    const range = sel.getRangeAt(0).cloneRange();
    const chosen = color ?? host.view?.lastColor ?? 'yellow';
    // Shown at once, before it is described and before the background and the server answer (a
    // save can take a while); it takes the highlight's key when they do, and goes away if they refuse
    // it. Only with the Highlight API, which leaves the page's DOM as it is (the fallback painter's
    // spans would be unwrapped and wrapped again, breaking the range): there it is painted once the
    // key is known. The toolbar goes with the painter's paint, so the first frame has nothing else to do.
    const pending = `pending-${++pendingCount}`;
    const early = host.painter.kind === 'highlight-api';
    const hideToolbar = () => this.toolbar.hide();
    const shown = early ? paintNew(host.painter, fromToolbar ? null : this.overlay, pending, range, chosen, hideToolbar).painted : Promise.resolve(hideToolbar());
    let settle!: (key: string | null) => void;
    this.pending.set(pending, new Promise((resolve) => (settle = resolve)));
    const drop = (error: string) => {
      host.painter.remove(pending);
      this.pending.delete(pending);
      settle(null);
      return this.fail(error);
    };
    // Described once the frame that shows it is rendered: on a long page, bringing the kept index up
    // to date after a change and describing take milliseconds that frame need not wait for.
    await shown;
    if (early) await afterNextFrame();
    // The kept index when the page's text has not changed since (one pass over a long page otherwise).
    const index = host.pageIndex.now();
    // Not describeRange: its `instanceof TextIndex` would not know the highlighter's index (a class of another script).
    const offsets = offsetsOf(index, range);
    const descriptor = offsets && describeOffsets(index, offsets.start, offsets.end);
    if (!descriptor) return drop(t('errorNoSelection'));
    let res: PageHighlightsView & { key: string };
    try {
      res = await send('addHighlight', { ...descriptor, color: chosen, withNote });
    } catch (err) {
      return drop((err as Error).message);
    }
    host.setView(res);
    const item = host.items.get(res.key);
    host.painter.remove(pending);
    if (item) {
      host.withoutObserving(() => host.painter.paint(res.key, range, { color: item.color, hasNote: item.hasNote }));
      host.placed(res.key, { status: 'anchored', range, start: offsets.start, end: offsets.end, method: 'exact', score: 1 });
      host.updateMarkers();
    }
    this.pending.delete(pending);
    settle(res.key);
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
    const host = this.host;
    const before = host.items.get(key)?.color;
    this.toolbar.hide();
    try {
      host.setView(await send('changeHighlight', { key, color }));
    } catch (err) {
      this.fail((err as Error).message);
      return;
    }
    host.painter.restyle(key, { color });
    host.updateMarkers();
    if (undoable && before) {
      this.undo = { label: t('highlightUndone'), run: () => this.recolor(key, before, false) };
      this.toolbar.notify(t('highlightRecolored'), true);
    }
  }

  private async remove(key: string, undoable = true) {
    const host = this.host;
    const item = host.items.get(key);
    this.toolbar.hide();
    let view: PageHighlightsView;
    try {
      view = await send('removeHighlight', { key });
    } catch (err) {
      this.fail((err as Error).message);
      return;
    }
    host.setView(view);
    host.updateMarkers();
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
          host.setView(res);
          await host.paintAll();
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
    const text = this.host.items.get(key)?.text ?? '';
    this.toolbar.notify((await copyText(text)) ? t('highlightCopied') : t('errorCopy'));
  }
}
