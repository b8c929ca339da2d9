/**
 * TextIndex: one pass over the visible text of a root, producing the normalised text of the page
 * and a map from every normalised offset back to (Text node, offset in node).
 *
 * Offsets in `text` convert to DOM Ranges (`rangeFor`) and DOM points/Ranges convert back to offsets
 * (`offsetAt`, `offsetsOf`). Build one index per page state and reuse it for every highlight.
 */
import { CHAR_DROP, CHAR_KEEP, classifyChar } from './normalize.js';
import {
  STYLE_INVISIBLE,
  STYLE_NONE,
  createStyleCheck,
  isBlockLike,
  isSkippedByMarkup,
  type StyleCheck,
} from './visibility.js';

export interface TextIndexOptions {
  /**
   * Consult computed style (`display: none`, `visibility: hidden`) to skip hidden text.
   * 'auto' (default): when the root's window provides getComputedStyle.
   */
  computedStyle?: boolean | 'auto';
}

/** A boundary point in the DOM. */
export interface DomPoint {
  node: Node;
  offset: number;
}

interface Frame {
  children: ArrayLike<Node>;
  i: number;
  block: boolean;
  textShown: boolean;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
const SHOW_TEXT = 4;

function ownerDocumentOf(root: Node): Document {
  return root.nodeType === DOCUMENT_NODE ? (root as Document) : (root.ownerDocument as Document);
}

/** Children in the flat tree: open shadow roots replace light children, slots show what is assigned. */
function flatChildren(el: Element): ArrayLike<Node> {
  const shadow = (el as HTMLElement).shadowRoot;
  if (shadow) return shadow.childNodes;
  if (el.localName === 'slot' && typeof (el as HTMLSlotElement).assignedNodes === 'function') {
    const assigned = (el as HTMLSlotElement).assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return el.childNodes;
}

export class TextIndex {
  /** The root the index was built from. */
  readonly root: Node;
  /** Normalised visible text of the root. */
  readonly text: string;
  /** Indexed text nodes in reading order. */
  private readonly nodes: Text[];
  private readonly nodeIds: Map<Text, number>;
  /** Per normalised char: index into `nodes`, or -1 for a synthetic space (block boundary, <br>). */
  private readonly charNode: Int32Array;
  /** Per normalised char: offset of the source character within its text node. */
  private readonly charOffset: Int32Array;
  /** Per node: first and last normalised index mapped to it (-1 if none), and where it sits in `text`. */
  private readonly firstChar: Int32Array;
  private readonly lastChar: Int32Array;
  private readonly insertAt: Int32Array;
  private readonly doc: Document;

  constructor(root: Node, options: TextIndexOptions = {}) {
    this.root = root;
    this.doc = ownerDocumentOf(root);
    const styleCheck = createStyleCheck(this.doc, options.computedStyle ?? 'auto');
    const b = new IndexBuilder();
    b.walk(root, styleCheck);
    const n = b.length;
    this.text = b.decode();
    this.charNode = b.charNode.slice(0, n);
    this.charOffset = b.charOffset.slice(0, n);
    this.nodes = b.nodes;
    this.nodeIds = b.nodeIds;
    this.firstChar = Int32Array.from(b.firstChar);
    this.lastChar = Int32Array.from(b.lastChar);
    this.insertAt = Int32Array.from(b.insertAt);
  }

  /** Number of text nodes that took part in the index. */
  get nodeCount(): number {
    return this.nodes.length;
  }

  /** DOM point just before normalised char `offset` (or after the last char when offset = text.length). */
  pointAt(offset: number): DomPoint | null {
    const n = this.text.length;
    for (let j = Math.max(0, offset); j < n; j++) {
      const k = this.charNode[j];
      if (k >= 0) return { node: this.nodes[k], offset: this.charOffset[j] };
    }
    for (let j = Math.min(offset, n) - 1; j >= 0; j--) {
      const k = this.charNode[j];
      if (k >= 0) return { node: this.nodes[k], offset: this.charOffset[j] + 1 };
    }
    return null;
  }

  /**
   * A DOM Range covering normalised text [start, end). Synthetic spaces at either edge are left out.
   * A DOM Range cannot cross a shadow-root boundary, so a span that does is cut at the end of the
   * start's tree.
   */
  rangeFor(start: number, end: number): Range {
    const n = this.text.length;
    start = Math.max(0, Math.min(start, n));
    end = Math.max(start, Math.min(end, n));
    const range = this.doc.createRange();
    let s = start;
    while (s < end && this.charNode[s] < 0) s++;
    let e = end - 1;
    while (e >= s && this.charNode[e] < 0) e--;
    if (s > e) {
      const p = this.pointAt(start);
      if (p) {
        range.setStart(p.node, p.offset);
        range.collapse(true);
      }
      return range;
    }
    const startNode = this.nodes[this.charNode[s]];
    let endNode = this.nodes[this.charNode[e]];
    if (endNode.getRootNode() !== startNode.getRootNode()) {
      // A DOM Range cannot cross a shadow boundary: keep the part in the start's tree.
      const root = startNode.getRootNode();
      while (e > s && (this.charNode[e] < 0 || this.nodes[this.charNode[e]].getRootNode() !== root)) e--;
      endNode = this.nodes[this.charNode[e]];
    }
    range.setStart(startNode, this.charOffset[s]);
    range.setEnd(endNode, this.charOffset[e] + 1);
    return range;
  }

  /**
   * Normalised offset of a DOM boundary point: the number of normalised characters before it.
   * Points in skipped content map to the next indexed text after them.
   */
  offsetAt(container: Node, offset: number): number {
    if (container.nodeType === TEXT_NODE) {
      const k = this.nodeIds.get(container as Text);
      if (k !== undefined) return this.offsetInNode(k, offset);
      return this.offsetFrom(container, true);
    }
    const child = container.childNodes[offset];
    if (child) return this.offsetFrom(child, false);
    return this.offsetFrom(container, true);
  }

  /** Normalised [start, end) of a DOM range, or null when the range lies outside the indexed root. */
  offsetsOf(range: AbstractRange): { start: number; end: number } | null {
    if (!this.contains(range.startContainer) && !this.contains(range.endContainer)) return null;
    const start = this.offsetAt(range.startContainer, range.startOffset);
    const end = this.offsetAt(range.endContainer, range.endOffset);
    return { start, end: Math.max(start, end) };
  }

  private contains(node: Node): boolean {
    const root = this.root;
    let cur: Node | null = node;
    while (cur) {
      if (cur === root) return true;
      const parent: Node | null = cur.parentNode;
      cur = parent ?? ((cur as ShadowRoot).host as Node | undefined) ?? null;
    }
    return false;
  }

  private offsetInNode(k: number, offset: number): number {
    const f = this.firstChar[k];
    if (f < 0) return this.insertAt[k];
    const l = this.lastChar[k];
    const off = this.charOffset;
    if (offset <= off[f]) return f;
    if (offset > off[l]) return l + 1;
    let lo = f;
    let hi = l;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (off[mid] >= offset) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * Offset of the first indexed text at (afterSubtree=false) or after (afterSubtree=true) `node`,
   * in tree order; crosses out of shadow trees into their hosts.
   */
  private offsetFrom(node: Node, afterSubtree: boolean): number {
    let cur: Node = node;
    let after = afterSubtree;
    for (;;) {
      const treeRoot = cur.getRootNode();
      const walker = this.doc.createTreeWalker(treeRoot, SHOW_TEXT);
      let start: Node = cur;
      if (after) while (start.lastChild) start = start.lastChild;
      walker.currentNode = start;
      let t: Node | null = !after && start.nodeType === TEXT_NODE ? start : walker.nextNode();
      while (t) {
        const k = this.nodeIds.get(t as Text);
        if (k !== undefined) return this.firstChar[k] >= 0 ? this.firstChar[k] : this.insertAt[k];
        t = walker.nextNode();
      }
      const host = (treeRoot as ShadowRoot).host;
      if (!host) return this.text.length;
      cur = host;
      after = true;
    }
  }
}

/** Accumulates normalised characters and their source positions during one walk. */
class IndexBuilder {
  length = 0;
  buf = new Uint16Array(1 << 14);
  charNode = new Int32Array(1 << 14);
  charOffset = new Int32Array(1 << 14);
  nodes: Text[] = [];
  nodeIds = new Map<Text, number>();
  firstChar: number[] = [];
  lastChar: number[] = [];
  insertAt: number[] = [];
  private pending = false;
  private pendingNode = -1;
  private pendingOffset = 0;

  walk(root: Node, styleCheck: StyleCheck | null): void {
    let top: Node | null = root;
    if (root.nodeType === DOCUMENT_NODE) {
      const doc = root as Document;
      top = doc.body ?? doc.documentElement;
      if (!top) return;
    }
    if (top.nodeType === TEXT_NODE) {
      this.addText(top as Text);
      return;
    }
    let shown = true;
    let block = false;
    let children: ArrayLike<Node> = top.childNodes;
    if (top.nodeType === ELEMENT_NODE) {
      const el = top as Element;
      if (isSkippedByMarkup(el)) return;
      if (styleCheck) {
        const s = styleCheck(el);
        if (s === STYLE_NONE) return;
        shown = s !== STYLE_INVISIBLE;
      }
      block = isBlockLike(el);
      children = flatChildren(el);
    }
    const stack: Frame[] = [{ children, i: 0, block, textShown: shown }];
    while (stack.length > 0) {
      const f = stack[stack.length - 1];
      if (f.i >= f.children.length) {
        stack.pop();
        if (f.block) this.breakText();
        continue;
      }
      const node = f.children[f.i++];
      const type = node.nodeType;
      if (type === TEXT_NODE) {
        if (f.textShown) this.addText(node as Text);
        continue;
      }
      if (type !== ELEMENT_NODE) continue;
      const el = node as Element;
      if (isSkippedByMarkup(el)) continue;
      let textShown = f.textShown;
      if (styleCheck) {
        const s = styleCheck(el);
        if (s === STYLE_NONE) continue;
        textShown = s !== STYLE_INVISIBLE;
      }
      const isBlock = isBlockLike(el);
      if (isBlock) this.breakText();
      stack.push({ children: flatChildren(el), i: 0, block: isBlock, textShown });
    }
  }

  /** A block boundary or <br>: acts as whitespace. */
  private breakText(): void {
    if (!this.pending) {
      this.pending = true;
      this.pendingNode = -1;
      this.pendingOffset = 0;
    }
  }

  private grow(): void {
    const cap = this.buf.length * 2;
    const buf = new Uint16Array(cap);
    buf.set(this.buf);
    this.buf = buf;
    const cn = new Int32Array(cap);
    cn.set(this.charNode);
    this.charNode = cn;
    const co = new Int32Array(cap);
    co.set(this.charOffset);
    this.charOffset = co;
  }

  private push(c: number, k: number, offset: number): void {
    if (this.length === this.buf.length) this.grow();
    const i = this.length++;
    this.buf[i] = c;
    this.charNode[i] = k;
    this.charOffset[i] = offset;
    if (k >= 0) {
      if (this.firstChar[k] < 0) this.firstChar[k] = i;
      this.lastChar[k] = i;
    }
  }

  private addText(t: Text): void {
    const k = this.nodes.length;
    this.nodes.push(t);
    this.nodeIds.set(t, k);
    this.firstChar.push(-1);
    this.lastChar.push(-1);
    this.insertAt.push(this.length);
    const data = t.data;
    const n = data.length;
    for (let j = 0; j < n; j++) {
      const c = data.charCodeAt(j);
      const cls = c > 0x20 && c < 0x7f ? CHAR_KEEP : classifyChar(c);
      if (cls === CHAR_KEEP) {
        if (this.pending) {
          if (this.length > 0) this.push(0x20, this.pendingNode, this.pendingOffset);
          this.pending = false;
        }
        // Capacity for the char and its preceding space is ensured in push().
        if (this.length === this.buf.length) this.grow();
        const i = this.length++;
        this.buf[i] = c;
        this.charNode[i] = k;
        this.charOffset[i] = j;
        if (this.firstChar[k] < 0) this.firstChar[k] = i;
        this.lastChar[k] = i;
      } else if (cls !== CHAR_DROP && !this.pending) {
        this.pending = true;
        this.pendingNode = k;
        this.pendingOffset = j;
      }
    }
  }

  decode(): string {
    const parts: string[] = [];
    const CHUNK = 8192;
    for (let i = 0; i < this.length; i += CHUNK) {
      const sub = this.buf.subarray(i, Math.min(this.length, i + CHUNK));
      parts.push(String.fromCharCode.apply(null, sub as unknown as number[]));
    }
    return parts.join('');
  }
}
