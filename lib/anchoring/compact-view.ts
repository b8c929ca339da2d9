/**
 * The index's text with every space removed, and the way back to normalised offsets.
 * Built lazily, at most once per TextIndex, for the whitespace-insensitive strategy.
 */
import type { TextIndex } from './text-index.js';

export interface CompactView {
  /** `index.text` without spaces. */
  text: string;
  /** For each compact offset, the normalised offset of the same character. */
  toNormal: Int32Array;
}

const cache = new WeakMap<TextIndex, CompactView>();

export function compactViewOf(index: TextIndex): CompactView {
  let view = cache.get(index);
  if (!view) {
    view = buildCompactView(index.text);
    cache.set(index, view);
  }
  return view;
}

function buildCompactView(text: string): CompactView {
  const toNormal = new Int32Array(text.length);
  const parts: string[] = [];
  let n = 0;
  let runStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charCodeAt(i) === 0x20) {
      if (i > runStart) {
        parts.push(text.slice(runStart, i));
        for (let j = runStart; j < i; j++) toNormal[n++] = j;
      }
      runStart = i + 1;
    }
  }
  return { text: parts.join(''), toNormal: toNormal.slice(0, n) };
}
