/**
 * Patching a TextIndex after DOM mutations, instead of walking the whole page again.
 *
 * For every mutation the patch widens the stretch of entries it can have touched to two entries that
 * are certainly unchanged, walks the DOM again only between them (IndexBuilder, resumed with the
 * ancestors' decisions), splices the result in and re-normalises only around the splice; the rest is
 * copied with shifted offsets, with no DOM work. A walk between two unchanged nodes is exactly what a
 * full walk does there, so the patched index equals a fresh one (text-index-patch.test.ts checks this
 * after random mutations); where that cannot be ensured the patch returns null and the caller rebuilds.
 */
import { CHAR_KEEP, classifyChar } from './normalize.js';
import { firstCharFromRaw, nodeIdOf, wholeIdOf } from './range-offsets.js';
import { SHOWING_ATTRIBUTES, STYLE_NONE, TAG_BLOCK, HidingRules, createStyleCheck, isSkippedTag, tagFlags } from './visibility.js';
import { PatchedTextSearch } from './search-patched.js';
import type { TextEdit } from './types.js';
import { textSearchOf } from './search-text.js';
import { TextChanges } from './text-changes.js';
import { BREAK, F_DIRECT, F_ONE, F_SHOWN, IndexBuilder, Normaliser, TextIndex, type IndexedNode, type NormalisedText } from './text-index.js';

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
/** NodeFilter.SHOW_ELEMENT | SHOW_TEXT */
const SHOW_ELEMENT_AND_TEXT = 5;
const PLAIN = 0;
const HIDDEN = 1;
const SHADOW = 2;
/** Index entries an attribute change may have the patch walk again in one go, at least (else a quarter of the page's). */
const MAX_ATTRIBUTE_WALK = 2000;
/** Nodes looked at, before and after an added node, for an indexed neighbour; past that, give up. */
const MAX_SEARCH = 5000;

/** What a patch did (for tests and the bench): entries replaced and added, DOM nodes walked. */
export interface PatchStats {
  /** Text-changing mutation records looked at. */
  records: number;
  /** Stretches of the index walked again. */
  stretches: number;
  /** Index entries dropped, and entries the walks produced. */
  removed: number;
  added: number;
  /** Raw characters re-normalised. */
  renormalised: number;
}

/** A walk between two unchanged entries (or the start/end of the root), stopping at `stopAt`. */
class StretchWalker extends IndexBuilder {
  stopAt: Node | null = null;
  reached = false;

  protected override addData(t: IndexedNode, data?: string): void {
    if (t === this.stopAt) {
      this.reached = true;
      this.depth = 0;
      return;
    }
    super.addData(t, data);
  }
}

/** A walked stretch: the entries and raw text found between kept entries a and b. */
interface Piece {
  a: number;
  b: number;
  nodes: IndexedNode[];
  starts: Int32Array;
  ends: Int32Array;
  raw: string;
}

/** A half-open stretch of entries (a, b): entries a+1 .. b-1 are replaced; a and b stay (-1 / n: the ends). */
interface Stretch {
  a: number;
  b: number;
}

const hidingRulesCache = new WeakMap<Document, { sheets: number; rules: HidingRules }>();

function hidingRulesOf(doc: Document): HidingRules {
  const sheets = doc.styleSheets.length + (doc.adoptedStyleSheets?.length ?? 0);
  const cached = hidingRulesCache.get(doc);
  if (cached && cached.sheets === sheets) return cached.rules;
  const rules = new HidingRules(doc);
  hidingRulesCache.set(doc, { sheets, rules });
  return rules;
}

/**
 * The index of the page after `records` (MutationObserver records of changes made since `index` was
 * built, in order), or null when it must be built again. Returns `index` itself when none of the
 * changes touched indexed text (e.g. text changed inside a hidden element).
 */
export function patchTextIndex(index: TextIndex, records: readonly MutationRecord[], stats?: PatchStats): TextIndex | null {
  const doc = index.doc;
  const root = index.root;
  const top = root.nodeType === DOCUMENT_NODE ? (doc.body ?? doc.documentElement) : root;
  if (!top || top.nodeType !== ELEMENT_NODE) return null;
  const styleCheck = createStyleCheck(doc, 'auto');
  const n = index.nodes.length;
  const idOf = (t: Node): number | undefined => nodeIdOf(index, t);
  const stretches: Stretch[] = [];
  /** Entries whose node was removed or changed: never the unchanged ends of a stretch. */
  const dirtyIds = new Set<number>();
  const dirty = (k: number) => {
    dirtyIds.add(k);
    stretches.push({ a: k - 1, b: k + 1 });
  };

  /**
   * Where an added node is: HIDDEN where no walk goes (in a skipped or hidden element), SHADOW among a
   * shadow host's light children or in a slot (walked elsewhere than its place in the tree), else PLAIN.
   */
  const placeOf = (node: Node): number => {
    for (let el = node.nodeType === ELEMENT_NODE ? (node as Element) : node.parentElement; el && el !== top; el = el.parentElement) {
      if (el !== node && (el.shadowRoot || el.localName === 'slot')) return SHADOW;
      if (isSkippedTag(el.localName) || el.hasAttribute('hidden') || (styleCheck && styleCheck(el) === STYLE_NONE)) return HIDDEN;
    }
    return PLAIN;
  };

  const walker = doc.createTreeWalker(top, SHOW_ELEMENT_AND_TEXT);
  /** Last entry before `node` in tree order (-1: none), or undefined when the search gives up. */
  const indexedBefore = (node: Node): number | undefined => {
    walker.currentNode = node;
    for (let i = 0; i < MAX_SEARCH; i++) {
      const t = walker.previousNode();
      if (!t) return -1;
      const k = idOf(t);
      if (k !== undefined) return k;
    }
    return undefined;
  };
  /** First entry after the walker's current node (n: none), or undefined when the search gives up. */
  const nextIndexed = (): number | undefined => {
    for (let i = 0; i < MAX_SEARCH; i++) {
      const t = walker.nextNode();
      if (!t) return n;
      const k = idOf(t);
      if (k !== undefined) return k;
    }
    return undefined;
  };
  /** First entry after `node` and its subtree. */
  const indexedAfter = (node: Node): number | undefined => {
    let last = node;
    while (last.lastChild) last = last.lastChild;
    walker.currentNode = last;
    return nextIndexed();
  };
  /** Last entry in `node`'s subtree or before it. */
  const indexedUpTo = (node: Node): number | undefined => {
    let last = node;
    while (last.lastChild) last = last.lastChild;
    return idOf(last) ?? indexedBefore(last);
  };
  /** First entry in `node`'s subtree or after it. */
  const indexedFrom = (node: Node): number | undefined => {
    const k = idOf(node);
    if (k !== undefined) return k;
    walker.currentNode = node;
    return nextIndexed();
  };

  let count = 0;
  for (const r of records) {
    count++;
    if (r.type === 'attributes' && !SHOWING_ATTRIBUTES.includes(r.attributeName ?? '')) continue;
    // Anything changed inside an element indexed whole (its text, its children, an attribute of one of
    // them): that entry is walked again, which also decides anew whether it is still plain.
    const inWhole = r.type === 'attributes' ? wholeIdOf(index, r.target) : (idOf(r.target) ?? wholeIdOf(index, r.target));
    if (inWhole !== undefined) {
      dirty(inWhole);
      continue;
    }
    // Not indexed: hidden, or added by a record that walks it with its current data.
    if (r.type === 'characterData') continue;
    if (r.type === 'attributes') {
      // An attribute that can show or hide content (observed while some highlights are not found, see
      // controller.ts): the element and all it holds are walked again, which decides their visibility anew.
      const el = r.target as Element;
      if (!el.isConnected || !top.contains(el)) continue;
      // The whole page, or a shadow host (its shadow tree's text lies outside the light DOM's order): built again.
      if (el === top || el.shadowRoot) return null;
      const parent = el.parentElement as Element;
      if (parent.shadowRoot || parent.localName === 'slot') return null;
      const place = parent === top ? PLAIN : placeOf(parent);
      if (place === SHADOW) return null;
      if (place === HIDDEN) continue;
      const a = indexedBefore(el);
      const b = indexedAfter(el);
      // More than a quarter of a long page: built again, in slices, rather than walked in one task here.
      if (a === undefined || b === undefined || a >= b || b - a > Math.max(n / 4, MAX_ATTRIBUTE_WALK)) return null;
      stretches.push({ a, b });
      continue;
    }
    if (r.type !== 'childList') continue;
    let removedElement = false;
    for (const removed of Array.from(r.removedNodes)) {
      if (removed.nodeType === TEXT_NODE) {
        const k = idOf(removed);
        if (k !== undefined) dirty(k);
        continue;
      }
      if (removed.nodeType !== ELEMENT_NODE) continue;
      removedElement = true;
      const w = doc.createTreeWalker(removed, SHOW_ELEMENT_AND_TEXT);
      for (let node: Node | null = removed; node; node = w.nextNode()) {
        // Text of a shadow tree inside it is indexed but out of this walker's reach.
        if (node.nodeType === ELEMENT_NODE && (node as Element).shadowRoot) return null;
        const k = idOf(node);
        if (k !== undefined) dirty(k);
      }
    }
    // A removed element may have taken block boundaries (a <br>, a block) with it: where it was, from
    // the last indexed text before to the first after, is walked again.
    const target = r.target;
    if (removedElement && target.isConnected && (target === top || top.contains(target))) {
      if ((target as Element).shadowRoot) return null;
      const place = target === top ? PLAIN : placeOf(target);
      if (place === SHADOW) return null;
      if (place === PLAIN) {
        const prev = r.previousSibling?.parentNode === target ? r.previousSibling : null;
        const next = r.nextSibling?.parentNode === target ? r.nextSibling : null;
        // A sibling no longer there (moved or removed since): the whole of the target.
        const a = prev ? indexedUpTo(prev) : target === top ? -1 : indexedBefore(target);
        const b = next ? indexedFrom(next) : target === top ? n : indexedAfter(target);
        if (a === undefined || b === undefined || a >= b) return null;
        stretches.push({ a, b });
      }
    }
    for (const added of Array.from(r.addedNodes)) {
      // Moved on or removed again since: the record of that change covers it.
      if (!added.isConnected || !top.contains(added)) continue;
      const place = placeOf(added);
      if (place === SHADOW) return null;
      if (place === HIDDEN) continue;
      const a = indexedBefore(added);
      const b = indexedAfter(added);
      if (a === undefined || b === undefined || a >= b) return null;
      stretches.push({ a, b });
    }
  }
  if (stats) stats.records += count;
  if (stretches.length === 0) return index;

  // Each stretch widened to entries that are certainly unchanged, overlapping stretches merged.
  const raw = index.raw;
  const clean = (k: number): boolean => {
    const t = index.nodes[k];
    const s = index.nodeStart[k];
    const e = index.nodeEnd[k];
    if (e <= s || !t.isConnected || t.textContent !== raw.slice(s, e)) return false;
    for (let p = t.parentNode; p; p = p.parentNode) {
      if (p === top) return true;
      if (p.nodeType !== ELEMENT_NODE || (p as Element).shadowRoot || (p as Element).localName === 'slot') return false;
    }
    return false;
  };
  stretches.sort((x, y) => x.a - y.a);
  const merged: Stretch[] = [];
  for (const s of stretches) {
    let { a, b } = s;
    while (a >= 0 && (dirtyIds.has(a) || !clean(a))) a--;
    while (b < n && (dirtyIds.has(b) || !clean(b))) b++;
    const prev = merged[merged.length - 1];
    if (prev && a <= prev.b) {
      prev.a = Math.min(prev.a, a);
      prev.b = Math.max(prev.b, b);
      // Widening may have reached back past earlier stretches.
      while (merged.length > 1 && merged[merged.length - 2].b >= prev.a) {
        const last = merged.pop()!;
        const before = merged[merged.length - 1];
        before.a = Math.min(before.a, last.a);
        before.b = Math.max(before.b, last.b);
      }
    } else merged.push({ a, b });
  }

  // Walk each stretch again.
  const rules = styleCheck ? hidingRulesOf(doc) : null;
  const pieces: Piece[] = [];
  const replaced = (k: number) => merged.some((m) => k > m.a && k < m.b);
  for (const { a, b } of merged) {
    const w = new StretchWalker(styleCheck, rules);
    w.stopAt = b < n ? index.nodes[b] : null;
    if (a < 0) {
      w.enter(top as Element, F_SHOWN | F_DIRECT);
    } else if (!resumeAfter(w, index.nodes[a], top as Element)) return null;
    w.run(() => false);
    if (w.stopAt && !w.reached) return null;
    // A node the walk found that the index keeps elsewhere: the mutations were not what they seemed.
    for (const t of w.nodes) {
      const k = idOf(t);
      if (k !== undefined && !replaced(k)) return null;
    }
    pieces.push({ a, b, nodes: w.nodes, starts: w.nodeStart, ends: w.nodeEnd, raw: w.parts.join('') });
  }
  // Walked again to find the same (a class toggled without showing or hiding anything): the kept index
  // stays, with its word index.
  if (pieces.every((p) => unchanged(index, p))) return index;
  return splice(index, pieces, stats);
}

/**
 * Sets up `w` to walk on from just after entry `after`, with a frame for each of its ancestors up to
 * `top` as the full walk has them (visibility decided again from their styles). False when an ancestor
 * is now skipped or hidden.
 */
function resumeAfter(w: StretchWalker, after: IndexedNode, top: Element): boolean {
  const chain: Node[] = [];
  for (let p: Node | null = after; p && p !== top; p = p.parentNode) chain.push(p);
  chain.push(top);
  let f = F_SHOWN | F_DIRECT;
  // The ancestors are entered, never taken whole (one that has become plain keeps its entries).
  w.wholes = false;
  for (let i = chain.length - 1; i >= 1; i--) {
    if (!w.enter(chain[i] as Element, f)) return false;
    const d = w.depth - 1;
    // A slot with assigned nodes shows those, not the children the chain goes through.
    if (w.flags[d] & F_ONE) return false;
    w.next[d] = chain[i - 1].nextSibling;
    f = w.flags[d];
  }
  w.wholes = true;
  // Entering the ancestors wrote their block boundaries: those are before `after`, already indexed. A
  // block indexed whole closes with a boundary of its own, which belongs to the stretch.
  const afterBlock = after.nodeType === ELEMENT_NODE && (tagFlags((after as Element).localName, null) & TAG_BLOCK) !== 0;
  w.parts = afterBlock ? [BREAK] : [];
  w.length = w.parts.length;
  w.broken = afterBlock;
  return true;
}

/** Whether a walked stretch found exactly the entries and raw text the index has there. */
function unchanged(index: TextIndex, p: Piece): boolean {
  const n = index.nodes.length;
  const from = p.a >= 0 ? index.nodeEnd[p.a] : 0;
  const to = p.b < n ? index.nodeStart[p.b] : index.raw.length;
  if (p.nodes.length !== p.b - p.a - 1 || p.raw.length !== to - from || index.raw.slice(from, to) !== p.raw) return false;
  for (let i = 0; i < p.nodes.length; i++) {
    const k = p.a + 1 + i;
    if (p.nodes[i] !== index.nodes[k] || p.starts[i] + from !== index.nodeStart[k] || p.ends[i] + from !== index.nodeEnd[k]) return false;
  }
  return true;
}

/** Whether the raw character at `i` is one normalisation keeps as it is. */
function kept(raw: string, i: number): boolean {
  return classifyChar(raw.charCodeAt(i)) === CHAR_KEEP;
}

/** Copies `src`[from, to) into `dst` at `at`, adding `shift` to each value. */
function copyShifted(dst: Int32Array, at: number, src: Int32Array, from: number, to: number, shift: number): void {
  dst.set(src.subarray(from, to), at);
  if (shift !== 0) for (let i = at, end = at + (to - from); i < end; i++) dst[i] += shift;
}

function splice(
  index: TextIndex,
  pieces: Piece[],
  stats?: PatchStats,
): TextIndex {
  const n = index.nodes.length;
  const oldRaw = index.raw;
  const rawFrom = (a: number) => (a >= 0 ? index.nodeEnd[a] : 0);
  const rawTo = (b: number) => (b < n ? index.nodeStart[b] : oldRaw.length);

  // Node entries and the raw text.
  let count = n;
  for (const p of pieces) count += p.nodes.length - (p.b - p.a - 1);
  // Copied by the engine in runs (slice, concat), not element by element: a patch runs too rarely for
  // a loop over ~100k entries to get compiled.
  const nodeRuns: IndexedNode[][] = [];
  const nodeStart = new Int32Array(Math.max(count, 1));
  const nodeEnd = new Int32Array(Math.max(count, 1));
  const rawParts: string[] = [];
  /** Raw edits: old [from, to) became `len` characters. */
  const edits: { from: number; to: number; len: number }[] = [];
  let at = 0;
  let next = 0; // next old entry to copy
  let shift = 0; // raw offset change so far
  let rawNext = 0;
  for (const p of pieces) {
    const keep = p.a + 1 - next;
    nodeRuns.push(index.nodes.slice(next, p.a + 1), p.nodes);
    copyShifted(nodeStart, at, index.nodeStart, next, p.a + 1, shift);
    copyShifted(nodeEnd, at, index.nodeEnd, next, p.a + 1, shift);
    at += keep;
    const from = rawFrom(p.a);
    const to = rawTo(p.b);
    rawParts.push(oldRaw.slice(rawNext, from), p.raw);
    const base = from + shift;
    for (let i = 0; i < p.nodes.length; i++) {
      nodeStart[at] = p.starts[i] + base;
      nodeEnd[at] = p.ends[i] + base;
      at++;
    }
    edits.push({ from, to, len: p.raw.length });
    shift += p.raw.length - (to - from);
    next = p.b;
    rawNext = to;
  }
  nodeRuns.push(index.nodes.slice(next));
  const nodes = ([] as IndexedNode[]).concat(...nodeRuns);
  copyShifted(nodeStart, at, index.nodeStart, next, n, shift);
  copyShifted(nodeEnd, at, index.nodeEnd, next, n, shift);
  rawParts.push(oldRaw.slice(rawNext));
  const raw = rawParts.join('');

  const textEdits: TextEdit[] = [];
  const normalised = renormalise(index, raw, edits, textEdits, stats);
  const patched = new TextIndex(index.root, {}, { nodes, nodeStart: nodeStart.subarray(0, count), nodeEnd: nodeEnd.subarray(0, count), parts: [] }, normalised);
  // The old text's search (its word index and cached occurrence lists) answers for the new text too.
  if (index.search) patched.search = PatchedTextSearch.after(textSearchOf(index), patched.text, textEdits);
  // What changed, for the highlighter's unfound highlights (unknown since a build: stays unknown).
  if (index.changed !== undefined) patched.changed = TextChanges.after(index.changed, index.text, patched.text, textEdits);

  // The node numbers, handed on (the old index makes its own again if it is ever asked).
  const ids = index.nodeIdsCache;
  if (ids) {
    index.nodeIdsCache = null;
    // All removals first: a node may have moved from a later stretch to an earlier one.
    for (const p of pieces) for (let i = p.a + 1; i < p.b; i++) ids.delete(index.nodes[i]);
    let k = 0;
    let delta = 0;
    for (const p of pieces) {
      if (delta !== 0) for (let i = k; i <= p.a; i++) ids.set(index.nodes[i], i + delta);
      for (let i = 0; i < p.nodes.length; i++) ids.set(p.nodes[i], p.a + 1 + delta + i);
      delta += p.nodes.length - (p.b - p.a - 1);
      k = p.b;
    }
    if (delta !== 0) for (let i = Math.max(k, 0); i < n; i++) ids.set(index.nodes[i], i + delta);
    patched.nodeIdsCache = ids;
  }
  if (stats) {
    stats.stretches += pieces.length;
    for (const p of pieces) {
      stats.removed += p.b - p.a - 1;
      stats.added += p.nodes.length;
    }
  }
  return patched;
}

/**
 * The normalised text and runs of `raw` (the old raw text with `edits` applied), re-normalising only a
 * window around each edit: from just after the last kept character before it to the first kept
 * character after it, where no run of whitespace or dropped characters can cross.
 */
function renormalise(index: TextIndex, raw: string, edits: { from: number; to: number; len: number }[], textEdits: TextEdit[], stats?: PatchStats): NormalisedText {
  const oldRaw = index.raw;
  // Windows in old raw offsets, with the edits they hold.
  const windows: { w0: number; w1: number; delta: number }[] = [];
  for (const e of edits) {
    let w0 = e.from;
    while (w0 > 0 && !kept(oldRaw, w0 - 1)) w0--;
    let w1 = e.to;
    while (w1 < oldRaw.length && !kept(oldRaw, w1)) w1++;
    const last = windows[windows.length - 1];
    if (last && w0 <= last.w1) {
      last.w1 = Math.max(last.w1, w1);
      last.delta += e.len - (e.to - e.from);
    } else windows.push({ w0, w1, delta: e.len - (e.to - e.from) });
  }
  const oldText = index.text;
  const textParts: string[] = [];
  let cap = index.runCount + 16;
  let runStart = new Int32Array(cap);
  let runEnd = new Int32Array(cap);
  let runNorm = new Int32Array(cap);
  let runOut = new Uint8Array(cap);
  let runSrc = new Int32Array(cap);
  let count = 0;
  const ensure = (more: number) => {
    if (count + more <= cap) return;
    cap = Math.max(cap * 2, count + more);
    const g32 = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a.subarray(0, count));
      return b;
    };
    runStart = g32(runStart);
    runEnd = g32(runEnd);
    runNorm = g32(runNorm);
    runSrc = g32(runSrc);
    const o = new Uint8Array(cap);
    o.set(runOut.subarray(0, count));
    runOut = o;
  };
  /** Copies old runs [from, to) shifted by dRaw / dNorm. */
  const copyRuns = (from: number, to: number, dRaw: number, dNorm: number) => {
    ensure(to - from);
    if (dRaw === 0 && dNorm === 0) {
      runStart.set(index.runStart.subarray(from, to), count);
      runEnd.set(index.runEnd.subarray(from, to), count);
      runNorm.set(index.runNorm.subarray(from, to), count);
      runOut.set(index.runOut.subarray(from, to), count);
      runSrc.set(index.runSrc.subarray(from, to), count);
      count += to - from;
      return;
    }
    for (let i = from; i < to; i++) {
      runStart[count] = index.runStart[i] + dRaw;
      runEnd[count] = index.runEnd[i] + dRaw;
      runNorm[count] = index.runNorm[i] + dNorm;
      runOut[count] = index.runOut[i];
      const src = index.runSrc[i];
      runSrc[count] = src >= 0 ? src + dRaw : src;
      count++;
    }
  };
  /** First old run starting at or after raw offset r. */
  const firstRunFrom = (r: number) => {
    let lo = 0;
    let hi = index.runCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (index.runStart[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  let dRaw = 0;
  let dNorm = 0;
  let textNext = 0;
  let runNext = 0;
  for (const w of windows) {
    const nw0 = firstCharFromRaw(index, w.w0);
    const nw1 = w.w1 >= oldRaw.length ? oldText.length : firstCharFromRaw(index, w.w1);
    const r0 = firstRunFrom(w.w0);
    const r1 = firstRunFrom(w.w1);
    copyRuns(runNext, r0, dRaw, dNorm);
    textParts.push(oldText.slice(textNext, nw0));
    const s0 = w.w0 + dRaw;
    const s1 = w.w1 + dRaw + w.delta;
    // Padded with a kept character on each side that is not an end of the text, so the window
    // normalises as it does in place.
    const pre = s0 > 0 ? 'x' : '';
    const post = s1 < raw.length ? 'x' : '';
    const norm = new Normaliser(pre + raw.slice(s0, s1) + post);
    const windowText = norm.text.slice(pre.length, norm.text.length - post.length);
    ensure(norm.count);
    for (let i = 0; i < norm.count; i++) {
      const rs = norm.runStart[i] - pre.length + s0;
      runStart[count] = rs;
      runEnd[count] = norm.runEnd[i] - pre.length + s0;
      runNorm[count] = norm.runNorm[i] - pre.length + nw0 + dNorm;
      runOut[count] = norm.runOut[i];
      runSrc[count] = norm.runSrc[i] >= 0 ? norm.runSrc[i] - pre.length + s0 : norm.runSrc[i];
      count++;
    }
    textParts.push(windowText);
    textEdits.push({ from: nw0, to: nw1, len: windowText.length });
    if (stats) stats.renormalised += s1 - s0;
    dRaw += w.delta;
    dNorm += windowText.length - (nw1 - nw0);
    textNext = nw1;
    runNext = r1;
  }
  copyRuns(runNext, index.runCount, dRaw, dNorm);
  textParts.push(oldText.slice(textNext));
  return { raw, text: textParts.join(''), runStart, runEnd, runNorm, runOut, runSrc, count };
}
