// The selection toolbar of the highlighter (in the on-demand editor script): next to a selection,
// colour swatches and "Add note"; over an existing highlight, change colour, edit note, copy, delete;
// and a toast with Undo. It lives in the shadow root of the page's Tidemark element (page-ui.ts), so
// page CSS cannot reach it; it never holds note text or ids (notes are edited in the side panel).
// Only trusted (user) events act: a page script cannot click it.
import type { HighlightColor } from '../../api/constants.js';
import { t } from '../../i18n.js';
import { COLOR_VALUES } from '../../painting/styles.js';
import { button, el, type PageUi } from './page-ui.js';
import { TOOLBAR_CSS } from './toolbar-css.js';

interface ToolbarActions {
  /** A swatch on a new selection. */
  highlight(color: HighlightColor, withNote: boolean): void;
  /** A swatch over an existing highlight. */
  recolor(key: string, color: HighlightColor): void;
  editNote(key: string): void;
  copy(key: string): void;
  remove(key: string): void;
  undo(): void;
}

const FIRST_SWATCHES = 4;
/** How long a toast stays after it appears, or after the pointer or focus leaves it. */
const TOAST_MS = 6000;

export class Toolbar {
  private readonly bar: HTMLDivElement;
  private readonly toast: HTMLDivElement;
  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  private colors: HighlightColor[] = [];
  private expanded = false;
  private target: { kind: 'selection' } | { kind: 'highlight'; key: string; color: HighlightColor; hasNote: boolean } | null = null;
  private at = { x: 0, y: 0 };

  constructor(
    private readonly ui: PageUi,
    private readonly actions: ToolbarActions,
  ) {
    const style = el('style');
    style.textContent = TOOLBAR_CSS;
    this.bar = el('div', { className: 'bar', hidden: true });
    this.bar.setAttribute('role', 'toolbar');
    this.bar.setAttribute('aria-label', t('highlightToolbar'));
    this.bar.tabIndex = -1;
    this.toast = el('div', { className: 'toast', hidden: true });
    this.toast.setAttribute('role', 'status');
    ui.root.append(style, this.bar, this.toast);
    // Leaving the toast gives the reader its whole time again.
    this.toast.addEventListener('mouseleave', () => this.restartToastTime());
    this.toast.addEventListener('focusout', () => this.restartToastTime());
    // Keep the page's selection: nothing in the toolbar takes it away on press.
    this.bar.addEventListener('mousedown', (e) => e.preventDefault());
    ui.root.addEventListener('keydown', (e) => this.onKey(e as KeyboardEvent));
  }

  get visible(): boolean {
    return !this.bar.hidden;
  }

  setColors(colors: HighlightColor[]): void {
    this.colors = colors;
  }

  private onKey(e: KeyboardEvent) {
    if (!e.isTrusted) return;
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z') {
      e.preventDefault();
      e.stopPropagation();
      this.actions.undo();
    } else if (e.key === 'Escape') {
      this.hide();
    }
  }

  private swatch(color: HighlightColor, pressed: boolean, onPick: (c: HighlightColor) => void): HTMLButtonElement {
    const b = button(t(`color_${color}`), '', () => onPick(color), 'swatch');
    b.style.background = COLOR_VALUES[color].replace(/[\d.]+\)$/, '0.9)');
    b.setAttribute('aria-pressed', String(pressed));
    return b;
  }

  private render() {
    const target = this.target;
    if (!target) return;
    const current = target.kind === 'highlight' ? target.color : null;
    const shown = this.expanded ? this.colors : this.colors.slice(0, FIRST_SWATCHES);
    const pick = (c: HighlightColor) => (target.kind === 'selection' ? this.actions.highlight(c, false) : this.actions.recolor(target.key, c));
    const parts: HTMLElement[] = shown.map((c) => this.swatch(c, c === current, pick));
    if (!this.expanded) {
      parts.push(
        button(t('highlightMoreColors'), '⋯', () => {
          this.expanded = true;
          this.render();
        }),
      );
    }
    if (target.kind === 'selection') {
      parts.push(button(t('highlightAddNote'), t('highlightAddNote'), () => this.actions.highlight(this.colors[0] ?? 'yellow', true)));
    } else {
      const key = target.key;
      parts.push(
        button(target.hasNote ? t('highlightEditNote') : t('highlightAddNote'), target.hasNote ? t('highlightEditNote') : t('highlightAddNote'), () =>
          this.actions.editNote(key),
        ),
        button(t('highlightCopy'), t('highlightCopy'), () => this.actions.copy(key)),
        button(t('highlightDelete'), t('highlightDelete'), () => this.actions.remove(key)),
      );
    }
    this.bar.replaceChildren(...parts);
    this.place();
  }

  private place() {
    const w = this.bar.offsetWidth || 200;
    const x = Math.max(4, Math.min(this.at.x - w / 2, window.innerWidth - w - 4));
    const y = this.at.y < 48 ? this.at.y + 28 : this.at.y - 40;
    this.bar.style.left = `${x}px`;
    this.bar.style.top = `${Math.max(4, y)}px`;
  }

  /** Over a new selection; `rect` is the selection's box (viewport coordinates). */
  showForSelection(rect: DOMRect): void {
    this.ui.attach();
    this.target = { kind: 'selection' };
    this.expanded = false;
    this.at = { x: rect.left + rect.width / 2, y: rect.top };
    this.bar.hidden = false;
    this.render();
  }

  /** Over an existing highlight clicked at (x, y). */
  showForHighlight(key: string, color: HighlightColor, hasNote: boolean, x: number, y: number): void {
    this.ui.attach();
    this.target = { kind: 'highlight', key, color, hasNote };
    this.expanded = false;
    this.at = { x, y };
    this.bar.hidden = false;
    this.render();
  }

  hide(): void {
    this.bar.hidden = true;
    this.target = null;
  }

  /** A message with an optional Undo button; focused, so Ctrl/Cmd+Z works at once. */
  notify(message: string, undo = false): void {
    this.ui.attach();
    clearTimeout(this.toastTimer);
    const parts: (Node | string)[] = [el('span', {}, message)];
    if (undo) parts.push(button(t('highlightUndo'), t('highlightUndo'), () => this.actions.undo(), 'btn undo'));
    this.toast.replaceChildren(...parts);
    this.toast.hidden = false;
    this.restartToastTime();
  }

  /**
   * The toast goes when its time is up, unless the pointer is over it or focus is in it (someone
   * about to press Undo): then it waits for another turn.
   */
  private restartToastTime(): void {
    clearTimeout(this.toastTimer);
    if (this.toast.hidden) return;
    this.toastTimer = setTimeout(() => {
      if (this.toast.matches(':hover') || this.toast.contains(this.ui.root.activeElement)) this.restartToastTime();
      else this.toast.hidden = true;
    }, TOAST_MS);
  }

  hideToast(): void {
    clearTimeout(this.toastTimer);
    this.toast.hidden = true;
  }

  destroy(): void {
    clearTimeout(this.toastTimer);
    this.bar.remove();
    this.toast.remove();
  }
}
