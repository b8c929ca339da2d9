/**
 * A new highlight's first frame, drawn on a canvas instead of by the painter.
 *
 * Once a page has Highlight API highlights, Chromium repaints the page's whole layer after any change
 * to a highlight, which on a long page takes a frame past a person's notice; drawing on a canvas that
 * is already in the page changes neither the DOM nor a highlight, so that frame stays small. The caller
 * paints the highlight for real right after that frame (bench/README.md, "First-frame overlay").
 *
 * The canvas is sized and drawn on once, when the selection toolbar is shown, because the first drawing
 * after sizing costs a whole repaint too; so it keeps its half-resolution bitmap (about 1 MB) while the
 * page lives. It ignores the pointer, is hidden from assistive technology, and a scroll clears it.
 */
import type { HighlightColor } from '../api/constants.js';
import { COLOR_VALUES } from './highlight-css.js';

/** A selection over more text nodes than this is painted the usual way (drawing it would cost more than it saves). */
const MAX_TEXT_NODES = 200;
/** The bitmap's pixels per CSS pixel. */
const SCALE = 0.5;

export class FirstFrameOverlay {
  readonly canvas: HTMLCanvasElement;
  private shown = false;
  private readonly onScroll = () => this.clear();

  /** `container`: where the canvas goes (the highlighter's shadow root, so the page's styles and observers do not reach it). */
  constructor(container: ParentNode) {
    const doc = container.ownerDocument ?? (container as Document);
    this.canvas = doc.createElement('canvas');
    this.canvas.setAttribute('aria-hidden', 'true');
    this.canvas.style.cssText = 'position:fixed;top:0;left:0;width:100vw;height:100vh;pointer-events:none;margin:0;border:0;padding:0';
    this.canvas.width = 0;
    this.canvas.height = 0;
    container.append(this.canvas);
  }

  private get view() {
    return this.canvas.ownerDocument.defaultView!;
  }

  /** The bitmap's size for the view as it is now. */
  private size(): [number, number] {
    const { innerWidth: w, innerHeight: h } = this.view;
    return [Math.ceil(w * SCALE), Math.ceil(h * SCALE)];
  }

  /** Sizes the canvas to the view and draws on it, if it is not already: call it where the page renders a frame anyway. */
  prepare(): void {
    const [w, h] = this.size();
    const { canvas } = this;
    if (canvas.width === w && canvas.height === h) return;
    this.clear();
    canvas.width = w;
    canvas.height = h;
    canvas.getContext('2d')?.clearRect(0, 0, 1, 1);
  }

  /**
   * Draws the boxes of `range`'s text in `color`. False, with nothing drawn, when the canvas is not
   * sized to the view (not prepared, or the window was resized since), or the range spans too many text
   * nodes or has no box (its text hidden): the caller paints the usual way.
   */
  show(range: Range, color: HighlightColor): boolean {
    const win = this.view;
    const { canvas } = this;
    const [w, h] = this.size();
    if (canvas.width !== w || canvas.height !== h || w === 0) return false;
    const rects = textRects(range);
    const ctx = rects && canvas.getContext('2d');
    if (!rects?.length || !ctx) return false;
    // Where the canvas is (a transformed <html> moves fixed elements) and its scale (zoom).
    const box = canvas.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const sx = canvas.width / box.width;
    const sy = canvas.height / box.height;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = COLOR_VALUES[color];
    for (const r of rects) ctx.fillRect((r.left - box.left) * sx, (r.top - box.top) * sy, r.width * sx, r.height * sy);
    if (!this.shown) win.addEventListener('scroll', this.onScroll, { capture: true, passive: true });
    this.shown = true;
    return true;
  }

  /** Rubs out what show() drew (the canvas keeps its size and bitmap). */
  clear(): void {
    if (!this.shown) return;
    this.shown = false;
    this.view.removeEventListener('scroll', this.onScroll, { capture: true });
    this.canvas.getContext('2d')?.clearRect(0, 0, this.canvas.width, this.canvas.height);
  }
}

/** The boxes of the text `range` covers (not of the elements it contains), or null past MAX_TEXT_NODES. */
function textRects(range: Range): DOMRect[] | null {
  const doc = range.startContainer.ownerDocument ?? (range.startContainer as Document);
  const root = range.commonAncestorContainer;
  const out: DOMRect[] = [];
  const part = doc.createRange();
  const add = (node: Text) => {
    const start = node === range.startContainer ? range.startOffset : 0;
    const end = node === range.endContainer ? range.endOffset : node.data.length;
    if (end <= start) return;
    part.setStart(node, start);
    part.setEnd(node, end);
    for (const r of part.getClientRects()) if (r.width > 0 && r.height > 0) out.push(r);
  };
  if (root.nodeType === Node.TEXT_NODE) {
    add(root as Text);
    return out;
  }
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  // From the range's start, not from the top of its common ancestor (the whole page for a long range).
  const { startContainer: sc, startOffset: so } = range;
  const first = sc.nodeType === Node.TEXT_NODE ? sc : sc.childNodes[so];
  walker.currentNode = first ?? sc;
  let seen = 0;
  for (let n: Node | null = first?.nodeType === Node.TEXT_NODE ? first : walker.nextNode(); n; n = walker.nextNode()) {
    if (!range.intersectsNode(n)) {
      if (seen > 0) break;
      continue;
    }
    if (++seen > MAX_TEXT_NODES) return null;
    add(n as Text);
  }
  return out;
}
