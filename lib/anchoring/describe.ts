/**
 * Describing a selection: DOM Range -> HighlightDescriptor (quote, occurrence index, 32 chars of context).
 */
import { MAX_CONTEXT } from './context.js';
import { occurrencesBefore } from './search-exact.js';
import { textSearchOf } from './search-text.js';
import { TextIndex, type TextIndexOptions } from './text-index.js';
import type { HighlightDescriptor } from './types.js';

/** Characters of context stored on each side of the quote: as many as anchoring compares. */
export const CONTEXT_LENGTH = MAX_CONTEXT;

/** Descriptor for normalised text [start, end) of `index`; null when it holds no visible text. */
export function describeOffsets(index: TextIndex, start: number, end: number): HighlightDescriptor | null {
  const text = index.text;
  start = Math.max(0, start);
  end = Math.min(text.length, end);
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  if (start >= end) return null;
  const quote = text.slice(start, end);
  return {
    text: quote,
    position: occurrencesBefore(textSearchOf(index), quote, start),
    prefix: text.slice(Math.max(0, start - CONTEXT_LENGTH), start),
    suffix: text.slice(end, end + CONTEXT_LENGTH),
  };
}

/**
 * Descriptor for a DOM range (e.g. `selection.getRangeAt(0)`), or null when the range holds no
 * visible text of the root. Pass a TextIndex to describe several ranges of one page state.
 */
export function describeRange(
  rootOrIndex: Node | TextIndex,
  range: AbstractRange,
  options?: TextIndexOptions,
): HighlightDescriptor | null {
  const index = rootOrIndex instanceof TextIndex ? rootOrIndex : new TextIndex(rootOrIndex, options);
  const offsets = index.offsetsOf(range);
  if (!offsets) return null;
  return describeOffsets(index, offsets.start, offsets.end);
}
