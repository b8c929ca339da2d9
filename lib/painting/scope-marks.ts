/**
 * The scope marks of the Highlight API painter, where it adds its own style sheet to a page that is
 * already styled (the highlighter injected by a click, no registered sheet): its `::highlight()` rules
 * only style elements with SCOPE_ATTRIBUTE (see highlight-css.ts), and these marks put that empty
 * attribute on the parent element of every text node a highlight covers. Not needed where the page has
 * the rules from its first style computation, so the highlighter loads this as a part of its own
 * (entrypoints/highlighter-scope-marks.ts) only on the click path.
 */
import { SCOPE_ATTRIBUTE } from './highlight-css.js';

/** What the painter needs of its scope marks. */
export interface ScopeMarker {
  /** Marks the parents of the text `r` covers with `words` (its colour, and NOTE_MARK for a note; live Ranges only: a StaticRange is not marked). */
  mark(r: AbstractRange, words: readonly string[]): void;
  /** Takes every mark off: at the end of the task (a parent marked again meanwhile keeps its mark untouched), or `now`. */
  clear(now?: boolean): void;
}

const NOT_BLANK = /\S/;

/** The node after `node` and its subtree in tree order (null at the end of the tree). */
function after(node: Node): Node | null {
  for (let n: Node | null = node; n; n = n.parentNode) if (n.nextSibling) return n.nextSibling;
  return null;
}

export class ScopeMarks implements ScopeMarker {
  /** The elements marked, with their mark's value (remove() of one highlight leaves them: they may hold other highlights' text). */
  private marked = new Map<Element, string>();

  /**
   * Marks the parent element of every text node `r` covers, but of white space alone: between blocks
   * it is not drawn, and its parent is a container (an <article>, the <body>) whose mark would restyle
   * everything in it. A range within one text node, the usual highlight, marks its parent without a walk.
   */
  mark(r: AbstractRange, words: readonly string[]): void {
    if (!('commonAncestorContainer' in r)) return;
    const range = r as Range;
    const start = range.startContainer;
    const end = range.endContainer;
    if (start === end && start.nodeType === 3) {
      this.markElement(start.parentElement, words);
      return;
    }
    // The nodes from the start point to the end point in tree order: a plain walk (a TreeWalker with a
    // comparePoint() per node cost more).
    const endIsText = end.nodeType === 3;
    const stop = endIsText ? null : (end.childNodes[range.endOffset] ?? after(end));
    let node: Node | null = start.nodeType === 3 ? start : (start.childNodes[range.startOffset] ?? after(start));
    while (node && node !== stop) {
      if (node.nodeType === 3 && NOT_BLANK.test((node as Text).data)) this.markElement(node.parentElement, words);
      if (endIsText && node === end) break;
      node = node.firstChild ?? after(node);
    }
  }

  /** Adds `words` to the element's mark; the attribute is written only when its value changes. */
  private markElement(el: Element | null, words: readonly string[]): void {
    if (!el) return;
    const had = this.marked.get(el);
    let value = had;
    for (const w of words) {
      if (value === undefined) value = w;
      else if (value !== w && !` ${value} `.includes(` ${w} `)) value += ` ${w}`;
    }
    if (value === had || value === undefined) return;
    this.marked.set(el, value);
    if (el.getAttribute(SCOPE_ATTRIBUTE) !== value) el.setAttribute(SCOPE_ATTRIBUTE, value);
  }

  /**
   * At the end of the task by default: the highlighter clears and paints again in one task when it
   * re-anchors, and taking a mark off and putting it back would restyle the element for nothing.
   */
  clear(now = false): void {
    const cleared = this.marked;
    this.marked = new Map();
    const take = () => cleared.forEach((_, el) => this.marked.has(el) || el.removeAttribute(SCOPE_ATTRIBUTE));
    if (now) take();
    else if (cleared.size) queueMicrotask(take);
  }
}
