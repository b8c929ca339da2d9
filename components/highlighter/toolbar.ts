// The in-page UI of the highlighter: a small toolbar next to the selection (colour swatches, "Add
// note"; over an existing highlight: change colour, edit note, copy, delete), a toast with Undo, and
// a marker strip at the page's edge. It lives in a shadow root on one element with no attributes,
// so page CSS cannot reach it; it never holds note text or ids (notes are edited in the popup).
// Only trusted (user) events act: a page script cannot click it.
import type { HighlightColor } from '../../lib/api/constants.js';
import { t } from '../../lib/i18n.js';
import { COLOR_VALUES } from '../../lib/painting/styles.js';
import { TOOLBAR_CSS } from './toolbar-css.js';

export interface ToolbarActions {
  /** A swatch on a new selection. */
  highlight(color: HighlightColor, withNote: boolean): void;
  /** A swatch over an existing highlight. */
  recolor(key: string, color: HighlightColor): void;
  editNote(key: string): void;
  copy(key: string): void;
  remove(key: string): void;
  undo(): void;
  /** A mark on the page-edge strip. */
  show(key: string): void;
}

export interface Marker {
  key: string;
  color: HighlightColor;
  /** 0..1: where on the page. */
  at: number;
}

const FIRST_SWATCHES = 4;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

export class Toolbar {
  /** The element in the page: no id, class or data attributes. */
  readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly bar: HTMLDivElement;
  private readonly toast: HTMLDivElement;
  private readonly strip: HTMLDivElement;
  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  private colors: HighlightColor[] = [];
  private expanded = false;
  private target: { kind: 'selection' } | { kind: 'highlight'; key: string; color: HighlightColor; hasNote: boolean } | null = null;
  private at = { x: 0, y: 0 };

  constructor(private readonly actions: ToolbarActions) {
    this.host = document.createElement('tidemark-ui');
    this.host.style.cssText = 'all: initial; position: fixed; top: 0; left: 0; width: 0; height: 0; z-index: 2147483647;';
    this.root = this.host.attachShadow({ mode: 'open' });
    const style = el('style');
    style.textContent = TOOLBAR_CSS;
    this.bar = el('div', { className: 'bar', hidden: true });
    this.bar.setAttribute('role', 'toolbar');
    this.bar.setAttribute('aria-label', t('highlightToolbar'));
    this.bar.tabIndex = -1;
    this.toast = el('div', { className: 'toast', hidden: true });
    this.toast.setAttribute('role', 'status');
    this.strip = el('div', { className: 'strip' });
    this.strip.setAttribute('aria-label', t('highlightMarkers'));
    this.root.append(style, this.bar, this.toast, this.strip);
    // Keep the page's selection: nothing in the toolbar takes it away on press.
    this.bar.addEventListener('mousedown', (e) => e.preventDefault());
    this.root.addEventListener('keydown', (e) => this.onKey(e as KeyboardEvent));
  }

  attach(): void {
    if (!this.host.isConnected) document.documentElement.append(this.host);
  }

  get visible(): boolean {
    return !this.bar.hidden;
  }

  contains(node: EventTarget | null): boolean {
    return node === this.host;
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

  private button(label: string, text: string, onClick: () => void, className = 'btn'): HTMLButtonElement {
    const b = el('button', { type: 'button', className, title: label }, text);
    b.setAttribute('aria-label', label);
    b.addEventListener('click', (e) => {
      if (!e.isTrusted) return;
      e.stopPropagation();
      onClick();
    });
    return b;
  }

  private swatch(color: HighlightColor, pressed: boolean, onPick: (c: HighlightColor) => void): HTMLButtonElement {
    const b = this.button(t(`color_${color}`), '', () => onPick(color), 'swatch');
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
        this.button(t('highlightMoreColors'), '⋯', () => {
          this.expanded = true;
          this.render();
        }),
      );
    }
    if (target.kind === 'selection') {
      parts.push(this.button(t('highlightAddNote'), t('highlightAddNote'), () => this.actions.highlight(this.colors[0] ?? 'yellow', true)));
    } else {
      const key = target.key;
      parts.push(
        this.button(target.hasNote ? t('highlightEditNote') : t('highlightAddNote'), target.hasNote ? t('highlightEditNote') : t('highlightAddNote'), () =>
          this.actions.editNote(key),
        ),
        this.button(t('highlightCopy'), t('highlightCopy'), () => this.actions.copy(key)),
        this.button(t('highlightDelete'), t('highlightDelete'), () => this.actions.remove(key)),
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
    this.attach();
    this.target = { kind: 'selection' };
    this.expanded = false;
    this.at = { x: rect.left + rect.width / 2, y: rect.top };
    this.bar.hidden = false;
    this.render();
  }

  /** Over an existing highlight clicked at (x, y). */
  showForHighlight(key: string, color: HighlightColor, hasNote: boolean, x: number, y: number): void {
    this.attach();
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
    this.attach();
    clearTimeout(this.toastTimer);
    const parts: (Node | string)[] = [el('span', {}, message)];
    if (undo) parts.push(this.button(t('highlightUndo'), t('highlightUndo'), () => this.actions.undo(), 'btn undo'));
    this.toast.replaceChildren(...parts);
    this.toast.hidden = false;
    this.toastTimer = setTimeout(() => {
      this.toast.hidden = true;
    }, 6000);
  }

  hideToast(): void {
    clearTimeout(this.toastTimer);
    this.toast.hidden = true;
  }

  /** The page-edge strip: one mark per painted highlight. */
  setMarkers(markers: Marker[]): void {
    if (markers.length) this.attach();
    this.strip.replaceChildren(
      ...markers.map((m) => {
        const b = this.button(t('highlightGoTo'), '', () => this.actions.show(m.key), 'mark');
        b.style.top = `${(m.at * 100).toFixed(2)}%`;
        b.style.background = COLOR_VALUES[m.color].replace(/[\d.]+\)$/, '0.95)');
        return b;
      }),
    );
  }

  destroy(): void {
    clearTimeout(this.toastTimer);
    this.host.remove();
  }
}
