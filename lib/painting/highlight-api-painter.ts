/**
 * Painter on the CSS Custom Highlight API: one Highlight per colour (`tidemark-<colour>`), one for note
 * underlines (`tidemark-note`) and one for the flash effect. The page's text and elements are never
 * changed, so links and other controls inside highlights keep working; where the painter adds
 * its own style sheet, the parents of highlighted text get a scope mark naming their colours
 * (SCOPE_ATTRIBUTE, scope-marks.ts), taken off again by clear() (and destroy(): disposable-painter.ts).
 */
import { charAtPoint, coversChar, textLength } from './hit-test.js';
import { pulse } from './flash.js';
import { scrollRangeIntoView } from './scroll.js';
import type { ScopeMarker } from './scope-marks.js';
import { FLASH_HIGHLIGHT, NOTE_HIGHLIGHT, StyleInjector, highlightApiCss, highlightName } from './styles.js';
import {
  HIGHLIGHT_COLORS,
  rangeList,
  type FlashOptions,
  type HighlightColor,
  type PaintItem,
  type PaintStyle,
  type Painter,
  type ScrollToOptions,
} from './types.js';

interface HighlightWindow {
  CSS: { highlights: HighlightRegistry };
  Highlight: typeof Highlight;
}

interface HitResult {
  highlight: Highlight;
  ranges: AbstractRange[];
}

/** True when `doc`'s window implements the CSS Custom Highlight API. */
export function supportsHighlightApi(doc: Document): boolean {
  const win = doc.defaultView as unknown as Partial<HighlightWindow> | null;
  return !!win && !!win.CSS && 'highlights' in win.CSS && !!win.CSS.highlights && typeof win.Highlight === 'function';
}

export interface HighlightApiPainterOptions {
  /**
   * The document already has the `::highlight()` rules from its first style computation (the
   * extension's registered content-script style sheet, highlight-styles.css): no sheet is added to it.
   * Adding one later makes Chromium restyle every element of the page in one frame.
   */
  documentStyled?: boolean;
  /**
   * Where the document is not styled: the scope marks (ScopeMarks, scope-marks.ts). Without them (their
   * script could not be loaded) the painter's sheet is unscoped: correct, but adding it restyles every
   * element of the page once (bench/README.md, "Scoped highlight rules").
   */
  marks?: ScopeMarker;
}

/**
 * The painter the highlighter uses. It has no destroy(): the page's painter lives as long as the page,
 * and highlighter.js has a size budget; DisposableHighlightApiPainter (disposable-painter.ts) adds it,
 * with what the library's callers and the tests ask (has, keys, rangesOf) and the check that the
 * document has the API, which framePainter makes before it makes this one.
 */
export class HighlightApiPainter implements Painter {
  readonly kind = 'highlight-api' as const;
  /** The items painted, by key, as the caller gave them (kept, not copied: see PaintItem). */
  protected readonly entries = new Map<string, PaintItem>();
  /**
   * The key of each painted range, made from the entries when a hit test first needs it after a change
   * (not in paint(): paintMany() of 1,000 highlights would fill it for nothing before any click).
   */
  private owner: Map<AbstractRange, string> | null = null;
  protected readonly byColor = new Map<HighlightColor, Highlight>();
  protected readonly note: Highlight;
  protected readonly flashing: Highlight;
  protected readonly registry: HighlightRegistry;
  protected readonly styles: StyleInjector;
  private readonly shadowRoots = new Set<ShadowRoot>();
  private readonly ours = new Set<Highlight>();

  /** Marks the parents of highlighted text where the painter's own (scoped) sheet is used. */
  protected readonly marks: ScopeMarker | null;

  constructor(
    private readonly doc: Document,
    options: HighlightApiPainterOptions = {},
  ) {
    // The caller made sure the document has the API (framePainter, DisposableHighlightApiPainter).
    const win = doc.defaultView as unknown as HighlightWindow;
    this.registry = win.CSS.highlights;
    for (const color of HIGHLIGHT_COLORS) {
      const h = new win.Highlight();
      h.priority = 1;
      this.registry.set(highlightName(color), h);
      this.byColor.set(color, h);
      this.ours.add(h);
    }
    this.note = new win.Highlight();
    this.note.priority = 2;
    this.registry.set(NOTE_HIGHLIGHT, this.note);
    this.flashing = new win.Highlight();
    this.flashing.priority = 3;
    this.registry.set(FLASH_HIGHLIGHT, this.flashing);
    this.ours.add(this.note).add(this.flashing);
    // The painter's own sheet, where the page did not have the rules from its start: its rules only
    // style marked elements (SCOPE_ATTRIBUTE in highlight-css.ts), so adding it restyles none. It is
    // added and taken in (a style read) here, so that its own style update falls neither into the
    // first painting frame nor into the page's first indexing slice. Shadow roots, which the
    // document's rules do not reach, get it unscoped where the document is styled (nothing is marked).
    this.marks = options.documentStyled ? null : (options.marks ?? null);
    this.styles = new StyleInjector(doc, highlightApiCss(this.marks?.scope));
    if (!options.documentStyled) {
      this.styles.ensure(doc);
      void getComputedStyle(doc.documentElement).color;
    }
  }

  paint(key: string, ranges: AbstractRange | readonly AbstractRange[], style: PaintStyle): void {
    this.paintMany([{ key, ranges, ...style }]);
  }

  /**
   * One frame shows them all, and also restyles the newly marked parents of their text, so the ranges
   * never wait a frame for that restyle. Many highlights at once (over 200): only those in view are
   * marked in this task, the others in idle slices (scope-marks.ts). One loop without a call or an
   * allocation per highlight, because 1,000 highlights run it before V8 has optimised it.
   */
  paintMany(items: readonly PaintItem[]): void {
    const { entries, doc, note } = this;
    this.marks?.mark(items);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const h = this.byColor.get(item.color);
      if (!h) throw new Error(`Unknown highlight colour "${item.color}"`);
      if (entries.size && entries.has(item.key)) this.remove(item.key);
      const ranges = item.ranges;
      const list = Array.isArray(ranges) ? (ranges as readonly AbstractRange[]) : null;
      for (let j = 0, n = list ? list.length : 1; j < n; j++) {
        const r = list ? list[j] : (ranges as AbstractRange);
        h.add(r);
        if (item.hasNote) note.add(r);
        // From a document, contains() is one tree-scope check; getRootNode() per range cost more.
        const n = r.startContainer;
        if (!doc.contains(n)) {
          const root = n.getRootNode();
          if (root.nodeType === 11 && (root as ShadowRoot).host) this.adoptShadowRoot(root as ShadowRoot);
        }
      }
      entries.set(item.key, item);
    }
    this.owner = null;
  }

  private adoptShadowRoot(root: ShadowRoot): void {
    if (this.shadowRoots.has(root)) return;
    this.shadowRoots.add(root);
    // ::highlight() rules of the document do not reach into shadow trees.
    this.styles.ensure(root);
  }

  restyle(key: string, style: Partial<PaintStyle>): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.paint(key, entry.ranges, { color: style.color ?? entry.color, hasNote: style.hasNote ?? entry.hasNote });
    return true;
  }

  remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    const h = this.byColor.get(entry.color)!;
    for (const r of rangeList(entry.ranges)) {
      h.delete(r);
      this.note.delete(r);
      this.flashing.delete(r);
    }
    this.entries.delete(key);
    this.owner = null;
    return true;
  }

  /** Removes every highlight; the scope marks go at the end of the task (unless painted again). */
  clear(): void {
    for (const h of this.byColor.values()) h.clear();
    this.note.clear();
    this.flashing.clear();
    this.entries.clear();
    this.owner = null;
    this.marks?.clear();
  }

  highlightsAt(x: number, y: number): string[] {
    const found = new Set<string>();
    const registry = this.registry as HighlightRegistry & {
      highlightsFromPoint?: (x: number, y: number, options?: { shadowRoots?: ShadowRoot[] }) => unknown[];
    };
    if (typeof registry.highlightsFromPoint === 'function') {
      const hits = registry.highlightsFromPoint(x, y, { shadowRoots: [...this.shadowRoots] });
      let owner = this.owner;
      if (!owner) {
        this.owner = owner = new Map();
        for (const [key, entry] of this.entries) for (const r of rangeList(entry.ranges)) owner.set(r, key);
      }
      for (const hit of hits as HitResult[]) {
        if (!hit || !this.ours.has(hit.highlight) || !Array.isArray(hit.ranges)) continue;
        for (const r of hit.ranges) {
          const key = owner.get(r);
          if (key !== undefined) found.add(key);
        }
      }
    } else {
      const hit = charAtPoint(this.doc, x, y, [...this.shadowRoots]);
      if (hit) {
        for (const [key, entry] of this.entries) {
          if (rangeList(entry.ranges).some((r) => coversChar(this.doc, r, hit))) found.add(key);
        }
      }
    }
    const keys = [...found];
    if (keys.length > 1) {
      const len = new Map(keys.map((k) => [k, textLength(this.doc, rangeList(this.entries.get(k)!.ranges))]));
      keys.sort((a, b) => len.get(a)! - len.get(b)!);
    }
    return keys;
  }

  async flash(key: string, options: FlashOptions = {}): Promise<boolean> {
    const entry = this.entries.get(key);
    if (!entry) return false;
    await pulse(this.doc.defaultView ?? globalThis, (on) => {
      for (const r of rangeList(entry.ranges)) {
        if (on && this.entries.get(key) === entry) this.flashing.add(r);
        else this.flashing.delete(r);
      }
    }, options.durationMs);
    return true;
  }

  scrollTo(key: string, options: ScrollToOptions = {}): boolean {
    const first = rangeList(this.entries.get(key)?.ranges ?? [])[0];
    return !!first && scrollRangeIntoView(this.doc, first, options.behavior);
  }
}
