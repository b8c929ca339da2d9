// How long an article takes to read, for the reader's heading. Pure.

/** Words a minute of an ordinary silent reader of prose. */
const WORDS_PER_MINUTE = 230;

/**
 * Characters of Chinese, Japanese or Korean script counted as one word each are read about twice as
 * fast as words; they carry no spaces, so they are counted one by one and halved.
 */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/** Words of `text`: runs of letters or digits between spaces, with CJK characters counted as half a word each. */
export function wordCount(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const rest = text.replace(CJK, ' ');
  const words = rest.match(/[\p{L}\p{N}][\p{L}\p{N}'’\-.]*/gu)?.length ?? 0;
  return words + Math.round(cjk / 2);
}

/** Whole minutes to read `text` at WORDS_PER_MINUTE, never less than 1 for text with any word, 0 for none. */
export function readingMinutes(text: string): number {
  const words = wordCount(text);
  if (words === 0) return 0;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
