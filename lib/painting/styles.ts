/**
 * Putting the painter's CSS (highlight-css.ts) into a document or shadow root: once per scope, as an
 * adopted style sheet, or one <style> element where constructable style sheets are unavailable. Styles
 * only: nothing about notes or ids goes into the page.
 */
export { COLOR_VALUES, FLASH_HIGHLIGHT, NOTE_HIGHLIGHT, classApplierCss, colorClass, highlightApiCss, highlightName } from './highlight-css.js';

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
