/**
 * The scope marks of the Highlight API painter, where it adds its own style sheet to a page that is
 * already styled (the highlighter injected by a click, no registered sheet): its `::highlight()` rules
 * only style elements with SCOPE_ATTRIBUTE (see highlight-css.ts), and these marks put that attribute,
 * naming the colours of the highlights in the element's text, on the parent element of every text node
 * a highlight covers. Not needed where the page has the rules from its first style computation, so the
 * highlighter loads this as a part of its own (entrypoints/highlighter-scope-marks.ts) only on the
 * click path.
 */
import { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';
import { NOTE_MARK, SCOPE_ATTRIBUTE } from './highlight-css.js';

/** What the painter needs of its scope marks. */
export interface ScopeMarker {
  /** Marks the parents of the text `ranges` cover with `color` (and NOTE_MARK for a note; live Ranges only: a StaticRange is not marked). */
  mark(ranges: readonly AbstractRange[], color: HighlightColor, hasNote?: boolean): void;
  /** Takes every mark off: at the end of the task (a parent marked again meanwhile keeps its mark untouched), or `now`. */
  clear(now?: boolean): void;
}

const NOT_BLANK = /\S/;
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

export class ScopeMarks implements ScopeMarker {
  /** The elements marked, with their mark's words as bits (remove() of one highlight leaves them: they may hold other highlights' text). */
  private marked = new Map<Element, number>();
  /** The marks of the last clear() still to be taken off at the end of the task, by element. */
  private cleared: Map<Element, number> | null = null;

  /**
   * Marks the parent element of every text node the ranges cover, but of white space alone: between
   * blocks it is not drawn, and its parent is a container (an <article>, the <body>) whose mark would
   * restyle everything in it. A range within one text node, the usual highlight, marks its parent
   * without a walk. Each element's attribute is written once per change of its words, and not at all
   * where it already carries them.
   */
  mark(ranges: readonly AbstractRange[], color: HighlightColor, hasNote = false): void {
    const bits = (COLOR_BIT.get(color) ?? 0) | (hasNote ? NOTE_BIT : 0);
    for (const r of ranges) {
      if (!('commonAncestorContainer' in r)) continue;
      const start = r.startContainer;
      const end = r.endContainer;
      if (start === end && start.nodeType === 3) {
        this.markElement(start.parentElement, bits);
        continue;
      }
      // The nodes from the start point to the end point in tree order: a plain walk (a TreeWalker with a
      // comparePoint() per node cost more).
      const endIsText = end.nodeType === 3;
      const stop = endIsText ? null : (end.childNodes[r.endOffset] ?? after(end));
      let node: Node | null = start.nodeType === 3 ? start : (start.childNodes[r.startOffset] ?? after(start));
      while (node && node !== stop) {
        if (node.nodeType === 3 && NOT_BLANK.test((node as Text).data)) this.markElement(node.parentElement, bits);
        if (endIsText && node === end) break;
        node = node.firstChild ?? after(node);
      }
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
    if (this.cleared) for (const [el, bits] of this.cleared) if (!cleared.has(el)) cleared.set(el, bits);
    this.cleared = cleared;
    const take = () => {
      if (this.cleared !== cleared) return;
      this.cleared = null;
      cleared.forEach((_, el) => this.marked.has(el) || el.removeAttribute(SCOPE_ATTRIBUTE));
    };
    if (now) take();
    else if (cleared.size) queueMicrotask(take);
  }
}
