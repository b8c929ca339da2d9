// Colour statistics: which colours the user picks, so the toolbar offers the most used first and
// preselects the last one.
import { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';
import { highlightColorsItem } from '../storage/items.js';

/**
 * The order colours are offered in before any is used: yellow (the API's default), green, blue,
 * pink first, then the rest in the API's order.
 */
const STARTER_COLORS: readonly HighlightColor[] = [
  ...(['yellow', 'green', 'blue', 'pink'] as const),
  ...HIGHLIGHT_COLORS.filter((c) => !['yellow', 'green', 'blue', 'pink'].includes(c)),
];

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
