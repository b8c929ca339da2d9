/**
 * The scope marks of the Highlight API painter, where it adds its own style sheet to a page that is
 * already styled (the highlighter injected by a click, no registered sheet): its `::highlight()` rules
 * only style elements with SCOPE_ATTRIBUTE (see highlight-css.ts), and these marks put that attribute,
 * naming the colours of the highlights in the element's text, on the parent element of every text node
 * a highlight covers. Not needed where the page has the rules from its first style computation, so the
 * highlighter loads this as a part of its own (entrypoints/highlighter-scope-marks.ts) only on the
 * click path.
 */
import { HIGHLIGHT_COLORS } from '../api/constants.js';
import { NOTE_MARK, SCOPE_ATTRIBUTE } from './highlight-css.js';
import { caretAt } from './hit-test.js';
import type { PaintItem } from './types.js';

/** What the painter needs of its scope marks. */
export interface ScopeMarker {
  /**
   * Marks the parents of the text each item's ranges cover with its colour (and NOTE_MARK for a note;
   * live Ranges only: a StaticRange is not marked). All the highlights painted in one call: where they
   * are many, those out of view are marked later (AT_ONCE).
   */
  mark(items: readonly PaintItem[]): void;
  /** Takes every mark off: at the end of the task (a parent marked again meanwhile keeps its mark untouched), or `now`. */
  clear(now?: boolean): void;
  /** The selector of the elements marked with `word` (any mark where ''): the scope of the painter's rules (highlightApiCss). */
  readonly scope: (word: string) => string;
}

/**
 * Ranges marked at once in one task whatever their place (a few ms); past these, a range out of view
 * waits for the idle slices after the task (below): marking the parents of 1,000 highlights' text costs
 * some 6-8 ms of script, most of it out of view. Fewer than this are all marked at once, as one more
 * frame restyling the rest would cost more than marking them (on a long page every frame that changes
 * anything repaints its highlights: 15-28 ms).
 */
const AT_ONCE = 200;
/** Script time of one idle slice of the waiting marks, ms. */
const SLICE_MS = 5;

/** Unicode white space past Latin-1 (as /\s/ has it), tested only where such a character comes. */
const WIDE_SPACE = /\s/;

/**
 * True where `s` has a character other than white space, as /\S/.test(s), but without a regular
 * expression for the usual text: the first use of one in the page's task compiled it there.
 */
function notBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13) || c === 160) continue;
    if (c < 0x1680 || !WIDE_SPACE.test(s[i])) return true;
  }
  return false;
}
/** A mark's words as bits: one per colour, in HIGHLIGHT_COLORS order, then NOTE_MARK. */
const WORDS: readonly string[] = [...HIGHLIGHT_COLORS, NOTE_MARK];
const NOTE_BIT = 1 << HIGHLIGHT_COLORS.length;
const COLOR_BIT = new Map<string, number>(HIGHLIGHT_COLORS.map((c, i) => [c, 1 << i]));
/** The attribute value of each set of words met so far (one string each, so the DOM gets the same string every time). */
const VALUES = new Map<number, string>();

function valueOf(bits: number): string {
  let value = VALUES.get(bits);
  if (value === undefined) {
    value = WORDS.filter((_, i) => bits & (1 << i)).join(' ');
    VALUES.set(bits, value);
  }
  return value;
}

/** The node after `node` and its subtree in tree order (null at the end of the tree). */
function after(node: Node): Node | null {
  for (let n: Node | null = node; n; n = n.parentNode) if (n.nextSibling) return n.nextSibling;
  return null;
}

/** Text nodes walked at most to find those in view (past it the view is taken as unknown). */
const VIEW_NODES = 3000;

/** A text node of `doc` (not of a shadow tree) at the caret position of viewport point (x, y), or null. */
function textAt(doc: Document, x: number, y: number): Node | null {
  const node = caretAt(doc, x, y)?.node;
  return node?.nodeType === 3 && node.getRootNode() === doc ? node : null;
}

/**
 * The text nodes in view, or null where they cannot be told: those from the first to the last in tree
 * order of the text at the caret positions of the viewport's top and bottom edges (layout is clean
 * where this is asked). Each hit test costs some 0.15 ms on a 440k-character page, so the top edge is
 * tried at a quarter of the width, the bottom one at three quarters (the first and last text of a page
 * read left to right), and the other points (the other quarter, the middle, then the middle height)
 * only where that finds no text (an image, a page margin): two hit tests instead of six.
 */
function textInView(doc: Document): Set<Node> | null {
  const win = doc.defaultView;
  if (!win || !win.innerHeight) return null;
  const w = win.innerWidth - 1;
  const h = win.innerHeight - 1;
  // Left to right: the first text in view is at the top left, the last at the bottom right.
  const edge = (y: number, a: number, b: number): Node | null => textAt(doc, a * w, y) ?? textAt(doc, b * w, y) ?? textAt(doc, w / 2, y);
  let first = edge(0, 0.25, 0.75);
  let last = edge(h, 0.75, 0.25);
  if (!first || !last) {
    const middle = edge(h / 2, 0.25, 0.75);
    first ??= middle;
    last ??= middle;
  }
  if (!first || !last) return null;
  if (first !== last && first.compareDocumentPosition(last) & 2) [first, last] = [last, first]; // last precedes first
  const seen = new Set<Node>([first]);
  if (first === last) return seen;
  const walker = doc.createTreeWalker(doc, 4 /* SHOW_TEXT */);
  walker.currentNode = first;
  for (let n = walker.nextNode(); n && seen.size <= VIEW_NODES; n = walker.nextNode()) {
    seen.add(n);
    if (n === last) return seen;
  }
  return null;
}

export class ScopeMarks implements ScopeMarker {
  /** The elements marked, with their mark's words as bits (remove() of one highlight leaves them: they may hold other highlights' text). */
  private marked = new Map<Element, number>();
  /** The marks of the last clear() still to be taken off at the end of the task, by element. */
  private cleared: Map<Element, number> | null = null;
  /** Ranges out of view waiting for idle slices, each followed by its words' bits. */
  private waiting: Array<Range | number> = [];
  /** An idle slice is asked for. */
  private slicing = false;

  /**
   * Made before the page is painted (the highlighter makes its painter first). A page's first
   * requestIdleCallback() costs 0.3-0.5 ms (measured, fresh pages, at load 15; later ones a tenth of
   * that): it is asked for here, with nothing to do, so that the idle slices the paint's task asks for
   * do not pay it there.
   */
  constructor(private readonly doc: Document = document) {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => undefined);
  }

  readonly scope = (word: string): string => `[${SCOPE_ATTRIBUTE}${word && `~=${word}`}]`;

  /** Ranges whose marks wait for idle slices (0 once all are marked). */
  get pending(): number {
    return this.waiting.length / 2;
  }

  /**
   * Marks the parents of the text each range covers (markRange): at once, or where more than AT_ONCE
   * highlights come in one call, only those with an end in a text node in view, the others in idle
   * slices after the task. The text in view is found before anything is painted, while the page's
   * layout is clean (once ranges are added to the highlights, the first hit test makes Chromium prepare
   * their painting in the task: 28-40 ms for 1,000 ranges on the article page, measured). Each element's
   * attribute is written once per change of its words, and not at all where it already carries them.
   * One call for all the painter's highlights, with no work per range but the view test: 1,000 ranges
   * run this before V8 has optimised it.
   */
  mark(items: readonly PaintItem[]): void {
    const view = items.length > AT_ONCE ? textInView(this.doc) : null;
    const waiting = this.waiting;
    const queued = waiting.length;
    for (let i = 0; i < items.length; i++) {
      const { ranges, color, hasNote } = items[i];
      const bits = (COLOR_BIT.get(color) ?? 0) | (hasNote ? NOTE_BIT : 0);
      const list = Array.isArray(ranges) ? (ranges as readonly AbstractRange[]) : null;
      const n = list ? list.length : 1;
      for (let j = 0; j < n; j++) {
        const r = (list ? list[j] : ranges) as Range;
        // Out of view: neither end in a text node in view (one that spans the whole view, beginning and
        // ending outside it, or one given by element boundaries, is taken as out of view: marked a slice later).
        if (!view || view.has(r.startContainer) || view.has(r.endContainer)) this.markRange(r, bits);
        else waiting.push(r, bits);
      }
    }
    if (waiting.length > queued && !this.slicing) this.sliceWhenIdle();
  }

  /** Marks waiting ranges in slices of SLICE_MS while the page is idle (or after 100 ms at the latest). */
  private sliceWhenIdle(): void {
    this.slicing = true;
    const slice = () => {
      this.slicing = false;
      const t0 = performance.now();
      const waiting = this.waiting;
      let i = 0;
      while (i < waiting.length) {
        this.markRange(waiting[i] as Range, waiting[i + 1] as number);
        i += 2;
        if ((i & 63) === 0 && performance.now() - t0 > SLICE_MS) break;
      }
      waiting.splice(0, i);
      if (waiting.length) this.sliceWhenIdle();
      else this.take();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(function tidemarkMarkSlice() { slice(); }, { timeout: 100 });
    else setTimeout(function tidemarkMarkSlice() { slice(); }, 0);
  }

  /**
   * Marks the parent element of every text node `r` covers, but of white space alone: between blocks it
   * is not drawn, and its parent is a container (an <article>, the <body>) whose mark would restyle
   * everything in it. A range within one text node, the usual highlight, marks its parent without a walk.
   */
  private markRange(r: Range, bits: number): void {
    if (!('commonAncestorContainer' in r)) return; // a StaticRange
    const start = r.startContainer;
    const end = r.endContainer;
    if (start === end && start.nodeType === 3) {
      this.markElement(start.parentElement, bits);
      return;
    }
    // The nodes from the start point to the end point in tree order: a plain walk (a TreeWalker with a
    // comparePoint() per node cost more).
    const endIsText = end.nodeType === 3;
    const stop = endIsText ? null : (end.childNodes[r.endOffset] ?? after(end));
    let node: Node | null = start.nodeType === 3 ? start : (start.childNodes[r.startOffset] ?? after(start));
    while (node && node !== stop) {
      if (node.nodeType === 3 && notBlank((node as Text).data)) this.markElement(node.parentElement, bits);
      if (endIsText && node === end) break;
      node = node.firstChild ?? after(node);
    }
  }

  private markElement(el: Element | null, bits: number): void {
    if (!el) return;
    const had = this.marked.get(el) ?? 0;
    const now = had | bits;
    if (now === had) return;
    this.marked.set(el, now);
    const value = valueOf(now);
    // Only an element cleared in this task can carry the value already (what the page did to it since is read).
    if (this.cleared?.get(el) === now && el.getAttribute(SCOPE_ATTRIBUTE) === value) return;
    el.setAttribute(SCOPE_ATTRIBUTE, value);
  }

  /**
   * At the end of the task by default: the highlighter clears and paints again in one task when it
   * re-anchors, and taking a mark off and putting it back would restyle the element for nothing.
   */
  clear(now = false): void {
    const cleared = this.marked;
    this.marked = new Map();
    this.waiting = []; // the cleared highlights' ranges
    if (this.cleared) for (const [el, bits] of this.cleared) if (!cleared.has(el)) cleared.set(el, bits);
    this.cleared = cleared;
    if (now) this.take();
    else if (cleared.size) queueMicrotask(() => this.waiting.length || this.take());
  }

  /** Takes the cleared marks off but where marked again (after the waiting ranges are marked: they may be). */
  private take(): void {
    const cleared = this.cleared;
    this.cleared = null;
    cleared?.forEach((_, el) => this.marked.has(el) || el.removeAttribute(SCOPE_ATTRIBUTE));
  }
}
