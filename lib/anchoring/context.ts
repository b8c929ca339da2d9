/**
 * Similarity of a stored prefix/suffix to the text around a candidate match.
 *
 * Both use an edit distance anchored at the quote: the prefix must end where the candidate starts,
 * the suffix must start where it ends; the far end is free, so a few inserted or removed characters
 * near the quote cost only what they change.
 */

/** Extra characters of page text examined beyond the context length (absorbs insertions). */
const SLACK = 8;
/** Longest context compared (one 32-bit word of the bit-parallel algorithm). */
export const MAX_CONTEXT = 32;
/** Longest context stored on one side where the page repeats itself (the API accepts 200). */
export const LONG_CONTEXT_MAX = 200;
/** A long context side is its compared window plus this many characters (see describe.ts). */
export const LONG_CONTEXT_SLACK = 8;
/** Shortest side of a long context that separates the place from its twins. */
export const LONG_SIDE_MIN = MAX_CONTEXT + LONG_CONTEXT_SLACK;

/**
 * The compared window of one stored side of a long context, or null when that side does not tell the
 * place from its twins (stored at LONG_CONTEXT_MAX, or short).
 */
export function separatingWindow(side: string): number | null {
  if (side.length < LONG_SIDE_MIN || side.length >= LONG_CONTEXT_MAX) return null;
  return side.length - LONG_CONTEXT_SLACK;
}
/** Edits (prefix + suffix together) by which every twin's context must differ from a stored long context. */
export const TWIN_SEPARATION = 8;

const peqAscii = new Int32Array(256);

/**
 * Edit distance between `pattern` (at most 32 characters) and a piece of `text` anchored at `anchor`
 * that extends backwards (`backwards` = true, for prefixes: the pattern's last character meets the
 * anchor) or forwards (for suffixes) by any length: the far end is free.
 *
 * Bit-parallel (Myers/Hyyro) with the pattern read from the anchor outwards; the row-0 boundary is
 * D[0][j] = j because the near end is anchored, and the answer is the minimum over the last row.
 */
export function anchoredDistance(pattern: string, text: string, anchor: number, backwards: boolean): number {
  const m = Math.min(pattern.length, MAX_CONTEXT);
  if (m === 0) return 0;
  const w = Math.min(m + SLACK, backwards ? anchor : text.length - anchor);
  if (w <= 0) return m;
  // Pattern characters in order of distance from the anchor: bit i for the i-th one.
  const last = pattern.length - 1;
  let wide: Array<[number, number]> | null = null;
  for (let i = 0; i < m; i++) {
    const c = pattern.charCodeAt(backwards ? last - i : i);
    if (c < 256) peqAscii[c] |= 1 << i;
    else {
      wide ??= [];
      const e = wide.find((x) => x[0] === c);
      if (e) e[1] |= 1 << i;
      else wide.push([c, 1 << i]);
    }
  }
  const high = 1 << (m - 1);
  let pv = -1;
  let mv = 0;
  let score = m;
  let best = m;
  const step = backwards ? -1 : 1;
  for (let j = 0, at = backwards ? anchor - 1 : anchor; j < w; j++, at += step) {
    const c = text.charCodeAt(at);
    let eq = 0;
    if (c < 256) eq = peqAscii[c];
    else if (wide) for (const [wc, mask] of wide) if (wc === c) eq = mask;
    const xv = eq | mv;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & high) score++;
    else if (mh & high) score--;
    ph = (ph << 1) | 1; // anchored near end: D[0][j] grows by one per text character
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    if (score < best) best = score;
  }
  for (let i = 0; i < m; i++) {
    const c = pattern.charCodeAt(backwards ? last - i : i);
    if (c < 256) peqAscii[c] = 0;
  }
  return best;
}

/** 1 when `prefix` ends exactly at `start` in `text`, falling towards 0 with each edit. */
export function prefixSimilarity(prefix: string, text: string, start: number): number {
  if (prefix.length === 0) return 1;
  if (start >= prefix.length && text.startsWith(prefix, start - prefix.length)) return 1;
  return 1 - anchoredDistance(prefix, text, start, true) / prefix.length;
}

/** 1 when `suffix` starts exactly at `end` in `text`, falling towards 0 with each edit. */
export function suffixSimilarity(suffix: string, text: string, end: number): number {
  if (suffix.length === 0) return 1;
  if (text.startsWith(suffix, end)) return 1;
  return 1 - anchoredDistance(suffix, text, end, false) / suffix.length;
}

/** Cheap pre-ranking: characters of the prefix that match going backwards from `start`. */
export function commonPrefixRun(prefix: string, text: string, start: number): number {
  let n = 0;
  const m = prefix.length;
  while (n < m && start - n - 1 >= 0 && prefix.charCodeAt(m - n - 1) === text.charCodeAt(start - n - 1)) n++;
  return n;
}

/** Cheap pre-ranking: characters of the suffix that match going forwards from `end`. */
export function commonSuffixRun(suffix: string, text: string, end: number): number {
  let n = 0;
  const m = suffix.length;
  while (n < m && end + n < text.length && suffix.charCodeAt(n) === text.charCodeAt(end + n)) n++;
  return n;
}

/** Context agreement of a candidate [start, end): per side similarity, or null where no context is known. */
export interface ContextScore {
  prefix: number | null;
  suffix: number | null;
  /** Length-weighted mean of the known sides (null when neither is known). */
  mean: number | null;
  /** The better of the known sides (null when neither is known). */
  best: number | null;
}

/** Similarity of unrelated prose (median), and the context length from which a side is fully trusted. */
const CHANCE_SIMILARITY = 0.3;
const TRUSTED_LENGTH = 16;

/** A short context (quote near the start/end of the page) matches by chance too easily: pull it toward chance. */
function shrink(sim: number, length: number): number {
  if (length >= TRUSTED_LENGTH || sim <= CHANCE_SIMILARITY) return sim;
  return CHANCE_SIMILARITY + ((sim - CHANCE_SIMILARITY) * length) / TRUSTED_LENGTH;
}

export function contextScore(
  text: string,
  start: number,
  end: number,
  prefix: string,
  suffix: string,
): ContextScore {
  const p = prefix.length > 0 ? shrink(prefixSimilarity(prefix, text, start), prefix.length) : null;
  const s = suffix.length > 0 ? shrink(suffixSimilarity(suffix, text, end), suffix.length) : null;
  if (p === null && s === null) return { prefix: null, suffix: null, mean: null, best: null };
  if (p === null) return { prefix: null, suffix: s, mean: s, best: s };
  if (s === null) return { prefix: p, suffix: null, mean: p, best: p };
  const mean = (p * prefix.length + s * suffix.length) / (prefix.length + suffix.length);
  return { prefix: p, suffix: s, mean, best: Math.max(p, s) };
}

/** Rows of boundedAnchoredDistance, kept between calls (a few hundred calls per page, no allocation each). */
let bandPrev = new Int32Array(16);
let bandCur = new Int32Array(16);

/**
 * Like anchoredDistance for contexts of any length (the long contexts stored where a page repeats
 * itself), counting only up to `limit`: the answer is min(distance, limit + 1). A banded dynamic
 * program (|i - j| <= limit), so its cost grows with the pattern length times the limit.
 *
 * The run of characters that agree from the anchor outwards is skipped: after r equal characters,
 * D[r][j] = |r - j| (no alignment of r pattern and j text characters costs less than their length
 * difference, and that one is reached by matching the run and then inserting or deleting). Twins on
 * repetitive pages agree for most of their length, so most of the table is never computed.
 */
export function boundedAnchoredDistance(pattern: string, text: string, anchor: number, backwards: boolean, limit: number): number {
  const m = pattern.length;
  if (m === 0) return 0;
  const avail = backwards ? anchor : text.length - anchor;
  const w = Math.min(m + limit, avail);
  const band = 2 * limit + 1;
  const over = limit + 1;
  // Pattern and text characters, both read outwards from the anchor.
  const pc = (i: number) => (backwards ? pattern.charCodeAt(m - 1 - i) : pattern.charCodeAt(i));
  const tc = (j: number) => (backwards ? text.charCodeAt(anchor - 1 - j) : text.charCodeAt(anchor + j));
  let r = 0;
  const run = Math.min(m, w);
  while (r < run && pc(r) === tc(r)) r++;
  if (r === m) return 0;
  if (bandPrev.length < band) {
    bandPrev = new Int32Array(band);
    bandCur = new Int32Array(band);
  }
  // row[d] holds D[i][i + d - limit]; cells outside the band or the text count as `over`.
  let prev = bandPrev;
  let cur = bandCur;
  for (let d = 0; d < band; d++) {
    const j = r + d - limit;
    prev[d] = j >= 0 && j <= w ? Math.min(Math.abs(d - limit), over) : over;
  }
  for (let i = r + 1; i <= m; i++) {
    const c = pc(i - 1);
    let rowMin = over;
    for (let d = 0; d < band; d++) {
      const j = i + d - limit;
      if (j < 0 || j > w) {
        cur[d] = over;
        continue;
      }
      // D[i][j] = min(D[i-1][j-1] + cost, D[i-1][j] + 1, D[i][j-1] + 1)
      let v = j === 0 ? i : prev[d] + (tc(j - 1) === c ? 0 : 1); // diagonal: same d in the previous row
      if (d + 1 < band && prev[d + 1] + 1 < v) v = prev[d + 1] + 1; // from D[i-1][j]
      if (d > 0 && j > 0 && cur[d - 1] + 1 < v) v = cur[d - 1] + 1; // from D[i][j-1]
      if (v > over) v = over;
      cur[d] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= over) return over;
    const t = prev;
    prev = cur;
    cur = t;
  }
  let best = over;
  for (let d = 0; d < band; d++) {
    const j = m + d - limit;
    if (j >= 0 && j <= w && prev[d] < best) best = prev[d];
  }
  return best;
}
