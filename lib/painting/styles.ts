/**
 * The painter's CSS: `::highlight()` rules for the Highlight API and class rules for the fallback.
 * Injected once per document (or shadow root) as an adopted style sheet, or one <style> element where
 * constructable style sheets are unavailable. Styles only: nothing about notes or ids goes into the page.
 */
import { HIGHLIGHT_COLORS, type HighlightColor } from './types.js';

export const NAME_PREFIX = 'tidemark';
export const NOTE_HIGHLIGHT = `${NAME_PREFIX}-note`;
export const FLASH_HIGHLIGHT = `${NAME_PREFIX}-flash`;

/** Name of a colour's highlight in CSS.highlights. */
export function highlightName(color: HighlightColor): string {
  return `${NAME_PREFIX}-${color}`;
}

/** Class name the fallback painter puts on wrapper spans of a colour. */
export function colorClass(color: HighlightColor | 'flash'): string {
  return `${NAME_PREFIX}-hl-${color}`;
}

/** Background colours, translucent so text stays readable on light and dark pages. */
export const COLOR_VALUES: Record<HighlightColor, string> = {
  blue: 'rgba(66, 133, 244, 0.32)',
  brown: 'rgba(141, 110, 99, 0.36)',
  cyan: 'rgba(0, 188, 212, 0.32)',
  gray: 'rgba(158, 158, 158, 0.4)',
  green: 'rgba(76, 175, 80, 0.34)',
  indigo: 'rgba(92, 107, 192, 0.34)',
  orange: 'rgba(255, 152, 0, 0.36)',
  pink: 'rgba(236, 64, 122, 0.3)',
  purple: 'rgba(156, 39, 176, 0.28)',
  red: 'rgba(244, 67, 54, 0.32)',
  teal: 'rgba(0, 150, 136, 0.32)',
  yellow: 'rgba(255, 214, 0, 0.45)',
};
const FLASH_VALUE = 'rgba(255, 111, 0, 0.75)';

export function highlightApiCss(): string {
  const rules = HIGHLIGHT_COLORS.map((c) => `::highlight(${highlightName(c)}) { background-color: ${COLOR_VALUES[c]}; }`);
  rules.push(
    `::highlight(${NOTE_HIGHLIGHT}) { text-decoration: underline dotted rgba(33, 33, 33, 0.85); text-decoration-thickness: 2px; text-underline-offset: 3px; }`,
    `::highlight(${FLASH_HIGHLIGHT}) { background-color: ${FLASH_VALUE}; }`,
  );
  return rules.join('\n');
}

export function classApplierCss(): string {
  const rules = HIGHLIGHT_COLORS.map((c) => `.${colorClass(c)} { background-color: ${COLOR_VALUES[c]}; }`);
  rules.push(`.${colorClass('flash')} { background-color: ${FLASH_VALUE}; }`);
  return rules.join('\n');
}

type StyleScope = Document | ShadowRoot;

/** Puts one copy of `css` into each document or shadow root it is asked to, and takes it out again. */
export class StyleInjector {
  private sheet: CSSStyleSheet | null = null;
  private elements = new Map<StyleScope, HTMLStyleElement>();
  private adopted = new Set<StyleScope>();

  constructor(
    private readonly doc: Document,
    private readonly css: string,
  ) {}

  ensure(scope: StyleScope): void {
    if (this.adopted.has(scope) || this.elements.has(scope)) return;
    const win = this.doc.defaultView as (Window & typeof globalThis) | null;
    if (win && 'adoptedStyleSheets' in scope && typeof win.CSSStyleSheet === 'function') {
      try {
        if (!this.sheet) {
          this.sheet = new win.CSSStyleSheet();
          this.sheet.replaceSync(this.css);
        }
        scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, this.sheet];
        this.adopted.add(scope);
        return;
      } catch {
        // Constructable sheets unsupported here: fall back to a <style> element.
      }
    }
    const style = this.doc.createElement('style');
    style.textContent = this.css;
    const parent = scope.nodeType === 9 ? ((scope as Document).head ?? (scope as Document).documentElement) : scope;
    parent.appendChild(style);
    this.elements.set(scope, style);
  }

  removeAll(): void {
    for (const scope of this.adopted) {
      scope.adoptedStyleSheets = scope.adoptedStyleSheets.filter((s) => s !== this.sheet);
    }
    this.adopted.clear();
    for (const el of this.elements.values()) el.remove();
    this.elements.clear();
  }
}
