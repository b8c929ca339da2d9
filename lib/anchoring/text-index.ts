/**
 * TextIndex: one pass over the visible text of a root, producing the normalised text of the page
 * and a way back from every normalised offset to (Text node, offset in node).
 *
 * Offsets in `text` convert to DOM Ranges (`rangeFor`) and DOM points/Ranges convert back to offsets
 * (`offsetAt`, `offsetsOf`). Build one index per page state and reuse it for every highlight.
 *
 * On a long page the walk is most of the cost of anchoring, so it does as little per node as it can:
 * it collects visible text into a "raw" text with each node's span in typed arrays, and the normalised
 * text keeps only the runs where it differs from the raw one (an offset converts by two binary
 * searches). An element whose text is plain (only text and bare inline elements) is one entry read with
 * textContent, because in a content script's isolated world every node touched costs a wrapper object
 * and garbage collection.
 */
import type { TextChanges } from './text-changes.js';
import { CHAR_SPACE, DROPPED_CHARS, OTHER_SPACE_CHARS, classifyChar } from './normalize.js';
import {
  STYLE_INVISIBLE,
  STYLE_NONE,
  TAG_BLOCK,
  TAG_HOST,
  TAG_INHERITS,
  TAG_SKIPPED,
  HidingRules,
  createStyleCheck,
  HIDDEN_OR_STYLED,
  notPlain,
  tagFlags,
  type StyleCheck,
} from './visibility.js';

export interface TextIndexOptions {
  /**
   * Consult computed style (`display: none`, `visibility: hidden`) to skip hidden text.
   * 'auto' (default): when the root's window provides getComputedStyle.
   */
  computedStyle?: boolean | 'auto';
}

/** How sliced work (TextIndex.build, anchorAllSliced) shares the main thread with the page. */
export interface SliceOptions {
  /** Work done before yielding to the page, in ms (default 8). */
  sliceMs?: number;
  /** How to yield (default: a macrotask through MessageChannel, or scheduler.yield where it exists). */
  yieldToPage?: () => Promise<void>;
}

export const DEFAULT_SLICE_MS = 8;

/** Lets the page run (input, rendering, its own tasks) before the next slice of work. */
export function yieldToPage(): Promise<void> {
  const sched = (globalThis as unknown as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (sched && typeof sched.yield === 'function') return sched.yield();
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

function newBuilder(doc: Document, options: TextIndexOptions): IndexBuilder {
  const styleCheck = createStyleCheck(doc, options.computedStyle ?? 'auto');
  return new IndexBuilder(styleCheck, styleCheck ? new HidingRules(doc) : null);
}

/** A boundary point in the DOM. */
export interface DomPoint {
  node: Node;
  offset: number;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
/** NodeFilter.SHOW_TEXT | SHOW_CDATA_SECTION: the nodes textContent reads. */
const SHOW_TEXT_AND_CDATA = 12;

/**
 * An entry of the index: a text node, or an element whose whole text is plain (see above), which stands
 * for all the text nodes inside it.
 */
export type IndexedNode = Text | Element;

/** Whitespace (collapsed to one space) and characters that are dropped; see normalize.ts. */
const WS = ` ${OTHER_SPACE_CHARS}`;
/**
 * Special runs of the raw text: maximal runs of whitespace and dropped characters, except a single
 * U+0020 between two kept characters (the common case, which maps one to one). A space at either
 * end of the text is special too (it is trimmed).
 */
const SPECIAL = new RegExp(`[${WS}${DROPPED_CHARS}]{2,}|[${OTHER_SPACE_CHARS}${DROPPED_CHARS}]|^ | $`, 'g');
/** Whitespace only (to find the character a collapsed run's space stands for). */
const WS_CHAR = new RegExp(`[${WS}]`, 'g');
/** Stands for a block boundary or <br> in the raw text: whitespace, and never inside a node's range. */
export const BREAK = '\n';

function ownerDocumentOf(root: Node): Document {
  return root.nodeType === DOCUMENT_NODE ? (root as Document) : (root.ownerDocument as Document);
}

/** Last index i in [0, count) with a[i] <= x, or -1. */
export function lastAtMost(a: Int32Array, count: number, x: number): number {
  let lo = 0;
  let hi = count - 1;
  if (count === 0 || a[0] > x) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (a[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export class TextIndex {
  /** The root the index was built from. */
  readonly root: Node;
  /** Normalised visible text of the root. */
  readonly text: string;
  /** The text as walked (before normalisation), which the node offsets are in; kept for patching (text-index-patch.ts). */
  readonly raw: string;
  readonly doc: Document;
  /** Indexed text nodes and plain elements (IndexedNode) in reading order, with their [start, end) in the raw text (read by text-index-patch.ts). */
  readonly nodes: IndexedNode[];
  readonly nodeStart: Int32Array;
  readonly nodeEnd: Int32Array;
  /** Node -> number (range-offsets.ts nodeIdOf), made on first use; text-index-patch.ts hands it on to the patched index. */
  nodeIdsCache: Map<Node, number> | null = null;
  /** The TextSearch of this index's text (search-text.ts textSearchOf), made on first use. */
  search: object | null = null;
  /**
   * The text changes since the highlighter last anchored its unfound highlights (text-changes.ts), kept
   * by the patcher from index to patched index: undefined for an index built anew (the changes are not
   * known: everything is retried), null for none.
   */
  declare changed?: TextChanges | null;
  /**
   * Special runs of the raw text, in order: raw [runStart, runEnd) became `runOut` (0 or 1) spaces
   * at normalised offset `runNorm`; a space stands for the raw character at `runSrc` (the run's first
   * whitespace character, which may be a block boundary). Between runs, raw and normalised text
   * advance together.
   */
  readonly runStart: Int32Array;
  readonly runEnd: Int32Array;
  readonly runNorm: Int32Array;
  readonly runOut: Uint8Array;
  readonly runSrc: Int32Array;
  readonly runCount: number;

  /**
   * Builds the index of `root` in one task. On long pages prefer `TextIndex.build`, which walks the
   * page in slices and lets the page run in between.
   */
  constructor(root: Node, options: TextIndexOptions = {}, walked?: WalkedText, normalised?: NormalisedText) {
    this.root = root;
    this.doc = ownerDocumentOf(root);
    let b = walked;
    if (!b) {
      const walker = newBuilder(this.doc, options);
      walker.begin(root);
      walker.run(() => false);
      b = walker;
    }
    this.nodes = b.nodes;
    this.nodeStart = b.nodeStart;
    this.nodeEnd = b.nodeEnd;
    const n = normalised ?? new Normaliser(b.parts.join(''));
    this.text = n.text;
    this.raw = n.raw;
    this.runStart = n.runStart;
    this.runEnd = n.runEnd;
    this.runNorm = n.runNorm;
    this.runOut = n.runOut;
    this.runSrc = n.runSrc;
    this.runCount = n.count;
  }

  /**
   * Builds the index of `root` in slices of about `sliceMs` of work, yielding to the page between
   * them (no long task on long pages). The page must not change meanwhile: a caller watching for
   * mutations discards an index whose build overlapped one.
   */
  static async build(root: Node, options: TextIndexOptions & SliceOptions = {}): Promise<TextIndex> {
    const b = newBuilder(ownerDocumentOf(root), options);
    const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
    const pause = options.yieldToPage ?? yieldToPage;
    b.begin(root);
    for (;;) {
      const until = performance.now() + sliceMs;
      if (b.run(() => performance.now() >= until)) break;
      await pause();
    }
    await pause();
    const n = new Normaliser(b.parts.join(''), true);
    for (;;) {
      const until = performance.now() + sliceMs;
      if (n.run(() => performance.now() >= until)) break;
      await pause();
    }
    n.finish();
    return new TextIndex(root, options, b, n);
  }

  /** Index of the node whose raw range holds raw offset r, or -1 (a block boundary). */
  nodeAtRaw(r: number): number {
    const k = lastAtMost(this.nodeStart, this.nodes.length, r);
    return k >= 0 && r < this.nodeEnd[k] ? k : -1;
  }

  /** Raw offset that normalised character i stands for (for a collapsed run's space: its first whitespace). */
  rawOf(i: number): number {
    const k = lastAtMost(this.runNorm, this.runCount, i);
    if (k < 0) return i;
    if (this.runOut[k] === 1 && this.runNorm[k] === i) return this.runSrc[k];
    return this.runEnd[k] + (i - this.runNorm[k] - this.runOut[k]);
  }

  /** Normalised index of the last character standing for a raw offset of node k, or -1 if it has none. */
  lastCharOfNode(k: number): number {
    const first = this.nodeStart[k];
    const r = this.nodeEnd[k] - 1;
    if (r < first) return -1;
    const s = lastAtMost(this.runStart, this.runCount, r);
    if (s < 0) return r;
    if (r >= this.runEnd[s]) return this.runNorm[s] + this.runOut[s] + (r - this.runEnd[s]);
    // r lies in a special run: its space, if it stands for a character of this node, else the kept
    // character just before the run.
    if (this.runOut[s] === 1 && this.runSrc[s] >= first && this.runSrc[s] <= r) return this.runNorm[s];
    return this.runStart[s] > first ? this.runNorm[s] - 1 : -1;
  }

  /** The first character at or after `i` (before `limit`) that lies in a text node, as [index, node]; null if none. */
  private realCharFrom(i: number, limit: number): [number, number] | null {
    for (; i < limit; i++) {
      const k = this.nodeAtRaw(this.rawOf(i));
      if (k >= 0) return [i, k];
    }
    return null;
  }

  /** The last character before `i` (at or after `floor`) that lies in a text node, as [index, node]; null if none. */
  private realCharBefore(i: number, floor: number): [number, number] | null {
    for (let j = i - 1; j >= floor; j--) {
      const k = this.nodeAtRaw(this.rawOf(j));
      if (k >= 0) return [j, k];
    }
    return null;
  }

  /**
   * The DOM point just before (after: just after) normalised character i, which lies in entry k: in the
   * text node that holds it (looked for inside a plain element).
   */
  private charPoint(i: number, k: number, after = 0): DomPoint {
    let offset = this.rawOf(i) - this.nodeStart[k];
    const entry = this.nodes[k];
    let node: Node = entry;
    if (entry.nodeType === ELEMENT_NODE) {
      const walker = this.doc.createTreeWalker(entry, SHOW_TEXT_AND_CDATA);
      // The character is in one of its text nodes: the walk ends there.
      while ((node = walker.nextNode() as Text) && offset >= (node as Text).length) offset -= (node as Text).length;
      // Not there: the element changed since the index was made (the caller's index is stale).
      if (!node) return { node: entry, offset: 0 };
    }
    return { node, offset: offset + after };
  }

  /** DOM point just before normalised char `offset` (or after the last char when offset = text.length). */
  pointAt(offset: number): DomPoint | null {
    const n = this.text.length;
    const f = this.realCharFrom(Math.max(0, offset), n);
    if (f) return this.charPoint(f[0], f[1]);
    const b = this.realCharBefore(Math.min(offset, n), 0);
    return b && this.charPoint(b[0], b[1], 1);
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
    const last = first && this.realCharBefore(end, first[0]);
    if (!first || !last) {
      const p = this.pointAt(start);
      if (p) {
        range.setStart(p.node, p.offset);
        range.collapse(true);
      }
      return range;
    }
    const startNode = this.nodes[first[1]];
    let [li, lk] = last;
    if (this.nodes[lk].getRootNode() !== startNode.getRootNode()) {
      // A DOM Range cannot cross a shadow boundary: keep the part in the start's tree.
      const root = startNode.getRootNode();
      li = first[0];
      lk = first[1];
      for (let k = last[1] - 1; k > first[1]; k--) {
        if (this.nodes[k].getRootNode() !== root) continue;
        const c = this.lastCharOfNode(k);
        if (c >= 0) {
          li = c;
          lk = k;
          break;
        }
      }
      if (lk === first[1]) li = Math.max(first[0], this.lastCharOfNode(lk));
    }
    const from = this.charPoint(first[0], first[1]);
    const to = this.charPoint(li, lk, 1);
    range.setStart(from.node, from.offset);
    range.setEnd(to.node, to.offset);
    return range;
  }

}

/** What a walk produced (IndexBuilder, or a patch of an index). */
export interface WalkedText {
  nodes: IndexedNode[];
  nodeStart: Int32Array;
  nodeEnd: Int32Array;
  parts: string[];
}

/** What normalisation produced (Normaliser, or a patch of an index). */
export interface NormalisedText {
  raw: string;
  text: string;
  runStart: Int32Array;
  runEnd: Int32Array;
  runNorm: Int32Array;
  runOut: Uint8Array;
  runSrc: Int32Array;
  count: number;
}

/** Bits of an open element's entry on the walk's stack (IndexBuilder.flags): it is a block; its own text is shown. */
const F_BLOCK = 1;
export const F_SHOWN = 2;
/** Its style was checked and found visible, or it shares a checked parent's (inline children may inherit that). */
const F_CHECKED = 4;
/**
 * Text nodes here are read one by one (shadow trees, slotted nodes); otherwise they are taken from the
 * top's light-DOM text by position.
 */
export const F_DIRECT = 8;
/** The entry stands for one slotted node: its siblings are not walked after it. */
export const F_ONE = 16;
/** In a shadow tree, whose own style sheets HidingRules does not read: every classed element is checked. */
const F_SHADOW = 32;

/** Growable Int32Array copy with room for at least `need` entries. */
function grow(a: Int32Array, need: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Makes the normalised text from the raw text (see normalize.ts for the rules: the same result as
 * normalizeText(raw)), recording the special runs the offset map needs.
 */
export class Normaliser {
  runStart = new Int32Array(256);
  runEnd = new Int32Array(256);
  runNorm = new Int32Array(256);
  runOut = new Uint8Array(256);
  runSrc = new Int32Array(256);
  count = 0;

  text = '';
  readonly raw: string;
  private readonly parts: string[] = [];
  private rawPos = 0;
  private normLen = 0;
  /** Own copies of the shared patterns: two normalisers may run interleaved (sliced builds). */
  private readonly special = new RegExp(SPECIAL);
  private readonly wsChar = new RegExp(WS_CHAR);

  /** Normalises `raw` at once; `sliced` leaves the work to run() (and the result to finish()). */
  constructor(raw: string, sliced = false) {
    this.raw = raw;
    this.special.lastIndex = 0;
    if (!sliced) {
      this.run(() => false);
      this.finish();
    }
  }

  /** Works on until done (true) or until `stop()`, asked every few hundred runs, says so (false). */
  run(stop: () => boolean): boolean {
    const raw = this.raw;
    const n = raw.length;
    const special = this.special;
    const parts = this.parts;
    let k = 0;
    for (let m = special.exec(raw); m !== null; m = special.exec(raw)) {
      const at = m.index;
      const end = special.lastIndex;
      if (at > this.rawPos) {
        parts.push(raw.slice(this.rawPos, at));
        this.normLen += at - this.rawPos;
      }
      // The run's space stands for its first whitespace character (none: only dropped characters).
      let src = at;
      if (classifyChar(raw.charCodeAt(at)) !== CHAR_SPACE) {
        this.wsChar.lastIndex = at;
        const ws = this.wsChar.exec(raw);
        src = ws !== null && ws.index < end ? ws.index : -1;
      }
      const out = src >= 0 && this.normLen > 0 && end < n ? 1 : 0;
      if (out === 1) parts.push(' ');
      this.push(at, end, this.normLen, out, src);
      this.normLen += out;
      this.rawPos = end;
      if ((++k & 511) === 0 && stop()) return false;
    }
    return true;
  }

  /** Makes the normalised text (after run() returned true). */
  finish(): void {
    const raw = this.raw;
    if (this.rawPos === 0) {
      this.text = raw;
      return;
    }
    if (this.rawPos < raw.length) this.parts.push(raw.slice(this.rawPos));
    this.text = this.parts.join('');
  }

  private push(start: number, end: number, norm: number, out: number, src: number): void {
    const i = this.count++;
    if (i === this.runStart.length) {
      this.runStart = grow(this.runStart, i + 1);
      this.runEnd = grow(this.runEnd, i + 1);
      this.runNorm = grow(this.runNorm, i + 1);
      this.runSrc = grow(this.runSrc, i + 1);
      const o = new Uint8Array(this.runStart.length);
      o.set(this.runOut);
      this.runOut = o;
    }
    this.runStart[i] = start;
    this.runEnd[i] = end;
    this.runNorm[i] = norm;
    this.runOut[i] = out;
    this.runSrc[i] = src;
  }
}

/**
 * Collects the raw text during one walk: each visible text node's data, and BREAK for block
 * boundaries and <br>, with every node's raw [start, end).
 *
 * Reading a text node's data costs a string per node; so the light-DOM text of the top is read once
 * (textContent: every descendant text node's data in tree order) and the walk only asks each text
 * node its length, keeping an offset into that string. Consecutive visible nodes then make one slice;
 * content left out (skipped or hidden elements, visibility:hidden text, a shadow host's light
 * children) is stepped over by its length. Shadow trees and slotted nodes, which are not where the
 * light-DOM text has them, are read node by node.
 */
export class IndexBuilder {
  parts: string[] = [];
  length = 0;
  nodes: IndexedNode[] = [];
  nodeStart = new Int32Array(1024);
  nodeEnd = new Int32Array(1024);
  /** The raw text so far ends with a BREAK (or is empty): another one would change nothing. */
  broken = true;
  /**
   * The walk's stack, one entry per open element (no object per element: they are reused by depth):
   * the next child to visit and the F_* bits of what was decided about the element. A slot's assigned
   * nodes have an entry each (F_ONE) above the slot's.
   */
  depth = 0;
  next: (Node | null)[] = [];
  flags: number[] = [];
  /** Light-DOM text of the top, the offset in it of the next light-DOM text node, and where the visible run not yet copied starts (-1: none). */
  private light = '';
  private cursor = 0;
  private from = -1;
  /** tagFlags of each local name met. */
  private readonly tags = new Map<string, number>();
  /** Plain elements are taken whole (false while the patcher re-enters the ancestors of a kept entry). */
  wholes = true;
  /** Elements that may be hidden or shown on their own, and elements whose text is not plain, outside shadow trees. */
  private readonly styled: string;
  private readonly notPlain: string;

  constructor(
    readonly styleCheck: StyleCheck | null,
    private readonly hidingRules: HidingRules | null,
  ) {
    this.styled = hidingRules?.styledSelector() ?? HIDDEN_OR_STYLED;
    this.notPlain = notPlain(this.styled);
  }

  /** Prepares a walk of `root` (run() does it, in one or several calls). */
  begin(root: Node): void {
    let top: Node | null = root;
    if (root.nodeType === DOCUMENT_NODE) {
      const doc = root as Document;
      top = doc.body ?? doc.documentElement;
      if (!top) return;
    }
    if (top.nodeType === TEXT_NODE) {
      this.addData(top as Text);
      return;
    }
    this.light = top.textContent ?? '';
    if (top.nodeType === ELEMENT_NODE) this.enter(top as Element, F_SHOWN);
    else this.push(top.firstChild, F_SHOWN);
  }

  /** Walks on until done (true) or until `stop()`, asked every few hundred nodes, says so (false). */
  run(stop: () => boolean): boolean {
    const next = this.next;
    const flags = this.flags;
    let n = 0;
    while (this.depth > 0) {
      if ((++n & 31) === 0 && stop()) return false;
      const d = this.depth - 1;
      const f = flags[d];
      const node = next[d];
      if (!node) {
        this.depth = d;
        if (f & F_BLOCK) this.breakText();
        continue;
      }
      next[d] = f & F_ONE ? null : node.nextSibling;
      // An element's local name: one DOM call instead of two (nodeType, localName); other nodes have none.
      const name = (node as Element).localName;
      if (name !== undefined) this.enter(node as Element, f, name);
      // Text nodes (CDATA sections, which only XML documents have, are Text nodes and shown as text too);
      // comments and processing instructions have no text.
      else if ((node as Text).splitText !== undefined) {
        if (f & F_DIRECT) {
          if (f & F_SHOWN) this.addData(node as Text);
        } else {
          const len = (node as Text).length;
          if (f & F_SHOWN) {
            if (this.from < 0) this.from = this.cursor;
            this.cursor += len;
            this.record(node as Text, len);
          } else this.skipLight(len);
        }
      }
    }
    this.flush();
    return true;
  }

  private push(next: Node | null, f: number): void {
    const d = this.depth++;
    this.next[d] = next;
    this.flags[d] = f;
  }

  /**
   * Decides whether to walk into `el`, whose parent's entry has the F_* bits `pf`; pushes its entry,
   * takes it whole (a plain element), or steps over its light-DOM text. Returns whether an entry was pushed.
   */
  enter(el: Element, pf: number, name = el.localName): boolean {
    let tag = this.tags.get(name);
    if (tag === undefined) this.tags.set(name, (tag = tagFlags(name, this.hidingRules)));
    let f = pf & (F_SHOWN | F_DIRECT | F_SHADOW);
    let shown = !(tag & TAG_SKIPPED);
    if (shown) {
      // Whether its attributes may hide it (`hidden`) or give it its own visibility (id, style, a class a hiding
      // rule names; any class in a shadow tree): one selector test, as most elements of a long page have none.
      const flagged = el.hasAttributes() && el.matches(pf & F_SHADOW ? HIDDEN_OR_STYLED : this.styled);
      if (flagged && el.hasAttribute('hidden')) shown = false;
      else if (this.styleCheck) {
        f |= F_CHECKED;
        // Not hidden, so a flagged element is a styled one: it (or any where the parent was not checked) is checked itself.
        if (!(pf & F_CHECKED) || flagged || !(tag & TAG_INHERITS)) {
          const s = this.styleCheck(el);
          if (s === STYLE_NONE) shown = false;
          else f = s === STYLE_INVISIBLE ? f & ~F_SHOWN : f | F_SHOWN;
        }
      }
    }
    if (!shown) {
      // Left out with all its content (its light-DOM text is stepped over).
      if (!(pf & F_DIRECT)) this.skipLight(el.textContent?.length ?? 0);
      return false;
    }
    if (tag & TAG_BLOCK) {
      f |= F_BLOCK;
      this.breakText();
    }
    const shadow = tag & TAG_HOST ? (el as HTMLElement).shadowRoot : null;
    const assigned = name === 'slot' && (el as HTMLSlotElement).assignedNodes?.();
    // Asked of leaves (free) and blocks (where the text of a paragraph is): an inline element with elements
    // inside is rarely plain where its block is not, and the query would cost more than it saves. In a shadow
    // tree, whose classed elements are all checked, only leaves.
    if (!shadow && !(assigned && assigned.length) && this.wholes && (el.childElementCount === 0 || ((f & (F_BLOCK | F_SHADOW)) === F_BLOCK && el.querySelector(this.notPlain) === null))) {
      // Plain text only (no break, nothing inside hidden or shown on its own): one entry, read in one call.
      const data = el.textContent!;
      if (f & F_DIRECT) {
        if (f & F_SHOWN && data) this.addData(el, data);
      } else if (!(f & F_SHOWN)) this.skipLight(data.length);
      else if (data) {
        if (this.from < 0) this.from = this.cursor;
        this.cursor += data.length;
        this.record(el, data.length);
      }
      if (f & F_BLOCK) this.breakText();
      return false;
    }
    if (shadow) {
      // The shadow tree is shown instead of the light children (those come back through slots).
      if (!(pf & F_DIRECT)) this.skipLight(el.textContent?.length ?? 0);
      this.push(shadow.firstChild, f | F_DIRECT | F_SHADOW);
    } else if (assigned && assigned.length > 0) {
      this.push(null, f);
      for (let i = assigned.length; i-- > 0; ) this.push(assigned[i], (f & ~F_BLOCK) | F_DIRECT | F_ONE);
    } else this.push(el.firstChild, f);
    return true;
  }

  /** A block boundary or <br>: acts as whitespace. */
  private breakText(): void {
    if (!this.broken) {
      this.flush();
      this.parts.push(BREAK);
      this.length++;
      this.broken = true;
    }
  }

  /** Copies the pending run of visible light-DOM text. */
  private flush(): void {
    if (this.from >= 0) {
      if (this.cursor > this.from) this.parts.push(this.light.slice(this.from, this.cursor));
      this.from = -1;
    }
  }

  /** Steps over `n` characters of light-DOM text that are left out. */
  private skipLight(n: number): void {
    if (n > 0) {
      this.flush();
      this.cursor += n;
    }
  }

  private record(t: IndexedNode, n: number): void {
    const k = this.nodes.length;
    if (k === this.nodeStart.length) {
      this.nodeStart = grow(this.nodeStart, k + 1);
      this.nodeEnd = grow(this.nodeEnd, k + 1);
    }
    this.nodes.push(t);
    this.nodeStart[k] = this.length;
    this.length += n;
    this.nodeEnd[k] = this.length;
    if (n > 0) this.broken = false;
  }

  /** A visible text node, or plain element, read directly. */
  protected addData(t: IndexedNode, data = t.textContent!): void {
    this.flush();
    if (data.length > 0) this.parts.push(data);
    this.record(t, data.length);
  }
}
