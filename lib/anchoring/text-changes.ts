/**
 * Which highlights that were not found a page's text changes may have made findable.
 *
 * The highlighter re-anchors its unfound highlights after a page change only when the change could
 * bring their text: a clock ticking or a comment arriving far from where the quote could be costs
 * nothing then. The index patcher (text-index-patch.ts) knows what it re-read: each patch adds the
 * stretches of the normalised text it changed, as the text was before (text removed there may have
 * been a rival occurrence, or one that counted for the stored position) and after (text that arrived).
 *
 * Anchoring's outcome can only change where a match of the quote, its context or a rival touched a
 * changed stretch, so the test searches the quote, with more errors than anchoring allows and
 * whitespace ignored, in each stretch widened by the quote, the errors and the longest context. It
 * never misses a highlight whose text arrived; a false alarm costs only one retry.
 */
import { ApproxPattern } from './approximate-match.js';
import { MAX_CONTEXT } from './context.js';
import { FUZZY_MAX_ERROR_RATE, FUZZY_MIN_LENGTH, MAX_ERRORS_CAP } from './fuzzy-limits.js';
import { normalizeFragment, normalizeText } from './normalize.js';
import type { HighlightDescriptor, TextEdit } from './types.js';

/** A stretch [from, to) of one version of the page's normalised text that a change touched. */
interface Touched {
  text: string;
  from: number;
  to: number;
}

/**
 * Past this many patches (or touched stretches) the changes are "unknown" (everything is retried): each
 * patch keeps its texts (a few MB on the longest pages) until the highlighter takes the changes, which
 * it does after each burst of changes while some highlights are unfound, and not at all while none is.
 */
const MAX_PATCHES = 4;
const MAX_TOUCHED = 128;
/** Anchoring's error rate with room (fuzzy-limits.ts), and errors allowed on top. */
const ERROR_RATE = FUZZY_MAX_ERROR_RATE + 0.05;
const SLACK = 2;

/** The text changes since the highlights were last anchored, as a patcher saw them. */
export class TextChanges {
  private constructor(
    private readonly touched: readonly Touched[],
    private readonly patches: number,
  ) {}

  /**
   * `before` (null: none yet) and a patch that turned `oldText` into `newText` by `edits` (in old
   * offsets, ascending); undefined when too many stretches were touched to keep (retry everything).
   */
  static after(before: TextChanges | null, oldText: string, newText: string, edits: readonly TextEdit[]): TextChanges | undefined {
    const touched = before ? [...before.touched] : [];
    let shift = 0;
    for (const e of edits) {
      const at = e.from + shift;
      shift += e.len - (e.to - e.from);
      // Only what differs: the common start and end of the old and new windows were not changed.
      const oldLen = e.to - e.from;
      let head = 0;
      while (head < oldLen && head < e.len && oldText.charCodeAt(e.from + head) === newText.charCodeAt(at + head)) head++;
      if (head === oldLen && head === e.len) continue;
      let tail = 0;
      while (tail < oldLen - head && tail < e.len - head && oldText.charCodeAt(e.to - 1 - tail) === newText.charCodeAt(at + e.len - 1 - tail)) tail++;
      touched.push({ text: oldText, from: e.from + head, to: e.to - tail }, { text: newText, from: at + head, to: at + e.len - tail });
    }
    const patches = (before?.patches ?? 0) + 1;
    return touched.length > MAX_TOUCHED || patches > MAX_PATCHES ? undefined : new TextChanges(touched, patches);
  }

  /** Whether anchoring `d` again may place it now (false only when no change came near where it could be). */
  mayPlace(d: HighlightDescriptor): boolean {
    const quote = normalizeText(typeof d.text === 'string' ? d.text : '');
    if (!quote || !this.touched.length) return false;
    const k = quote.length < FUZZY_MIN_LENGTH ? 0 : Math.min(MAX_ERRORS_CAP, Math.floor(quote.length * ERROR_RATE)) + SLACK;
    if (k >= quote.length) return true;
    const context = Math.max(MAX_CONTEXT, normalizeFragment(d.prefix ?? '').length, normalizeFragment(d.suffix ?? '').length);
    const margin = quote.length + k + context + SLACK;
    const pattern = new ApproxPattern(quote);
    const bare = quote.replace(/\s+/g, '');
    for (const t of this.touched) {
      const from = Math.max(0, t.from - margin);
      const to = Math.min(t.text.length, t.to + margin);
      if (pattern.search(t.text, from, to, k).length > 0) return true;
      if (t.text.slice(from, to).replace(/\s+/g, '').includes(bare)) return true;
    }
    return false;
  }
}
