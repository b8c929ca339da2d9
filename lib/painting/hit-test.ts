/**
 * Finding the character under a viewport point, and whether a range covers it. Used where
 * CSS.highlights.highlightsFromPoint is missing, and by the fallback painter.
 */

export interface CharHit {
  node: Text;
  offset: number;
}

interface CaretDocument {
  caretPositionFromPoint?: (x: number, y: number, options?: { shadowRoots?: ShadowRoot[] }) => {
    offsetNode: Node;
    offset: number;
  } | null;
  caretRangeFromPoint?: (x: number, y: number) => Range | null;
}

function within(x: number, y: number, rects: DOMRectList): boolean {
  for (const r of rects) if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return true;
  return false;
}

/** The caret position at viewport point (x, y) (shadowRoots: trees it may be in), or null. */
export function caretAt(doc: Document, x: number, y: number, shadowRoots: readonly ShadowRoot[] = []): { node: Node; offset: number } | null {
  const d = doc as unknown as CaretDocument;
  if (typeof d.caretPositionFromPoint === 'function') {
    const pos = shadowRoots.length > 0 ? d.caretPositionFromPoint(x, y, { shadowRoots: [...shadowRoots] }) : d.caretPositionFromPoint(x, y);
    return pos && { node: pos.offsetNode, offset: pos.offset };
  }
  const r = d.caretRangeFromPoint?.(x, y);
  return r ? { node: r.startContainer, offset: r.startOffset } : null;
}

/** The text character whose box contains (x, y), or null (e.g. over an image or page margin). */
export function charAtPoint(doc: Document, x: number, y: number, shadowRoots: readonly ShadowRoot[] = []): CharHit | null {
  const caret = caretAt(doc, x, y, shadowRoots);
  if (!caret || caret.node.nodeType !== 3) return null;
  const text = caret.node as Text;
  const probe = doc.createRange();
  // The caret sits between characters: the one hit is just after or just before it.
  for (const o of [caret.offset, caret.offset - 1]) {
    if (o < 0 || o >= text.length) continue;
    probe.setStart(text, o);
    probe.setEnd(text, o + 1);
    if (within(x, y, probe.getClientRects())) return { node: text, offset: o };
  }
  return null;
}

/** A live Range for any AbstractRange (StaticRanges have no comparison methods). */
export function liveRange(doc: Document, r: AbstractRange): Range {
  if (typeof (r as Range).isPointInRange === 'function') return r as Range;
  const live = doc.createRange();
  live.setStart(r.startContainer, r.startOffset);
  live.setEnd(r.endContainer, r.endOffset);
  return live;
}

/** True when `range` covers the whole character `hit`. */
export function coversChar(doc: Document, range: AbstractRange, hit: CharHit): boolean {
  const r = liveRange(doc, range);
  return r.isPointInRange(hit.node, hit.offset) && r.isPointInRange(hit.node, hit.offset + 1);
}

/** Total text length of ranges (to order hits from the most specific). */
export function textLength(doc: Document, ranges: readonly AbstractRange[]): number {
  let n = 0;
  for (const r of ranges) n += liveRange(doc, r).toString().length;
  return n;
}
