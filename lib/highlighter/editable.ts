// Where the highlighter must stay out of the way: selections in form fields and editable content.

/** True when `node` is inside an input, a textarea, a select or contenteditable content. */
function inEditable(node: Node | null): boolean {
  const el = node && (node.nodeType === 1 ? (node as Element) : node.parentElement);
  if (!el) return false;
  if (el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]')) return true;
  return (el as HTMLElement).isContentEditable === true;
}

/** The page's selection when it is one the highlighter should offer to highlight, else null. */
export function highlightableSelection(win: Window = window): Selection | null {
  const sel = win.getSelection();
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  if (!sel.toString().trim()) return null;
  const active = win.document.activeElement;
  if (active && (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA')) return null;
  if (inEditable(sel.anchorNode) || inEditable(sel.focusNode)) return null;
  return sel;
}
