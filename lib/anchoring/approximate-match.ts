/**
 * Approximate matching of one pattern (a highlight's quote) inside small regions of a text: edit
 * distance computed bit-parallel (Myers' algorithm, with the pattern split into 32-bit blocks).
 *
 * A pattern is prepared once (its character masks, forwards and backwards) and then searched in as
 * many regions as needed, without copying or reversing any text: anchoring calls this for a handful
 * of regions of a few hundred characters per quote, where setting up the search costs as much as
 * running it.
 */

/** One approximate occurrence: text [start, end) is `errors` edits away from the pattern. */
export interface ApproxMatch {
  start: number;
  end: number;
  errors: number;
}

const WORD = 32;
const TOP_BIT = 0x80000000 | 0;
/** Characters below this code get a direct row in the mask table; others go through a map. */
const DIRECT = 256;

/** Per-character bit masks of the pattern, one row of `blocks` 32-bit words per character. */
interface MaskTable {
  masks: Int32Array;
  /** Row of a character at or above DIRECT that occurs in the pattern. */
  wide: Map<number, number>;
  /** Row of zeros, for characters not in the pattern. */
  zeroRow: number;
}

function maskTable(pattern: string, blocks: number, reversed: boolean): MaskTable {
  const m = pattern.length;
  const wide = new Map<number, number>();
  for (let i = 0; i < m; i++) {
    const c = pattern.charCodeAt(i);
    if (c >= DIRECT && !wide.has(c)) wide.set(c, DIRECT + wide.size);
  }
  const zeroRow = DIRECT + wide.size;
  const masks = new Int32Array((zeroRow + 1) * blocks);
  for (let i = 0; i < m; i++) {
    const c = pattern.charCodeAt(reversed ? m - 1 - i : i);
    const row = c < DIRECT ? c : (wide.get(c) as number);
    masks[row * blocks + (i >>> 5)] |= 1 << (i & 31);
  }
  return { masks, wide, zeroRow };
}

/**
 * A pattern prepared for approximate search. `search` reports, like a classic approximate matcher,
 * the occurrences with the fewest errors (at most `maxErrors`) in a region, each as long as possible.
 */
export class ApproxPattern {
  readonly length: number;
  private readonly blocks: number;
  private readonly forward: MaskTable;
  private backward: MaskTable | null = null;
  /** Vertical delta vectors (positive / negative), one word per block; reused by every pass. */
  private readonly pv: Int32Array;
  private readonly mv: Int32Array;
  /** Bit of the pattern's last character in the last block. */
  private readonly lastBit: number;

  constructor(readonly pattern: string) {
    const m = pattern.length;
    this.length = m;
    this.blocks = Math.max(1, Math.ceil(m / WORD));
    this.forward = maskTable(pattern, this.blocks, false);
    this.pv = new Int32Array(this.blocks);
    this.mv = new Int32Array(this.blocks);
    this.lastBit = 1 << ((m - 1) & 31);
  }

  /**
   * Approximate occurrences lying inside text[from, to): those with the smallest error count found,
   * provided it is at most `maxErrors`; ends in ascending order. Each match starts as early as its
   * error count allows (the longest match ending there).
   */
  search(text: string, from: number, to: number, maxErrors: number): ApproxMatch[] {
    const m = this.length;
    from = Math.max(0, from);
    to = Math.min(text.length, to);
    if (m === 0 || to <= from) return [];
    if (this.blocks === 1) return this.searchOneBlock(text, from, to, Math.min(maxErrors, m));
    const blocks = this.blocks;
    const last = blocks - 1;
    const lastRows = m - WORD * last;
    const lastBit = this.lastBit;
    const { masks, wide, zeroRow } = this.forward;
    const pv = this.pv;
    const mv = this.mv;
    // score[b]: the distance at block b's bottom row for the current text position.
    const score = new Int32Array(blocks);
    let k = Math.min(maxErrors, m);
    // Only blocks 0..y are computed: below them every value exceeds k (Ukkonen's cut-off), so they
    // cannot take part in a match. A block joins when the one above it may let a value <= k through.
    let y = Math.min(last, Math.max(0, Math.ceil(k / WORD) - 1));
    for (let b = 0; b <= y; b++) {
      pv[b] = -1;
      mv[b] = 0;
      score[b] = b === last ? m : WORD * (b + 1);
    }
    const ends: number[] = [];
    for (let j = from; j < to; j++) {
      const c = text.charCodeAt(j);
      const base = (c < DIRECT ? c : wide.get(c) ?? zeroRow) * blocks;
      // Row 0 is free (a match may start anywhere): no horizontal delta enters the first block.
      let carry = 0;
      for (let b = 0; b <= y; b++) {
        carry = step(masks[base + b], pv, mv, b, carry, b === last ? lastBit : TOP_BIT);
        score[b] += carry;
      }
      if (y < last && score[y] - carry <= k && ((masks[base + y + 1] & 1) !== 0 || carry < 0)) {
        // The next block may hold values <= k from here on: start it as if all its values were
        // one more than the row above (an overestimate, which is harmless above k).
        y++;
        pv[y] = -1;
        mv[y] = 0;
        const rows = y === last ? lastRows : WORD;
        score[y] = score[y - 1] - carry + rows + step(masks[base + y], pv, mv, y, carry, y === last ? lastBit : TOP_BIT);
      } else {
        while (y > 0 && score[y] >= k + WORD) y--;
      }
      if (y === last && score[y] <= k) {
        // Only the best error count is reported: a better one discards earlier ends.
        if (score[y] < k) {
          k = score[y];
          ends.length = 0;
        }
        ends.push(j + 1);
      }
    }
    const out: ApproxMatch[] = [];
    for (const end of ends) out.push({ start: this.longestStart(text, from, end, k), end, errors: k });
    return out;
  }

  /**
   * search() for a pattern of at most 32 characters (most quotes): one word of state kept in locals, the
   * block step written out. Anchoring runs this on few regions per page, mostly before the JIT has
   * optimised anything, where every call and typed-array access of the general loop counts.
   */
  private searchOneBlock(text: string, from: number, to: number, maxErrors: number): ApproxMatch[] {
    const { masks, wide, zeroRow } = this.forward;
    const lastBit = this.lastBit;
    let pv = -1;
    let mv = 0;
    let score = this.length;
    let k = maxErrors;
    const ends: number[] = [];
    for (let j = from; j < to; j++) {
      const c = text.charCodeAt(j);
      const eq = masks[c < DIRECT ? c : wide.get(c) ?? zeroRow];
      const xv = eq | mv;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      const ph = mv | ~(xh | pv);
      const mh = pv & xh;
      if (ph & lastBit) score++;
      else if (mh & lastBit) score--;
      // Row 0 is free (a match may start anywhere): nothing enters the shifted deltas.
      const phs = ph << 1;
      pv = (mh << 1) | ~(xv | phs);
      mv = phs & xv;
      if (score <= k) {
        // Only the best error count is reported: a better one discards earlier ends.
        if (score < k) {
          k = score;
          ends.length = 0;
        }
        ends.push(j + 1);
      }
    }
    const out: ApproxMatch[] = [];
    for (const end of ends) out.push({ start: this.longestStart(text, from, end, k), end, errors: k });
    return out;
  }

  /**
   * Start of the longest text[start, end) (start >= floor) that is `errors` edits from the pattern:
   * the same recurrence run backwards from `end` with the pattern reversed, and row 0 anchored at
   * `end` (each text character taken before the match costs one). A match costs at most `errors`
   * more characters than the pattern, which bounds how far back to look.
   */
  private longestStart(text: string, floor: number, end: number, errors: number): number {
    const { masks, wide, zeroRow } = (this.backward ??= maskTable(this.pattern, this.blocks, true));
    const blocks = this.blocks;
    const last = blocks - 1;
    const lastBit = this.lastBit;
    const pv = this.pv;
    const mv = this.mv;
    pv.fill(-1);
    mv.fill(0);
    const lowest = Math.max(floor, end - this.length - errors);
    let score = this.length;
    let start = end;
    for (let j = end - 1; j >= lowest; j--) {
      const c = text.charCodeAt(j);
      const base = (c < DIRECT ? c : wide.get(c) ?? zeroRow) * blocks;
      let carry = 1;
      for (let b = 0; b < blocks; b++) carry = step(masks[base + b], pv, mv, b, carry, b === last ? lastBit : TOP_BIT);
      score += carry;
      if (score <= errors) start = j;
    }
    return start;
  }
}

/**
 * One 32-row block of one text column (Myers' block step): updates the block's vertical deltas
 * `pv`/`mv` at index `b` from the character mask `eq` and the horizontal delta `hin` (-1, 0, 1)
 * entering its top, and returns the horizontal delta leaving the row marked by `bottom`.
 */
function step(eq: number, pv: Int32Array, mv: Int32Array, b: number, hin: number, bottom: number): number {
  const p = pv[b];
  const n = mv[b];
  const xv = eq | n;
  if (hin < 0) eq |= 1;
  const xh = (((eq & p) + p) ^ p) | eq;
  let ph = n | ~(xh | p);
  let mh = p & xh;
  const hout = ph & bottom ? 1 : mh & bottom ? -1 : 0;
  ph <<= 1;
  mh <<= 1;
  if (hin < 0) mh |= 1;
  else if (hin > 0) ph |= 1;
  pv[b] = mh | ~(xv | ph);
  mv[b] = ph & xv;
  return hout;
}
