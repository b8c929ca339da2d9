// The local copy's form of a highlight (`StoredHighlight`) made from the server's highlights and
// from the changes a highlight write carries.
import type { Bookmark, HighlightChange } from '../api/types.js';
import type { StoredHighlight } from '../model.js';

export function storedOf(h: Bookmark['highlights'][number]): StoredHighlight {
  return { key: h._id, text: h.text, color: h.color, note: h.note ?? '', ...pick(h) };
}

/** `item` with the fields a queued change sets. */
export function applied(item: StoredHighlight, c: HighlightChange): StoredHighlight {
  const out = { ...item };
  if (c.text !== undefined) out.text = c.text;
  if (c.color !== undefined) out.color = c.color;
  if (c.note !== undefined) out.note = c.note;
  return { ...out, ...pick(c) };
}

/** The anchoring fields of `h` that are set. */
export function pick(h: { position?: number; prefix?: string; suffix?: string }) {
  const out: { position?: number; prefix?: string; suffix?: string } = {};
  if (h.position !== undefined) out.position = h.position;
  if (h.prefix !== undefined) out.prefix = h.prefix;
  if (h.suffix !== undefined) out.suffix = h.suffix;
  return out;
}
