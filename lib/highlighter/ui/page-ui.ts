// The highlighter's element in the page: one element with no attributes holding a shadow root, so page
// CSS cannot reach what is inside, with the marker strip at the page's edge (one mark per painted
// highlight). The selection toolbar and its toast (toolbar.ts, in the on-demand editor script) are put
// into the same shadow root. Only trusted (user) events act: a page script cannot click it.
import type { HighlightColor } from '../../api/constants.js';
import { t } from '../../i18n.js';
import { COLOR_VALUES } from '../../painting/styles.js';

export interface Marker {
  key: string;
  color: HighlightColor;
  /** 0..1: where on the page. */
  at: number;
}

// Without spaces: this is part of the injected highlighter.js, whose 15 KB gzipped budget is nearly full
// (bench/README.md). The host is in the top layer (below): a page's own
// `::backdrop` rule must not draw over the page behind it.
const STRIP_CSS =
  ':host{all:initial}:host::backdrop{display:none!important}' +
  '.strip{position:fixed;top:0;right:0;width:8px;height:100vh;pointer-events:none}' +
  '.mark{position:absolute;right:0;width:8px;height:4px;padding:0;border:0;border-radius:2px 0 0 2px;pointer-events:auto;cursor:pointer}';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

/** A button that acts on trusted clicks only, labelled for assistive technology. */
export function button(label: string, text: string, onClick: () => void, className = 'btn'): HTMLButtonElement {
  const b = el('button', { type: 'button', className, title: label }, text);
  b.setAttribute('aria-label', label);
  b.addEventListener('click', (e) => {
    if (!e.isTrusted) return;
    e.stopPropagation();
    onClick();
  });
  return b;
}

export class PageUi {
  /** The element in the page: no id, class or data attributes. */
  readonly host: HTMLElement;
  readonly root: ShadowRoot;
  private readonly strip: HTMLDivElement;

  /** `show`: a mark on the strip was clicked. */
  constructor(private readonly show: (key: string) => void) {
    this.host = document.createElement('tidemark-ui');
    this.host.style.cssText = 'all:initial;position:fixed;top:0;left:0;width:0;height:0;z-index:2147483647';
    // Shown in the top layer, above the page: a fixed element added to a long page makes Chromium's next
    // frame walk the whole page (bench/anchoring/frame-costs.ts), a top-layer one does not. Where the
    // page hides it (hidePopover), it stays fixed on top.
    this.host.popover = 'manual';
    this.root = this.host.attachShadow({ mode: 'open' });
    const style = el('style');
    style.textContent = STRIP_CSS;
    this.strip = el('div', { className: 'strip' });
    this.root.append(style, this.strip);
  }

  attach(): void {
    if (this.host.isConnected) return;
    // Labelled here, not when the highlighter starts: the first message read costs a few ms (Chromium
    // fetches the extension's messages then), which would come before the page's highlights are painted.
    this.strip.setAttribute('aria-label', t('highlightMarkers'));
    document.documentElement.append(this.host);
    // Not in an XML document, whose elements have no popover.
    this.host.showPopover?.();
  }

  contains(node: EventTarget | null): boolean {
    return node === this.host;
  }

  /** The page-edge strip: one mark per painted highlight. */
  setMarkers(markers: Marker[]): void {
    if (markers.length) this.attach();
    this.strip.replaceChildren(
      ...markers.map((m) => {
        const b = button(t('highlightGoTo'), '', () => this.show(m.key), 'mark');
        b.style.top = `${(m.at * 100).toFixed(2)}%`;
        b.style.background = COLOR_VALUES[m.color].replace(/[\d.]+\)$/, '0.95)');
        return b;
      }),
    );
  }
}
