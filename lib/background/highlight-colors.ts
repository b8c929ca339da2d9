// Colour statistics: which colours the user picks, so the toolbar offers the most used first and
// preselects the last one.
import type { HighlightColor } from '../api/constants.js';
import { STARTER_COLORS } from '../highlight-color-order.js';
import { highlightColorsItem } from '../storage/items.js';

/** Colours ordered by use (most used first, then the starter order). */
export function colorsByUse(counts: Partial<Record<HighlightColor, number>>): HighlightColor[] {
  return [...STARTER_COLORS].sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || STARTER_COLORS.indexOf(a) - STARTER_COLORS.indexOf(b));
}

/** Counts one use of `color` and makes it the last used. */
export async function noteColorUse(color: HighlightColor): Promise<void> {
  const c = await highlightColorsItem.getValue();
  await highlightColorsItem.setValue({ counts: { ...c.counts, [color]: (c.counts[color] ?? 0) + 1 }, last: color });
}

/** The colours as the toolbar offers them: by use, and the last used. */
export async function colorChoice(): Promise<{ colors: HighlightColor[]; lastColor: HighlightColor }> {
  const colors = await highlightColorsItem.getValue();
  return { colors: colorsByUse(colors.counts), lastColor: colors.last };
}
