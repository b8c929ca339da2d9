// The order highlight colours are offered in before any is used: yellow (the API's default), green,
// blue, pink, then the rest in the API's order. The extension's toolbar sorts it by use
// (lib/background/highlight-colors.ts); the web app's reader puts the last one used first.
import { HIGHLIGHT_COLORS, type HighlightColor } from './api/constants.js';

const FIRST: readonly HighlightColor[] = ['yellow', 'green', 'blue', 'pink'];

export const STARTER_COLORS: readonly HighlightColor[] = [...FIRST, ...HIGHLIGHT_COLORS.filter((c) => !FIRST.includes(c))];
