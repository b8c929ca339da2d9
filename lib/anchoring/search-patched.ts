/**
 * Searching a patched index's text through the search of the index it was patched from.
 *
 * A patch (text-index-patch.ts) changes the normalised text only in small windows. The old index's
 * TextSearch may have its word index and cached occurrences, which a new one would lack, so describing
 * a highlight right after a page change would scan the page for every search. PatchedTextSearch answers
 * from the old search, shifted, and scans only near the changed windows; its answers are exactly those
 * of a search of the new text (tests/anchoring/search-patched.test.ts).
 *
 * Patches of a patched index compose (the pieces are kept relative to the first search), so chains do
 * not grow; past MAX_PIECES, or once prepare() is called (the highlighter prepares the current index's
 * word index in idle time), it searches its own text like any TextSearch.
 */
import { TextSearch } from './search-text.js';
import type { TextEdit } from './types.js';

/** Old text [from, to) is new text [at, at + to - from). */
interface Piece {
  from: number;
  to: number;
  at: number;
}

/** Past this many kept pieces the search stops leaning on the old one. */
const MAX_PIECES = 256;
/** Occurrence lists kept per needle. */
const CACHE_MAX = 64;

export class PatchedTextSearch extends TextSearch {
  /** null: search the own text (prepared, or too many pieces). */
  private base: TextSearch | null;
  private pieces: Piece[];
  private readonly found = new Map<string, number[]>();

  private constructor(text: string, base: TextSearch | null, pieces: Piece[]) {
    super(text);
    this.base = pieces.length <= MAX_PIECES ? base : null;
    this.pieces = pieces;
  }

  /**
   * The search of `text`, which is `old.text` with `edits` applied, answering through `old` (or what
   * `old` itself answers through).
   */
  static after(old: TextSearch, text: string, edits: readonly TextEdit[]): TextSearch {
    let base: TextSearch = old;
    let pieces: Piece[] = [{ from: 0, to: old.text.length, at: 0 }];
    if (old instanceof PatchedTextSearch) {
      if (!old.base) return new TextSearch(text);
      base = old.base;
      pieces = old.pieces;
    }
    return new PatchedTextSearch(text, base, applyEdits(pieces, edits));
  }

  override findAll(needle: string, limit = Infinity): number[] {
    const base = this.base;
    if (!base) return super.findAll(needle, limit);
    if (needle.length === 0) return [];
    let all = this.found.get(needle);
    if (!all) {
      all = this.search(base, needle);
      if (this.found.size >= CACHE_MAX) this.found.delete(this.found.keys().next().value!);
      this.found.set(needle, all);
    }
    return all.length > limit ? all.slice(0, limit + 1) : all.slice();
  }

  override findFirstPass(needle: string, limit = Infinity): number[] {
    return this.base ? this.findAll(needle, limit) : super.findFirstPass(needle, limit);
  }

  // countBefore: TextSearch's, which asks this findAll for a needle its own cache does not hold.

  /** Builds the own word index: from here on the text is searched like any other. */
  override prepare(): void {
    this.base = null;
    this.pieces = [];
    this.found.clear();
    super.prepare();
  }

  private search(base: TextSearch, needle: string): number[] {
    const m = needle.length;
    const pieces = this.pieces;
    const out: number[] = [];
    // Occurrences inside a kept piece: the old search's, shifted (pieces are in order in both texts).
    let p = 0;
    for (const h of base.findAll(needle)) {
      while (p < pieces.length && pieces[p].to < h + m) p++;
      if (p === pieces.length) break;
      if (h >= pieces[p].from) out.push(h - pieces[p].from + pieces[p].at);
    }
    // Occurrences that touch a gap between kept pieces (changed text, or the seam where some was
    // removed): their start lies in [gapStart - m + 1, gapEnd - 1].
    const text = this.text;
    let gapStart = 0;
    let extra = false;
    for (let i = 0; i <= pieces.length; i++) {
      const gapEnd = i < pieces.length ? pieces[i].at : text.length;
      // The text's two ends are not seams: nothing straddles them.
      if (gapEnd > gapStart || (i > 0 && i < pieces.length)) {
        const from = Math.max(0, gapStart - m + 1);
        const last = Math.min(gapEnd - 1, text.length - m);
        for (let s = text.indexOf(needle, from); s !== -1 && s <= last; s = text.indexOf(needle, s + 1)) {
          out.push(s);
          extra = true;
        }
      }
      if (i < pieces.length) gapStart = pieces[i].at + pieces[i].to - pieces[i].from;
    }
    if (!extra) return out;
    out.sort((a, b) => a - b);
    // An occurrence touching two gaps was found twice.
    let k = 0;
    for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[k - 1]) out[k++] = out[i];
    out.length = k;
    return out;
  }
}

/** The kept pieces after `edits` (given in the coordinates of the text the pieces map into). */
function applyEdits(pieces: readonly Piece[], edits: readonly TextEdit[]): Piece[] {
  const out: Piece[] = [];
  let e = 0;
  let shift = 0; // length change of the edits wholly at or before the current point
  for (const piece of pieces) {
    const a = piece.at;
    const b = a + piece.to - piece.from;
    const keep = (s: number, t: number) => out.push({ from: piece.from + s - a, to: piece.from + t - a, at: s + shift });
    let s = a;
    while (s < b) {
      // Edits ending at or before s (an insertion at s included: its text comes before s).
      while (e < edits.length && edits[e].to <= s) {
        shift += edits[e].len - (edits[e].to - edits[e].from);
        e++;
      }
      const next = e < edits.length ? edits[e] : null;
      if (!next || next.from >= b) {
        keep(s, b);
        break;
      }
      if (next.from > s) keep(s, next.from);
      // The rest of the piece is replaced: the edit may reach into the next piece, which handles it.
      if (next.to >= b && next.to > next.from) break;
      // Past the replaced window, or at an insertion inside the piece (which splits it there).
      s = Math.max(s, next.to);
    }
  }
  return out;
}
