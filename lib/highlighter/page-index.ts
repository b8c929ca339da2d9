// The page's text index, kept by the highlighter between highlights and re-anchors. Building it is one
// pass over the page (the bulk of anchoring on a long page), so it is built once, in slices that
// yield to the page, and reused: changes that only add or remove scripts, styles, comments or other
// never-indexed elements, or happen in <head>, leave it valid; other changes are recorded, and once
// a long page has been indexed the patcher (lib/anchoring/text-index-patch.ts, an on-demand part)
// re-walks only what they touched when the index is next needed. Without it (short pages, or a
// change it cannot follow) the index is built again.
import { TextIndex } from '../anchoring/text-index.js';
import type { HighlightDescriptor } from '../anchoring/types.js';
import { textSearchOf } from '../anchoring/search-text.js';
import { isSkippedTag } from '../anchoring/visibility.js';
import { loadPart, loadedPart } from './parts.js';

const ELEMENT_NODE = 1;
const COMMENT_NODE = 8;
/** Builds started over because the page changed during the build, before one is used anyway. */
const MAX_RESTARTS = 3;
/** Text length from which the patcher is loaded (below it, indexing again takes a few ms). */
const PATCH_FROM = 50_000;
/** Changes kept for a patch; past that the index is built again. */
const MAX_PENDING = 1000;

function neverIndexed(n: Node): boolean {
  if (n.nodeType === COMMENT_NODE) return true;
  return n.nodeType === ELEMENT_NODE && isSkippedTag((n as Element).localName);
}

/** Whether a mutation can change the indexed text. */
function touchesText(r: MutationRecord): boolean {
  if (r.target.nodeType === COMMENT_NODE) return false;
  const head = r.target.ownerDocument?.head;
  if (head && (r.target === head || head.contains(r.target))) return false;
  if (r.type === 'childList') {
    const changed = [...r.addedNodes, ...r.removedNodes];
    if (changed.length > 0 && changed.every(neverIndexed)) return false;
  }
  if (r.target.nodeType === ELEMENT_NODE && isSkippedTag((r.target as Element).localName)) return false;
  return true;
}

export interface IndexState {
  index: TextIndex;
  /** The page-text generation the index was built for. */
  generation: number;
}

export class PageIndex {
  /** Bumped by every change that can touch the page's text. */
  generation = 0;
  private kept: IndexState | null = null;
  /** Text-changing records since the kept index was built or patched. */
  private pending: MutationRecord[] = [];
  private building: Promise<IndexState> | null = null;

  /**
   * `root`: what to index. `flush`: hands over page changes not yet delivered to the caller's
   * MutationObserver (takeRecords), so an index is never reused after a change made in this task.
   */
  constructor(
    private readonly root: () => Node,
    private readonly flush: () => void = () => {},
  ) {}

  /** The page's text changed in a way the caller knows of (e.g. the fallback painter wrapped text). */
  stale(): void {
    this.generation++;
    this.kept = null;
  }

  /** Records page changes; true when they can touch the text (the index is then stale). */
  invalidate(records: readonly MutationRecord[]): boolean {
    const touching = records.filter(touchesText);
    if (!touching.length) return false;
    this.generation++;
    if (this.kept && this.pending.push(...touching) > MAX_PENDING) this.stale();
    return true;
  }

  /** The index of the page as it is, built in slices when the kept one cannot be patched. */
  current(): Promise<IndexState> {
    this.flush();
    const kept = this.fresh();
    if (kept) return Promise.resolve(kept);
    this.building ??= this.build().finally(() => (this.building = null));
    return this.building;
  }

  /** The index of the page as it is, now: the kept one (patched), or one built in this task. */
  now(): TextIndex {
    this.flush();
    const kept = this.fresh() ?? this.keep({ index: new TextIndex(this.root()), generation: this.generation });
    return kept.index;
  }

  /**
   * Which unfound highlights the page's text changes since the last call may have made findable: those
   * the patcher saw touch text near where they could be (text-changes.ts); all of them when the index
   * was built anew since (or will be: it cannot be patched).
   */
  mayPlace(): (d: HighlightDescriptor) => boolean {
    // Called from a timer (the highlighter's debounce): every change before it was delivered already.
    const index = this.fresh()?.index;
    const changed = index?.changed;
    if (index) index.changed = null;
    return (d) => changed?.mayPlace(d) ?? changed !== null;
  }

  /** The kept index, patched up to the page's changes; null when there is none or it cannot be patched. */
  private fresh(): IndexState | null {
    const kept = this.kept;
    if (kept && kept.generation !== this.generation) {
      const patch = loadedPart('index-patch');
      const index = patch?.(kept.index, this.pending);
      this.pending = [];
      this.kept = index ? { index, generation: this.generation } : null;
    }
    return this.kept;
  }

  private keep(state: IndexState): IndexState {
    this.kept = state;
    this.pending = [];
    // Without the patcher (it failed to load: logged) the index is built again after a change.
    if (state.index.text.length > PATCH_FROM) loadPart('index-patch').catch(console.warn);
    return state;
  }

  /**
   * Once the page is painted: builds the kept index's word index when the page is idle (one task of
   * ~10 ms on a 1M-character page), so describing the next new highlight does not pay for it.
   */
  prepareSearchWhenIdle(): void {
    const kept = this.kept;
    if (!kept) return;
    const run = () => {
      if (this.kept === kept && kept.generation === this.generation) textSearchOf(kept.index).prepare();
    };
    requestIdleCallback(run, { timeout: 2000 }); // Chrome and Firefox both have it
  }

  private async build(): Promise<IndexState> {
    for (let attempt = 0; ; attempt++) {
      const generation = this.generation;
      const index = await TextIndex.build(this.root());
      if (generation === this.generation || attempt >= MAX_RESTARTS) {
        const state = { index, generation };
        return generation === this.generation ? this.keep(state) : state;
      }
    }
  }
}
