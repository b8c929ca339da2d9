/**
 * Character rules shared by the text index and by descriptor normalisation.
 *
 * The normalised form of a text:
 *  - whitespace runs (including non-breaking and other Unicode spaces) become one U+0020,
 *  - soft hyphens and zero-width characters are dropped,
 *  - leading and trailing whitespace is removed.
 * The same rules are applied to page text (TextIndex) and to stored quotes, so both meet in one form.
 */

/** Character class: kept as is. */
export const CHAR_KEEP = 0;
/** Character class: whitespace, collapsed with its neighbours to one space. */
export const CHAR_SPACE = 1;
/** Character class: invisible, dropped entirely. */
const CHAR_DROP = 2;

/** Classifies one UTF-16 code unit. */
export function classifyChar(c: number): number {
  if (c > 0x20 && c < 0x7f) return CHAR_KEEP;
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) ? CHAR_SPACE : CHAR_KEEP;
  if (c < 0x00a0) return c === 0x85 ? CHAR_SPACE : CHAR_KEEP;
  if (c === 0x00a0) return CHAR_SPACE;
  if (c === 0x00ad) return CHAR_DROP;
  if (c < 0x1680) return CHAR_KEEP;
  if (c === 0x1680) return CHAR_SPACE;
  if (c >= 0x2000 && c <= 0x200a) return CHAR_SPACE;
  if (c >= 0x200b && c <= 0x200d) return CHAR_DROP;
  if (c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000) return CHAR_SPACE;
  if (c === 0x2060 || c === 0xfeff) return CHAR_DROP;
  return CHAR_KEEP;
}

/** Whitespace other than U+0020 (CHAR_SPACE), as the body of a regular-expression character class. */
export const OTHER_SPACE_CHARS = '\\t\\n\\v\\f\\r\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Dropped characters (CHAR_DROP), as the body of a regular-expression character class. */
export const DROPPED_CHARS = '\\xad\\u200b-\\u200d\\u2060\\ufeff';
/** Whitespace other than U+0020, and dropped characters. */
const ODD_CHARS = OTHER_SPACE_CHARS + DROPPED_CHARS;
/** Matches anywhere a text is not yet in normalised form. */
const NOT_NORMAL = new RegExp(`[${ODD_CHARS}]|  |^ | $`);
/** Matches anywhere a fragment is not yet in normalised form (edge spaces are kept). */
const NOT_NORMAL_FRAGMENT = new RegExp(`[${ODD_CHARS}]|  `);

/** Returns `s` in normalised form (see module comment). */
export function normalizeText(s: string): string {
  // Stored quotes are normally normalised already: one native test instead of a call per character.
  if (!NOT_NORMAL.test(s)) return s;
  let out = '';
  let runStart = 0;
  let pendingSpace = false;
  let i = 0;
  const n = s.length;
  // Copy runs of kept characters in slices; only special characters break a run.
  for (; i < n; i++) {
    const cls = classifyChar(s.charCodeAt(i));
    if (cls === CHAR_KEEP) {
      if (pendingSpace) {
        if (out.length > 0) out += ' ';
        pendingSpace = false;
        runStart = i;
      }
      continue;
    }
    if (i > runStart) out += s.slice(runStart, i);
    runStart = i + 1;
    if (cls === CHAR_SPACE) pendingSpace = true;
  }
  if (!pendingSpace && i > runStart) out += s.slice(runStart, i);
  return out;
}

/** `s` with every space removed (for the whitespace-insensitive strategy). `s` must be normalised. */
export function stripSpaces(s: string): string {
  return s.indexOf(' ') === -1 ? s : s.split(' ').join('');
}

/**
 * Normalises a context fragment (prefix/suffix): like normalizeText, but whitespace at either edge
 * is kept as one space, because it separates the fragment from the quote.
 */
export function normalizeFragment(s: string): string {
  if (!NOT_NORMAL_FRAGMENT.test(s)) return s;
  let a = 0;
  let b = s.length - 1;
  while (a <= b && classifyChar(s.charCodeAt(a)) === CHAR_DROP) a++;
  while (b >= a && classifyChar(s.charCodeAt(b)) === CHAR_DROP) b--;
  if (a > b) return '';
  const lead = classifyChar(s.charCodeAt(a)) === CHAR_SPACE;
  const trail = classifyChar(s.charCodeAt(b)) === CHAR_SPACE;
  const core = normalizeText(s);
  if (core.length === 0) return ' ';
  return (lead ? ' ' : '') + core + (trail ? ' ' : '');
}
