/**
 * DOM positions -> offsets in a TextIndex's normalised text: where a selection is in the page's text
 * (describing a new highlight). Apart from the index itself, so a script that only paints stored
 * highlights carries none of it.
 */
import { lastAtMost, type TextIndex } from './text-index.js';

const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;
/** Node.DOCUMENT_POSITION_FOLLOWING */
const FOLLOWING = 4;
/** NodeFilter.SHOW_TEXT | SHOW_CDATA_SECTION: the nodes textContent reads. */
const SHOW_TEXT_AND_CDATA = 12;
/** NodeFilter.SHOW_ELEMENT | SHOW_TEXT */
const SHOW_ELEMENT_AND_TEXT = 5;

/** The number of an index entry (a text node or plain element, for offsetInNode), or undefined when it is not one. */
export function nodeIdOf(index: TextIndex, node: Node): number | undefined {
  if (!index.nodeIdsCache) {
    const m = new Map<Node, number>();
    index.nodes.forEach((n, i) => m.set(n, i));
    index.nodeIdsCache = m;
  }
  return index.nodeIdsCache.get(node);
}

/** The plain element indexed whole (text-index.ts) that holds `node`, as its entry number, or undefined. */
export function wholeIdOf(index: TextIndex, node: Node): number | undefined {
  for (let p = node.parentNode; p && p !== index.root; p = p.parentNode) {
    const k = nodeIdOf(index, p);
    if (k !== undefined) return k;
  }
  return undefined;
}

/**
 * The number of characters of plain element `whole`'s text before the point (container, offset) inside it:
 * the lengths of the text nodes before it. (Not through a Range: every Range made stays live, and slows
 * down each later change of the page, until it is collected.)
 */
function textBefore(whole: Node, container: Node, offset: number): number {
  const inText = container.nodeType === TEXT_NODE || container.nodeType === CDATA_SECTION_NODE;
  // The node the point is just before, or null for the end of `container`.
  const stop = inText ? container : container.childNodes[offset] ?? null;
  const walker = whole.ownerDocument!.createTreeWalker(whole, SHOW_TEXT_AND_CDATA);
  let count = inText ? offset : 0;
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
    const past = stop ? t === stop || stop.compareDocumentPosition(t) & FOLLOWING : !container.contains(t) && container.compareDocumentPosition(t) & FOLLOWING;
    if (past) break;
    count += t.length;
  }
  return count;
}

/** Normalised index of the first character standing for raw offset r or a later one. */
export function firstCharFromRaw(index: TextIndex, r: number): number {
  const k = lastAtMost(index.runStart, index.runCount, r);
  if (k < 0) return r;
  if (r >= index.runEnd[k]) return index.runNorm[k] + index.runOut[k] + (r - index.runEnd[k]);
  if (index.runOut[k] === 1 && index.runSrc[k] >= r) return index.runNorm[k];
  return index.runNorm[k] + index.runOut[k];
}

/**
 * Normalised length emitted before raw offset r: a space, collapsed run or single, only counts
 * once the text after it starts (so an empty node right after a space sits before that space).
 */
function emittedBefore(index: TextIndex, r: number): number {
  const k = lastAtMost(index.runStart, index.runCount, r);
  if (k >= 0 && r <= index.runEnd[k]) return index.runNorm[k];
  const from = k < 0 ? 0 : index.runEnd[k];
  const i = k < 0 ? r : index.runNorm[k] + index.runOut[k] + (r - from);
  return r > from && index.text.charCodeAt(i - 1) === 0x20 ? i - 1 : i;
}

/** Normalised offset of the point (index entry k, offset in its text). */
function offsetInNode(index: TextIndex, k: number, offset: number): number {
  const r = index.nodeStart[k] + Math.max(0, offset);
  const i = firstCharFromRaw(index, r);
  if (i < index.text.length) {
    const src = index.rawOf(i);
    if (src < index.nodeEnd[k] && index.nodeAtRaw(src) === k) return i;
  }
  // No character of the node at or after the point: just after its last one, or, for a node with
  // no characters of its own (collapsed whitespace), where its text would have gone.
  const last = index.lastCharOfNode(k);
  return last >= 0 ? last + 1 : emittedBefore(index, index.nodeStart[k]);
}

/**
 * Normalised offset of a DOM boundary point: the number of normalised characters before it.
 * Points in skipped content map to the next indexed text after them.
 */
export function offsetAt(index: TextIndex, container: Node, offset: number): number {
  if (container.nodeType === TEXT_NODE) {
    const k = nodeIdOf(index, container);
    if (k !== undefined) return offsetInNode(index, k, offset);
  }
  // Inside an element indexed whole: the point's place in its text.
  const w = nodeIdOf(index, container) ?? wholeIdOf(index, container);
  if (w !== undefined) {
    const before = textBefore(index.nodes[w], container, offset);
    // An empty text node is placed as one indexed on its own is (offsetInNode): before a space just written.
    if (container.nodeType === TEXT_NODE && !(container as Text).length) return emittedBefore(index, index.nodeStart[w] + before);
    return offsetInNode(index, w, before);
  }
  if (container.nodeType === TEXT_NODE) return offsetFrom(index, container, true);
  const child = container.childNodes[offset];
  if (child) return offsetFrom(index, child, false);
  return offsetFrom(index, container, true);
}

/** Normalised [start, end) of a DOM range, or null when the range lies outside the indexed root. */
export function offsetsOf(index: TextIndex, range: AbstractRange): { start: number; end: number } | null {
  if (!within(index.root, range.startContainer) && !within(index.root, range.endContainer)) return null;
  const start = offsetAt(index, range.startContainer, range.startOffset);
  const end = offsetAt(index, range.endContainer, range.endOffset);
  return { start, end: Math.max(start, end) };
}

/** Whether `node` is inside `root`, crossing out of shadow trees into their hosts. */
function within(root: Node, node: Node): boolean {
  let cur: Node | null = node;
  while (cur) {
    if (cur === root) return true;
    const parent: Node | null = cur.parentNode;
    cur = parent ?? ((cur as ShadowRoot).host as Node | undefined) ?? null;
  }
  return false;
}

/**
 * Offset of the first indexed text at (afterSubtree=false) or after (afterSubtree=true) `node`,
 * in tree order; crosses out of shadow trees into their hosts.
 */
function offsetFrom(index: TextIndex, node: Node, afterSubtree: boolean): number {
  let cur: Node = node;
  let after = afterSubtree;
  for (;;) {
    const treeRoot = cur.getRootNode();
    const walker = index.doc.createTreeWalker(treeRoot, SHOW_ELEMENT_AND_TEXT);
    let start: Node = cur;
    if (after) while (start.lastChild) start = start.lastChild;
    walker.currentNode = start;
    let t: Node | null = after ? walker.nextNode() : start;
    while (t) {
      const k = nodeIdOf(index, t);
      // A boundary before a node whose text starts with a collapsed space belongs after that space.
      if (k !== undefined) return offsetInNode(index, k, 0);
      t = walker.nextNode();
    }
    const host = (treeRoot as ShadowRoot).host;
    if (!host) return index.text.length;
    cur = host;
    after = true;
  }
}
