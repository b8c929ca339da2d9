// The page's text index, kept by the highlighter between highlights and re-anchors. Building it is one
// pass over the page (the bulk of anchoring on a long page), so it is built once, in slices that
// yield to the page, and reused until a DOM change that can touch the page's text makes it stale:
// changes that only add or remove scripts, styles, comments or other never-indexed elements, or happen
// in <head>, leave it valid.
import { TextIndex } from '../anchoring/text-index.js';
import { textSearchOf } from '../anchoring/search-text.js';
import { isSkippedTag } from '../anchoring/visibility.js';

const ELEMENT_NODE = 1;
const COMMENT_NODE = 8;
/** Builds started over because the page changed during the build, before one is used anyway. */
const MAX_RESTARTS = 3;

function neverIndexed(n: Node): boolean {
  if (n.nodeType === COMMENT_NODE) return true;
  return n.nodeType === ELEMENT_NODE && isSkippedTag((n as Element).localName);
}

/** Whether a mutation can change the indexed text. */
export function touchesText(r: MutationRecord): boolean {
  if (r.target.nodeType === COMMENT_NODE) return false;
  const head = r.target.ownerDocument?.head;
  if (head && (r.target === head || head.contains(r.target))) return false;
  if (r.type === 'childList') {
    const changed = [...Array.from(r.addedNodes), ...Array.from(r.removedNodes)];
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
  }

  /** Records page changes; true when they can touch the text (the index is then stale). */
  invalidate(records: readonly MutationRecord[]): boolean {
    if (!records.some(touchesText)) return false;
    this.generation++;
    return true;
  }

  /** The index of the page as it is, built in slices when the kept one is stale. */
  current(): Promise<IndexState> {
    this.flush();
    if (this.kept && this.kept.generation === this.generation) return Promise.resolve(this.kept);
    this.building ??= this.build().finally(() => (this.building = null));
    return this.building;
  }

  /** The index of the page as it is, now: the kept one, or one built in this task. */
  now(): TextIndex {
    this.flush();
    if (this.kept && this.kept.generation === this.generation) return this.kept.index;
    this.kept = { index: new TextIndex(this.root()), generation: this.generation };
    return this.kept.index;
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
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 0);
  }

  private async build(): Promise<IndexState> {
    for (let attempt = 0; ; attempt++) {
      const generation = this.generation;
      const index = await TextIndex.build(this.root());
      if (generation === this.generation || attempt >= MAX_RESTARTS) {
        const state = { index, generation };
        if (generation === this.generation) this.kept = state;
        return state;
      }
    }
  }
}
