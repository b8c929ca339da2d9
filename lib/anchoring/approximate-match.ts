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
    const ends: number[] = [];
    let best = Math.min(maxErrors, m);
    // Row 0 is free (a match may start anywhere): no horizontal delta enters the first block.
    this.run(text, from, to, 1, this.forward, 0, (j, score) => {
      if (score > best) return;
      const end = j + 1;
      if (score < best) {
        best = score;
        ends.length = 0;
      }
      ends.push(end);
    });
    const out: ApproxMatch[] = [];
    for (const end of ends) out.push({ start: this.longestStart(text, from, end, best), end, errors: best });
    return out;
  }

  /**
   * Start of the longest text[start, end) (start >= floor) that is `errors` edits from the pattern:
   * the same computation run backwards from `end` with the pattern reversed and row 0 anchored at
   * `end` (each text character taken before the match costs one).
   */
  private longestStart(text: string, floor: number, end: number, errors: number): number {
    const table = (this.backward ??= maskTable(this.pattern, this.blocks, true));
    const lowest = Math.max(floor, end - this.length - errors);
    let start = end;
    this.run(text, end - 1, lowest - 1, -1, table, 1, (j, score) => {
      if (score <= errors) start = j;
    });
    return start;
  }

  /**
   * Runs the bit-parallel recurrence over text positions from `a` towards `b` (exclusive) in steps of
   * `step` (+1 or -1). `rowZeroDelta` is the horizontal delta entering the first block per text
   * character: 0 when a match may start anywhere, 1 when it is anchored at `a`. After each character,
   * `report` gets its position and the edit distance of the whole pattern to the text read so far.
   */
  private run(
    text: string,
    a: number,
    b: number,
    step: number,
    table: MaskTable,
    rowZeroDelta: number,
    report: (pos: number, score: number) => void,
  ): void {
    const blocks = this.blocks;
    const last = blocks - 1;
    const lastBit = this.lastBit;
    const { masks, wide, zeroRow } = table;
    const pv = this.pv;
    const mv = this.mv;
    pv.fill(-1);
    mv.fill(0);
    let score = this.length;
    for (let j = a; j !== b; j += step) {
      const c = text.charCodeAt(j);
      const base = (c < DIRECT ? c : wide.get(c) ?? zeroRow) * blocks;
      let hin = rowZeroDelta;
      for (let k = 0; k < blocks; k++) {
        let eq = masks[base + k];
        const p = pv[k];
        const n = mv[k];
        const xv = eq | n;
        if (hin < 0) eq |= 1;
        const xh = (((eq & p) + p) ^ p) | eq;
        let ph = n | ~(xh | p);
        let mh = p & xh;
        const top = k === last ? lastBit : 0x80000000 | 0;
        const hout = ph & top ? 1 : mh & top ? -1 : 0;
        ph <<= 1;
        mh <<= 1;
        if (hin < 0) mh |= 1;
        else if (hin > 0) ph |= 1;
        pv[k] = mh | ~(xv | ph);
        mv[k] = ph & xv;
        hin = hout;
      }
      score += hin;
      report(j, score);
    }
  }
}
