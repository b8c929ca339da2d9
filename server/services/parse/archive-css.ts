// Cleans CSS kept in a permanent copy (<style> elements and style attributes) so that it can make
// the reader's browser fetch nothing: every url() becomes `none`, @import rules go, and CSS that
// still spells a fetching or scripting construct after its escapes are decoded (u\72l(, image-set()
// with a string, expression(), -moz-binding) is refused as a whole.

const URL_FUNCTION = /url\(\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^)]*)\s*\)/gi;
const IMPORT_RULE = /@import\b[^;]*;?/gi;
const COMMENT = /\/\*[\s\S]*?(?:\*\/|$)/g;
/** what must not appear in the cleaned text once escapes, comments and spaces are gone */
const FORBIDDEN = ['url(', '@import', 'image-set(', 'image(', 'src(', 'cross-fade(', 'element(', 'expression(', '-moz-binding', 'behavior:', 'javascript:'];

/** `css` without anything that fetches or runs, or null when it cannot be made so and must be dropped. */
export function cleanCss(css: string): string | null {
  const cleaned = css.replace(COMMENT, '').replace(IMPORT_RULE, '').replace(URL_FUNCTION, 'none');
  const probe = decodeEscapes(cleaned).replace(COMMENT, '').replace(/\s+/g, '').toLowerCase();
  return FORBIDDEN.some((word) => probe.includes(word)) ? null : cleaned;
}

/** CSS escapes (`\75`, `\u`) turned into the characters they stand for. */
function decodeEscapes(css: string): string {
  return css.replace(/\\(?:([0-9a-f]{1,6})\s?|([^\n]))/gi, (_match, hex: string | undefined, char: string | undefined) => {
    if (hex) {
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return char ?? '';
  });
}
