/**
 * Similarity of a stored prefix/suffix to the text around a candidate match.
 *
 * Both use an edit distance anchored at the quote: the prefix must end where the candidate starts,
 * the suffix must start where it ends; the far end is free, so a few inserted or removed characters
 * near the quote cost only what they change.
 */

/** Extra characters of page text examined beyond the context length (absorbs insertions). */
const SLACK = 8;

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/**
 * Edit distance between `pattern` and a piece of `text`, where the piece is anchored at `anchor`
 * and extends backwards (`backwards` = true, for prefixes) or forwards (for suffixes) by any length.
 */
function anchoredDistance(pattern: string, text: string, anchor: number, backwards: boolean): number {
  const m = pattern.length;
  const w = Math.min(m + SLACK, backwards ? anchor : text.length - anchor);
  if (m === 0) return 0;
  if (w <= 0) return m;
  if (rowA.length < w + 1) {
    rowA = new Int32Array(w + 1);
    rowB = new Int32Array(w + 1);
  }
  // Row i: cost of matching the first i pattern chars (counted from the anchor) against the first j text chars
  // counted from the anchor; answer is the minimum over j of row m (free far end).
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= w; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    const pc = backwards ? pattern.charCodeAt(m - i) : pattern.charCodeAt(i - 1);
    cur[0] = i;
    for (let j = 1; j <= w; j++) {
      const tc = backwards ? text.charCodeAt(anchor - j) : text.charCodeAt(anchor + j - 1);
      const sub = prev[j - 1] + (pc === tc ? 0 : 1);
      const del = prev[j] + 1;
      const ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  let best = m;
  for (let j = 0; j <= w; j++) if (prev[j] < best) best = prev[j];
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
