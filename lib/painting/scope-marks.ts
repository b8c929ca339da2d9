/**
 * The scope marks of the Highlight API painter, where it adds its own style sheet to a page that is
 * already styled (the highlighter injected by a click, no registered sheet): its `::highlight()` rules
 * only style elements with SCOPE_ATTRIBUTE (see highlight-css.ts), and these marks put that attribute,
 * naming the colours of the highlights in the element's text, on the parent element of every text node
 * a highlight covers. Not needed where the page has the rules from its first style computation, so the
 * highlighter loads this as a part of its own (entrypoints/highlighter-scope-marks/index.ts) only on the
 * click path.
 */
import { HIGHLIGHT_COLORS } from '../api/constants.js';
import { NOTE_MARK, SCOPE_ATTRIBUTE } from './highlight-css.js';
import { caretAt } from './hit-test.js';
import { rangeList, type PaintItem } from './types.js';

/** What the painter needs of its scope marks. */
export interface ScopeMarker {
  /**
   * Marks the parents of the text each item's ranges cover with its colour (and NOTE_MARK for a note;
   * live Ranges only: a StaticRange is not marked). All the highlights painted in one call: where they
   * are many, the text in view is marked at once and the ranges later (AT_ONCE). The items are kept
   * until then, as given.
   */
  mark(items: readonly PaintItem[]): void;
  /** Takes every mark off: at the end of the task (a parent marked again meanwhile keeps its mark untouched), or `now`. */
  clear(now?: boolean): void;
  /** The selector of the elements marked with `word` (any mark where ''): the scope of the painter's rules (highlightApiCss). */
  readonly scope: (word: string) => string;
}

/**
 * Highlights marked at once in one task whatever their place. Past this many, marking them all would
 * lengthen the task noticeably, so only the text in view is marked in the task and the rest waits for
 * idle slices; below it, one more restyling frame would cost more than marking them now.
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

/** The words of `item`'s mark, as bits. */
function bitsOf(item: PaintItem): number {
  return (COLOR_BIT.get(item.color) ?? 0) | (item.hasNote ? NOTE_BIT : 0);
}

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
/**
 * Text nodes in view up to which their parents are marked with the words of all the highlights of a
 * large paint (the article's view holds 74); past it only the highlights with an end in view are.
 */
const VIEW_MARKS = 400;

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
  /** The elements marked for the ranges they hold, with their mark's words as bits (remove() of one highlight leaves them: they may hold other highlights' text). */
  private marked = new Map<Element, number>();
  /**
   * The parents of the text that was in view when many highlights came at once, with the words of all
   * those highlights (VIEW_MARKS), until their ranges are marked: then each keeps the words of the ranges
   * in its text, or loses its mark. An element's mark shows its words here and in `marked`.
   */
  private viewed = new Map<Element, number>();
  /** The marks of the last clear() still to be taken off at the end of the task, by element (the words shown). */
  private cleared: Map<Element, number> | null = null;
  /** The batches of highlights whose ranges wait for idle slices, the first one marked up to `next`. */
  private waiting: Array<readonly PaintItem[]> = [];
  private next = 0;
  /** An idle slice is asked for. */
  private slicing = false;

  /**
   * Made before the page is painted (the highlighter makes its painter first). A page's first
   * requestIdleCallback() costs several times more than later ones, so it is asked for here, with
   * nothing to do, and the paint's task does not pay for it.
   */
  constructor(private readonly doc: Document = document) {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => undefined);
  }

  readonly scope = (word: string): string => `[${SCOPE_ATTRIBUTE}${word && `~=${word}`}]`;

  /** Highlights whose marks wait for idle slices (0 once all are marked). */
  get pending(): number {
    let n = 0;
    for (const batch of this.waiting) n += batch.length;
    return n - this.next;
  }

  /**
   * Marks the parents of the text each highlight's ranges cover (markRange): at once, or where more
   * than AT_ONCE highlights come in one call, in idle slices after the task. Then what is in view is
   * coloured in the frame that shows the highlights without a test per range (VIEW_MARKS): the parents
   * of the text in view get the words of all the call's highlights now, and their own words once their
   * ranges are marked. The text in view is found before anything is painted, while the page's layout is
   * clean (once ranges are added to the highlights, the first hit test makes Chromium prepare their
   * painting in the task, which is costly for many ranges). Each element's
   * attribute is written once per change of its words, and not at all where it already carries them.
   */
  mark(items: readonly PaintItem[]): void {
    const view = items.length > AT_ONCE ? textInView(this.doc) : null;
    if (!view) {
      for (let i = 0; i < items.length; i++) this.markItem(items[i]);
      return;
    }
    if (view.size <= VIEW_MARKS) {
      let bits = 0;
      // The words of all the call's highlights (inline: no call per highlight in the paint's task).
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        bits |= (COLOR_BIT.get(item.color) ?? 0) | (item.hasNote ? NOTE_BIT : 0);
      }
      for (const node of view) if (notBlank((node as Text).data)) this.markView(node.parentElement, bits);
      this.waiting.push(items);
    } else {
      // Much text in view (a page of tiny cells, say): marking all its parents with every word would
      // cost the frame more than finding the highlights with an end in view, marked now, the others later.
      const later: PaintItem[] = [];
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (rangeList(item.ranges).some((r) => view.has(r.startContainer) || view.has(r.endContainer))) this.markItem(item);
        else later.push(item);
      }
      this.waiting.push(later);
    }
    if (!this.slicing) this.sliceWhenIdle();
  }

  /** Marks waiting highlights in slices of SLICE_MS while the page is idle (or after 100 ms at the latest). */
  private sliceWhenIdle(): void {
    this.slicing = true;
    const slice = () => {
      this.slicing = false;
      const t0 = performance.now();
      const waiting = this.waiting;
      let count = 0;
      while (waiting.length) {
        const batch = waiting[0];
        while (this.next < batch.length && ((++count & 31) !== 0 || performance.now() - t0 <= SLICE_MS)) this.markItem(batch[this.next++]);
        if (this.next < batch.length) break;
        waiting.shift();
        this.next = 0;
      }
      if (waiting.length) this.sliceWhenIdle();
      else {
        this.settle();
        this.take();
      }
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(function tidemarkMarkSlice() { slice(); }, { timeout: 100 });
    else setTimeout(function tidemarkMarkSlice() { slice(); }, 0);
  }

  /** Marks the parents of the text `item`'s ranges cover with its words. */
  private markItem(item: PaintItem): void {
    const bits = bitsOf(item);
    const ranges = item.ranges;
    if (!Array.isArray(ranges)) this.markRange(ranges as Range, bits);
    else for (let j = 0; j < ranges.length; j++) this.markRange(ranges[j] as Range, bits);
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
    this.addWords(this.marked, this.viewed, el, bits);
  }

  /** Gives `el`, a parent of text in view, the words `bits` until its ranges are marked (settle()). */
  private markView(el: Element | null, bits: number): void {
    this.addWords(this.viewed, this.marked, el, bits);
  }

  /** Adds `bits` to `el`'s words in `words` (marked or viewed), its mark showing them with those in `other`. */
  private addWords(words: Map<Element, number>, other: Map<Element, number>, el: Element | null, bits: number): void {
    if (!el) return;
    const had = words.get(el) ?? 0;
    const now = had | bits;
    if (now === had) return;
    words.set(el, now);
    const also = other.size ? (other.get(el) ?? 0) : 0;
    if ((now | also) !== (had | also)) this.show(el, now | also);
  }

  /** Writes `el`'s mark: the words `bits`. */
  private show(el: Element, bits: number): void {
    const value = valueOf(bits);
    // Only an element cleared in this task can carry the value already (what the page did to it since is read).
    if (this.cleared?.get(el) === bits && el.getAttribute(SCOPE_ATTRIBUTE) === value) return;
    el.setAttribute(SCOPE_ATTRIBUTE, value);
  }

  /** Once every waiting range is marked: the parents of the text that was in view keep only their ranges' words. */
  private settle(): void {
    const viewed = this.viewed;
    this.viewed = new Map();
    viewed.forEach((bits, el) => {
      const own = this.marked.get(el) ?? 0;
      if ((own | bits) === own) return;
      if (own) el.setAttribute(SCOPE_ATTRIBUTE, valueOf(own));
      else el.removeAttribute(SCOPE_ATTRIBUTE);
    });
  }

  /**
   * At the end of the task by default: the highlighter clears and paints again in one task when it
   * re-anchors, and taking a mark off and putting it back would restyle the element for nothing.
   */
  clear(now = false): void {
    const cleared = this.marked;
    for (const [el, bits] of this.viewed) cleared.set(el, (cleared.get(el) ?? 0) | bits);
    this.marked = new Map();
    this.viewed = new Map();
    this.waiting = []; // the cleared highlights
    this.next = 0;
    if (this.cleared) for (const [el, bits] of this.cleared) if (!cleared.has(el)) cleared.set(el, bits);
    this.cleared = cleared;
    if (now) this.take();
    else if (cleared.size) queueMicrotask(() => this.waiting.length || this.take());
  }

  /** Takes the cleared marks off but where marked again (after the waiting ranges are marked: they may be). */
  private take(): void {
    const cleared = this.cleared;
    this.cleared = null;
    cleared?.forEach((_, el) => this.marked.has(el) || this.viewed.has(el) || el.removeAttribute(SCOPE_ATTRIBUTE));
  }
}
