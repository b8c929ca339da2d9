/**
 * DOM positions -> offsets in a TextIndex's normalised text: where a selection is in the page's text
 * (describing a new highlight). Apart from the index itself, so a script that only paints stored
 * highlights carries none of it.
 */
import type { TextIndex } from './text-index.js';

const TEXT_NODE = 3;
/** NodeFilter.SHOW_TEXT */
const SHOW_TEXT = 4;

/**
 * Normalised offset of a DOM boundary point: the number of normalised characters before it.
 * Points in skipped content map to the next indexed text after them.
 */
export function offsetAt(index: TextIndex, container: Node, offset: number): number {
  if (container.nodeType === TEXT_NODE) {
    const k = index.nodeIdOf(container as Text);
    if (k !== undefined) return index.offsetInNode(k, offset);
    return offsetFrom(index, container, true);
  }
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
    const walker = index.doc.createTreeWalker(treeRoot, SHOW_TEXT);
    let start: Node = cur;
    if (after) while (start.lastChild) start = start.lastChild;
    walker.currentNode = start;
    let t: Node | null = !after && start.nodeType === TEXT_NODE ? start : walker.nextNode();
    while (t) {
      const k = index.nodeIdOf(t as Text);
      // A boundary before a node whose text starts with a collapsed space belongs after that space.
      if (k !== undefined) return index.offsetInNode(k, 0);
      t = walker.nextNode();
    }
    const host = (treeRoot as ShadowRoot).host;
    if (!host) return index.text.length;
    cur = host;
    after = true;
  }
}
