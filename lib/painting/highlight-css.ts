/**
 * The painter's CSS: `::highlight()` rules for the Highlight API and class rules for the fallback.
 * Pure strings, no DOM: the build also writes the `::highlight()` rules as the style sheet the background
 * registers as a content-script style sheet (wxt.config.ts, highlight-styles.css), so that the pages
 * where highlights are painted automatically have them from their first style computation.
 */
import { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';

/** highlightApiCss() as a file of the extension (written by the build, see wxt.config.ts). */
export const HIGHLIGHT_STYLES_FILE = 'highlight-styles.css';

const NAME_PREFIX = 'tidemark';
export const NOTE_HIGHLIGHT = `${NAME_PREFIX}-note`;
export const FLASH_HIGHLIGHT = `${NAME_PREFIX}-flash`;

/** Name of a colour's highlight in CSS.highlights. */
export function highlightName(color: HighlightColor): string {
  return `${NAME_PREFIX}-${color}`;
}

/** Class name the fallback painter puts on wrapper spans of a colour. */
export function colorClass(color: HighlightColor | 'flash'): string {
  return `${NAME_PREFIX}-hl-${color}`;
}

/** Background colours, translucent so text stays readable on light and dark pages. */
export const COLOR_VALUES: Record<HighlightColor, string> = {
  blue: 'rgba(66,133,244,.32)',
  brown: 'rgba(141,110,99,.36)',
  cyan: 'rgba(0,188,212,.32)',
  gray: 'rgba(158,158,158,.4)',
  green: 'rgba(76,175,80,.34)',
  indigo: 'rgba(92,107,192,.34)',
  orange: 'rgba(255,152,0,.36)',
  pink: 'rgba(236,64,122,.3)',
  purple: 'rgba(156,39,176,.28)',
  red: 'rgba(244,67,54,.32)',
  teal: 'rgba(0,150,136,.32)',
  yellow: 'rgba(255,214,0,.45)',
};
const FLASH_VALUE = 'rgba(255,111,0,.75)';

/**
 * Marks the elements whose text a highlight covers, where the painter adds its own sheet to a page
 * that is already styled (the highlighter injected by a click): its rules are scoped to marked
 * elements (highlightApiCss(true)), because in Chromium adding a sheet with unscoped `::highlight()`
 * rules restyles every element of the page (bench/README.md, "Scoped highlight rules"), while a sheet
 * whose rules need an attribute no element has yet restyles none; marking an element then restyles
 * only it and its descendants. The mark's value lists the colours of the highlights in the element's
 * text (and `note` where one has a note), and each colour's rule asks for its own, because Chromium
 * computes an element's `::highlight()` styles once for every rule that matches it.
 */
export const SCOPE_ATTRIBUTE = 'data-tidemark-hl';
/** The mark's word for a highlight with a note. */
export const NOTE_MARK = 'note';

/**
 * The `::highlight()` rules, each for the elements `scope` selects: by default all; with the scope
 * marks' (ScopeMarker.scope, scope-marks.ts) only the marked elements whose mark has the rule's word
 * (a colour, NOTE_MARK; '' any mark: see SCOPE_ATTRIBUTE). That selector is written by the marks'
 * script, so the highlighter's own script does not carry it.
 */
export function highlightApiCss(scope: (word: string) => string = () => ''): string {
  const rules = HIGHLIGHT_COLORS.map((c) => `${scope(c)}::highlight(${highlightName(c)}){background-color:${COLOR_VALUES[c]}}`);
  rules.push(
    `${scope(NOTE_MARK)}::highlight(${NOTE_HIGHLIGHT}){text-decoration:underline dotted rgba(33,33,33,.85);text-decoration-thickness:2px;text-underline-offset:3px}`,
    `${scope('')}::highlight(${FLASH_HIGHLIGHT}){background-color:${FLASH_VALUE}}`,
  );
  return rules.join('\n');
}

export function classApplierCss(): string {
  const rules = HIGHLIGHT_COLORS.map((c) => `.${colorClass(c)} { background-color: ${COLOR_VALUES[c]}; }`);
  rules.push(`.${colorClass('flash')} { background-color: ${FLASH_VALUE}; }`);
  return rules.join('\n');
}

