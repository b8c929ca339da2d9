/**
 * The limits of anchoring's approximate search (anchor.ts), in one place: the shortest quote it matches
 * approximately, the share of a quote's length it allows as errors by default, and its cap on errors.
 * text-changes.ts searches changed text with room above them, so it must follow them.
 */
export const FUZZY_MIN_LENGTH = 12;
export const FUZZY_MAX_ERROR_RATE = 0.2;
/** Hard cap on allowed errors, whatever the quote length. */
export const MAX_ERRORS_CAP = 32;
