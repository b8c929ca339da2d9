/**
 * Fallback painter for browsers without the CSS Custom Highlight API: rangy's class applier wraps the
 * highlighted text in <span class="tidemark-hl-COLOUR"> elements. Only that class goes into the page
 * (no ids, no notes; the note underline is not drawn). Text is wrapped inside links, never around
 * them, so links stay clickable.
 *
 * This module is loaded only through `createPainter()`'s dynamic import, so rangy stays out of the
 * default bundle.
 */
import rangyModule from 'rangy';
import 'rangy/lib/rangy-classapplier';
import { charAtPoint, coversChar, textLength } from './hit-test.js';
import { pulse } from './flash.js';
import { scrollRangeIntoView } from './scroll.js';
import { StyleInjector, classApplierCss, colorClass } from './styles.js';
import {
  HIGHLIGHT_COLORS,
  rangeList,
  type FlashOptions,
  type HighlightColor,
  type PaintItem,
  type PaintStyle,
  type DisposablePainter,
  type ScrollToOptions,
} from './types.js';

/** The parts of rangy this painter uses. */
interface RangyRange {
  startContainer: Node;
  startOffset: number;
  endContainer: Node;
  endOffset: number;
  setStartAndEnd(sc: Node, so: number, ec: Node, eo: number): void;
  intersectsRange(other: RangyRange): boolean;
}
interface ClassApplier {
  applyToRange(range: RangyRange, rangesToPreserve?: RangyRange[]): void;
  undoToRange(range: RangyRange, rangesToPreserve?: RangyRange[]): void;
}
interface RangyApi {
  initialized: boolean;
  supported: boolean;
  init(): void;
  createRange(doc?: Document): RangyRange;
  createClassApplier(className: string, options?: Record<string, unknown>): ClassApplier;
}

const rangy = rangyModule as unknown as RangyApi;

interface Entry {
  ranges: RangyRange[];
  color: HighlightColor;
  hasNote: boolean;
}

export class ClassApplierPainter implements DisposablePainter {
  readonly kind = 'class-applier' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly appliers = new Map<HighlightColor | 'flash', ClassApplier>();
  private readonly styles: StyleInjector;

  constructor(private readonly doc: Document) {
    rangy.init();
    if (!rangy.initialized || rangy.supported === false) {
      throw new Error('Highlights cannot be shown on this page: the browser lacks the DOM Range support they need.');
    }
    const options = { elementTagName: 'span', normalize: true, useExistingElements: false };
    for (const color of HIGHLIGHT_COLORS) this.appliers.set(color, rangy.createClassApplier(colorClass(color), options));
    this.appliers.set('flash', rangy.createClassApplier(colorClass('flash'), options));
    this.styles = new StyleInjector(doc, classApplierCss());
    this.styles.ensure(doc);
  }

  private allRanges(): RangyRange[] {
    const out: RangyRange[] = [];
    for (const e of this.entries.values()) out.push(...e.ranges);
    return out;
  }

  private toNative(r: RangyRange): Range {
    const n = this.doc.createRange();
    n.setStart(r.startContainer, r.startOffset);
    n.setEnd(r.endContainer, r.endOffset);
    return n;
  }

  private applierFor(color: HighlightColor): ClassApplier {
    const applier = this.appliers.get(color);
    if (!applier || color === ('flash' as HighlightColor)) {
      throw new Error(`Unknown highlight colour "${color}"; use one of: ${HIGHLIGHT_COLORS.join(', ')}.`);
    }
    return applier;
  }

  private toRangy(r: AbstractRange): RangyRange {
    const rr = rangy.createRange(this.doc);
    rr.setStartAndEnd(r.startContainer, r.startOffset, r.endContainer, r.endOffset);
    return rr;
  }

  paint(key: string, ranges: AbstractRange | readonly AbstractRange[], style: PaintStyle): void {
    this.paintMany([{ key, ranges, ...style }]);
  }

  /**
   * Paints a batch. The DOM changes as text is wrapped, which moves or collapses other live ranges
   * taken from the page: pass every range of one page state in one call (all are taken over before
   * the first change), or re-anchor before painting later.
   */
  paintMany(items: readonly PaintItem[]): void {
    const prepared = items.map((it) => ({
      key: it.key,
      applier: this.applierFor(it.color),
      entry: { ranges: rangeList(it.ranges).map((r) => this.toRangy(r)), color: it.color, hasNote: !!it.hasNote } as Entry,
    }));
    for (const p of prepared) if (this.entries.has(p.key)) this.remove(p.key);
    for (const p of prepared) this.entries.set(p.key, p.entry);
    const preserve = this.allRanges();
    for (const p of prepared) for (const r of p.entry.ranges) p.applier.applyToRange(r, preserve);
  }

  restyle(key: string, style: Partial<PaintStyle>): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    const color = style.color ?? entry.color;
    if (color === entry.color) {
      entry.hasNote = style.hasNote ?? entry.hasNote;
      return true;
    }
    this.paint(key, entry.ranges.map((r) => this.toNative(r)), { color, hasNote: style.hasNote ?? entry.hasNote });
    return true;
  }

  remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    const applier = this.appliers.get(entry.color)!;
    const preserve = [...this.allRanges(), ...entry.ranges];
    for (const r of entry.ranges) applier.undoToRange(r, preserve);
    // Undoing removed the colour from text shared with other highlights of the same colour: restore it.
    for (const other of this.entries.values()) {
      if (other.color !== entry.color) continue;
      for (const o of other.ranges) {
        if (entry.ranges.some((r) => o.intersectsRange(r))) applier.applyToRange(o, this.allRanges());
      }
    }
    return true;
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.remove(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  rangesOf(key: string): AbstractRange[] {
    return (this.entries.get(key)?.ranges ?? []).map((r) => this.toNative(r));
  }

  highlightsAt(x: number, y: number): string[] {
    const hit = charAtPoint(this.doc, x, y);
    if (!hit) return [];
    const found: Array<[string, number]> = [];
    for (const [key, entry] of this.entries) {
      const native = entry.ranges.map((r) => this.toNative(r));
      if (native.some((r) => coversChar(this.doc, r, hit))) found.push([key, textLength(this.doc, native)]);
    }
    return found.sort((a, b) => a[1] - b[1]).map(([k]) => k);
  }

  async flash(key: string, options: FlashOptions = {}): Promise<boolean> {
    const entry = this.entries.get(key);
    if (!entry) return false;
    const applier = this.appliers.get('flash')!;
    let lit = false;
    await pulse(this.doc.defaultView ?? globalThis, (phaseOn) => {
      const on = phaseOn && this.entries.get(key) === entry;
      if (on === lit) return;
      const preserve = this.allRanges();
      for (const r of entry.ranges) {
        if (on) applier.applyToRange(r, preserve);
        else applier.undoToRange(r, preserve);
      }
      lit = on;
    }, options.durationMs);
    return true;
  }

  scrollTo(key: string, options: ScrollToOptions = {}): boolean {
    const entry = this.entries.get(key);
    if (!entry || entry.ranges.length === 0) return false;
    return scrollRangeIntoView(this.doc, this.toNative(entry.ranges[0]), options.behavior);
  }

  destroy(): void {
    this.clear();
    this.styles.removeAll();
  }
}
