/**
 * TextIndex: one pass over the visible text of a root, producing the normalised text of the page
 * and a map from every normalised offset back to (Text node, offset in node).
 *
 * Offsets in `text` convert to DOM Ranges (`rangeFor`) and DOM points/Ranges convert back to offsets
 * (`offsetAt`, `offsetsOf`). Build one index per page state and reuse it for every highlight.
 *
 * The map is stored as segments: runs of normalised text that correspond one-to-one to consecutive
 * characters of one text node (a collapsed whitespace run is a one-character segment; block
 * boundaries and <br> are one-character segments mapped to no node).
 */
import { CHAR_SPACE, classifyChar } from './normalize.js';
import { STYLE_INVISIBLE, STYLE_NONE, createStyleCheck, type StyleCheck } from './visibility.js';
import { isBlockTag, isSkippedTag, mayInheritVisibility } from './visibility.js';

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

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
const SHOW_TEXT = 4;

/** Whitespace other than U+0020, and characters that are dropped: both need attention in a text node. */
const WS = '\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WS_NOT_SPACE = '\\t\\n\\v\\f\\r\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const DROP = '\\xad\\u200b-\\u200d\\u2060\\ufeff';
/** Anything but a single U+0020 between other characters: whitespace runs, odd whitespace, dropped characters. */
const SPECIAL = new RegExp(`[${WS}]{2,}|[${WS_NOT_SPACE}]|[${DROP}]`, 'g');

/** Elements allowed to have a shadow root (attachShadow), so others need not be asked. */
const SHADOW_HOSTS = new Set([
  'article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'main', 'nav', 'p', 'section', 'span',
]);

function canHostShadow(localName: string): boolean {
  return SHADOW_HOSTS.has(localName) || localName.includes('-');
}

function ownerDocumentOf(root: Node): Document {
  return root.nodeType === DOCUMENT_NODE ? (root as Document) : (root.ownerDocument as Document);
}

export class TextIndex {
  /** The root the index was built from. */
  readonly root: Node;
  /** Normalised visible text of the root. */
  readonly text: string;
  private readonly doc: Document;
  /** Indexed text nodes in reading order. */
  private readonly nodes: Text[];
  private nodeIdsCache: Map<Text, number> | null = null;
  /** Segments: normalised start, text node index (-1 = synthetic space), offset in the node. */
  private readonly segNorm: Int32Array;
  private readonly segNode: Int32Array;
  private readonly segRaw: Int32Array;
  private readonly segCount: number;
  /** Per node: first and last segment (-1 if none), and the normalised offset where the node sits. */
  private readonly nodeFirstSeg: number[];
  private readonly nodeLastSeg: number[];
  private readonly nodeInsertAt: number[];

  constructor(root: Node, options: TextIndexOptions = {}) {
    this.root = root;
    this.doc = ownerDocumentOf(root);
    const b = new IndexBuilder(createStyleCheck(this.doc, options.computedStyle ?? 'auto'));
    b.walk(root);
    this.text = b.parts.join('');
    this.nodes = b.nodes;
    this.segNorm = b.segNorm;
    this.segNode = b.segNode;
    this.segRaw = b.segRaw;
    this.segCount = b.segCount;
    this.nodeFirstSeg = b.nodeFirstSeg;
    this.nodeLastSeg = b.nodeLastSeg;
    this.nodeInsertAt = b.nodeInsertAt;
  }

  /** Number of text nodes that took part in the index. */
  get nodeCount(): number {
    return this.nodes.length;
  }

  private get nodeIds(): Map<Text, number> {
    if (!this.nodeIdsCache) {
      const m = new Map<Text, number>();
      this.nodes.forEach((n, i) => m.set(n, i));
      this.nodeIdsCache = m;
    }
    return this.nodeIdsCache;
  }

  private segEnd(s: number): number {
    return s + 1 < this.segCount ? this.segNorm[s + 1] : this.text.length;
  }

  /** Segment containing normalised offset i (0 <= i < text.length). */
  private segAt(i: number): number {
    const norm = this.segNorm;
    let lo = 0;
    let hi = this.segCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (norm[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The first character at or after `i` that lies in a text node, as [segment, offset]; null if none. */
  private realCharFrom(i: number, limit: number): [number, number] | null {
    if (i >= limit) return null;
    let s = this.segAt(i);
    while (this.segNode[s] < 0) {
      s++;
      if (s >= this.segCount || this.segNorm[s] >= limit) return null;
      i = this.segNorm[s];
    }
    return [s, i];
  }

  /** The last character before `i` that lies in a text node, as [segment, offset]; null if none. */
  private realCharBefore(i: number, floor: number): [number, number] | null {
    if (i <= floor) return null;
    let j = i - 1;
    let s = this.segAt(j);
    while (this.segNode[s] < 0) {
      s--;
      if (s < 0) return null;
      j = this.segEnd(s) - 1;
      if (j < floor) return null;
    }
    return [s, j];
  }

  private nodeOffset(s: number, i: number): number {
    return this.segRaw[s] + (i - this.segNorm[s]);
  }

  /** DOM point just before normalised char `offset` (or after the last char when offset = text.length). */
  pointAt(offset: number): DomPoint | null {
    const n = this.text.length;
    const f = this.realCharFrom(Math.max(0, offset), n);
    if (f) return { node: this.nodes[this.segNode[f[0]]], offset: this.nodeOffset(f[0], f[1]) };
    const b = this.realCharBefore(Math.min(offset, n), 0);
    if (b) return { node: this.nodes[this.segNode[b[0]]], offset: this.nodeOffset(b[0], b[1]) + 1 };
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
    const first = this.realCharFrom(start, end);
    const last = first && this.realCharBefore(end, first[1]);
    if (!first || !last) {
      const p = this.pointAt(start);
      if (p) {
        range.setStart(p.node, p.offset);
        range.collapse(true);
      }
      return range;
    }
    const startNode = this.nodes[this.segNode[first[0]]];
    let [ls, li] = last;
    let endNode = this.nodes[this.segNode[ls]];
    if (endNode.getRootNode() !== startNode.getRootNode()) {
      // A DOM Range cannot cross a shadow boundary: keep the part in the start's tree.
      const root = startNode.getRootNode();
      while (ls > first[0] && (this.segNode[ls] < 0 || this.nodes[this.segNode[ls]].getRootNode() !== root)) ls--;
      li = ls === first[0] ? Math.max(first[1], this.segEnd(ls) - 1) : this.segEnd(ls) - 1;
      endNode = this.nodes[this.segNode[ls]];
    }
    range.setStart(startNode, this.nodeOffset(first[0], first[1]));
    range.setEnd(endNode, this.nodeOffset(ls, li) + 1);
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
    const fs = this.nodeFirstSeg[k];
    if (fs < 0) return this.nodeInsertAt[k];
    const ls = this.nodeLastSeg[k];
    // First segment of the node that ends after `offset` (segments of a node are in raw order).
    let lo = fs;
    let hi = ls + 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.segRaw[mid] + (this.segEnd(mid) - this.segNorm[mid]) > offset) hi = mid;
      else lo = mid + 1;
    }
    if (lo > ls) return this.segEnd(ls);
    return offset <= this.segRaw[lo] ? this.segNorm[lo] : this.segNorm[lo] + (offset - this.segRaw[lo]);
  }

  private firstOffsetOfNode(k: number): number {
    const fs = this.nodeFirstSeg[k];
    return fs >= 0 ? this.segNorm[fs] : this.nodeInsertAt[k];
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
        if (k !== undefined) {
          // A boundary before a node whose text starts with a collapsed space belongs after that space.
          return this.firstOffsetOfNode(k);
        }
        t = walker.nextNode();
      }
      const host = (treeRoot as ShadowRoot).host;
      if (!host) return this.text.length;
      cur = host;
      after = true;
    }
  }
}

/** Where the walk is: the next sibling to visit (or a list, for slots), and what the parent decided. */
interface Frame {
  next: Node | null;
  list: ArrayLike<Node> | null;
  i: number;
  block: boolean;
  textShown: boolean;
  /** The parent element's style was checked and found visible (inline children may inherit that). */
  checked: boolean;
}

/** Accumulates normalised text and its segments during one walk. */
class IndexBuilder {
  parts: string[] = [];
  length = 0;
  nodes: Text[] = [];
  segNorm = new Int32Array(1024);
  segNode = new Int32Array(1024);
  segRaw = new Int32Array(1024);
  segCount = 0;
  nodeFirstSeg: number[] = [];
  nodeLastSeg: number[] = [];
  nodeInsertAt: number[] = [];
  private pending = false;
  private pendingNode = -1;
  private pendingOffset = 0;

  constructor(private readonly styleCheck: StyleCheck | null) {}

  walk(root: Node): void {
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
    const stack: Frame[] = [];
    if (top.nodeType === ELEMENT_NODE) {
      const frame = this.enter(top as Element, true, false);
      if (!frame) return;
      stack.push(frame);
    } else {
      stack.push({ next: top.firstChild, list: null, i: 0, block: false, textShown: true, checked: false });
    }
    while (stack.length > 0) {
      const f = stack[stack.length - 1];
      let node: Node | null;
      if (f.list) node = f.i < f.list.length ? f.list[f.i++] : null;
      else {
        node = f.next;
        if (node) f.next = node.nextSibling;
      }
      if (!node) {
        stack.pop();
        if (f.block) this.breakText();
        continue;
      }
      const type = node.nodeType;
      if (type === TEXT_NODE) {
        if (f.textShown) this.addText(node as Text);
      } else if (type === ELEMENT_NODE) {
        const child = this.enter(node as Element, f.textShown, f.checked);
        if (child) stack.push(child);
      }
    }
  }

  /** Decides whether to walk into `el`; returns its frame, or null to skip it. */
  private enter(el: Element, parentShown: boolean, parentChecked: boolean): Frame | null {
    const name = el.localName;
    if (isSkippedTag(name)) return null;
    const hasAttributes = el.hasAttributes();
    if (hasAttributes && el.hasAttribute('hidden')) return null;
    let textShown = parentShown;
    let checked = false;
    if (this.styleCheck && !(parentChecked && mayInheritVisibility(el, name, hasAttributes))) {
      const s = this.styleCheck(el);
      if (s === STYLE_NONE) return null;
      textShown = s !== STYLE_INVISIBLE;
      checked = true;
    } else if (this.styleCheck) {
      checked = true; // inherits the checked parent's result
    }
    const block = isBlockTag(name);
    if (block) this.breakText();
    const shadow = canHostShadow(name) ? (el as HTMLElement).shadowRoot : null;
    if (shadow) return { next: shadow.firstChild, list: null, i: 0, block, textShown, checked };
    if (name === 'slot' && typeof (el as HTMLSlotElement).assignedNodes === 'function') {
      const assigned = (el as HTMLSlotElement).assignedNodes();
      if (assigned.length > 0) return { next: null, list: assigned, i: 0, block, textShown, checked };
    }
    return { next: el.firstChild, list: null, i: 0, block, textShown, checked };
  }

  /** A block boundary or <br>: acts as whitespace. */
  private breakText(): void {
    if (!this.pending) {
      this.pending = true;
      this.pendingNode = -1;
      this.pendingOffset = 0;
    }
  }

  private space(k: number, offset: number): void {
    if (!this.pending) {
      this.pending = true;
      this.pendingNode = k;
      this.pendingOffset = offset;
    }
  }

  private pushSegment(k: number, raw: number, str: string): void {
    if (this.segCount === this.segNorm.length) {
      const cap = this.segCount * 2;
      const a = new Int32Array(cap);
      a.set(this.segNorm);
      this.segNorm = a;
      const b = new Int32Array(cap);
      b.set(this.segNode);
      this.segNode = b;
      const c = new Int32Array(cap);
      c.set(this.segRaw);
      this.segRaw = c;
    }
    const s = this.segCount++;
    this.segNorm[s] = this.length;
    this.segNode[s] = k;
    this.segRaw[s] = raw;
    this.parts.push(str);
    this.length += str.length;
    if (k >= 0) {
      if (this.nodeFirstSeg[k] < 0) this.nodeFirstSeg[k] = s;
      this.nodeLastSeg[k] = s;
    }
  }

  /** Emits kept text data[a, b) of node k (no whitespace at either edge), after any pending space. */
  private emit(k: number, data: string, a: number, b: number): void {
    if (this.pending) {
      if (this.length > 0) this.pushSegment(this.pendingNode, this.pendingOffset, ' ');
      this.pending = false;
    }
    this.pushSegment(k, a, a === 0 && b === data.length ? data : data.slice(a, b));
  }

  /** Text data[a, b) holding no special characters (single U+0020 spaces only). */
  private run(k: number, data: string, a: number, b: number): void {
    if (a >= b) return;
    if (data.charCodeAt(a) === 0x20) {
      this.space(k, a);
      a++;
      if (a >= b) return;
    }
    if (data.charCodeAt(b - 1) === 0x20) {
      this.emit(k, data, a, b - 1);
      this.space(k, b - 1);
    } else {
      this.emit(k, data, a, b);
    }
  }

  private addText(t: Text): void {
    const k = this.nodes.length;
    this.nodes.push(t);
    this.nodeFirstSeg.push(-1);
    this.nodeLastSeg.push(-1);
    this.nodeInsertAt.push(this.length);
    const data = t.data;
    const n = data.length;
    let j = 0;
    while (j < n) {
      SPECIAL.lastIndex = j;
      const m = SPECIAL.exec(data);
      if (!m) {
        this.run(k, data, j, n);
        break;
      }
      const at = m.index;
      this.run(k, data, j, at);
      if (classifyChar(data.charCodeAt(at)) === CHAR_SPACE) this.space(k, at);
      j = at + m[0].length;
    }
  }
}

export type { StyleCheck };
