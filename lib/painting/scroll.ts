/** Bringing a range into view, including ranges inside nested scroll containers. */
import { liveRange } from './hit-test.js';

export function scrollRangeIntoView(doc: Document, range: AbstractRange, behavior: ScrollBehavior = 'auto'): boolean {
  const r = liveRange(doc, range);
  const start = r.startContainer;
  const el = start.nodeType === 1 ? (start as Element) : start.parentElement;
  if (!el) return false;
  // Scroll containers first (the element's block to the middle), then centre the range itself in the window.
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior });
  const win = doc.defaultView;
  if (win && behavior !== 'smooth') {
    const rect = r.getBoundingClientRect();
    const offset = rect.top + rect.height / 2 - win.innerHeight / 2;
    if (Math.abs(offset) > 1 && rect.height < win.innerHeight) win.scrollBy({ top: offset, behavior: 'instant' as ScrollBehavior });
  }
  return true;
}
