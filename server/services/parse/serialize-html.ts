// Writes a parsed document back out as HTML with escaping under our control. linkedom's own
// serializer writes the text of <title> (which the parser entity-decodes) back unescaped, so a
// title of "&lt;/title&gt;&lt;script&gt;" would come out as a live <script>; here every text
// node is escaped, and raw-text elements are only written raw when they cannot close early.

const VOID_ELEMENTS = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr',
  'param', 'keygen', 'basefont', 'bgsound', 'frame',
]);

/** Elements whose text a browser reads raw, up to the first "</name". */
const RAW_TEXT_ELEMENTS = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

/** An attribute name a browser reads as exactly one name. */
function isSafeAttributeName(name: string): boolean {
  if (!name) return false;
  for (const ch of name) {
    const code = ch.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || ch === '"' || ch === "'" || ch === '>' || ch === '/' || ch === '=' || ch === '<') return false;
  }
  return true;
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\u00a0', '&nbsp;');
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The whole document, with `<!DOCTYPE html>` first. */
export function serializeDocument(document: Document): string {
  const out: string[] = ['<!DOCTYPE html>\n'];
  for (const node of document.childNodes) if (node.nodeType !== 10) writeNode(node, out);
  return out.join('');
}

function writeNode(node: Node, out: string[]): void {
  switch (node.nodeType) {
    case 1:
      writeElement(node as Element, out);
      return;
    case 3:
      out.push(escapeText(node.textContent ?? ''));
      return;
    case 8: {
      const data = node.textContent ?? '';
      if (!data.includes('--') && !data.startsWith('>') && !data.endsWith('-')) out.push(`<!--${data}-->`);
      return;
    }
    default:
      return; // doctype, processing instructions, CDATA: dropped
  }
}

function writeElement(element: Element, out: string[]): void {
  const name = element.localName;
  const lower = name.toLowerCase();
  out.push(`<${name}`);
  for (const attribute of element.attributes) {
    if (!isSafeAttributeName(attribute.name)) continue;
    out.push(` ${attribute.name}="${escapeAttribute(attribute.value)}"`);
  }
  out.push('>');
  if (VOID_ELEMENTS.has(lower)) return;

  if (RAW_TEXT_ELEMENTS.has(lower)) {
    const text = element.textContent ?? '';
    // written raw, as browsers read it, unless it could end the element early
    if (!text.toLowerCase().includes(`</${lower}`)) out.push(text);
  } else if (lower === 'textarea') {
    // the parser keeps textarea text as written (entities undecoded), so it goes back as it came
    const text = element.textContent ?? '';
    out.push(text.toLowerCase().includes('</textarea') ? escapeText(text) : text);
  } else {
    for (const child of element.childNodes) writeNode(child, out);
  }
  out.push(`</${name}>`);
}
