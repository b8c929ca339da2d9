// Edits of a bookmark whose stored fields are not known here (the popup opened offline on a page the
// saved-link index knows, but the bookmark itself was never read): what the user typed is added to
// what the server has, never put in place of it. Merged when the write is sent, with the bookmark as
// the server has it at that moment (read, then written), so tags it had stay and so does its note.
import type { Bookmark, BookmarkUpdate } from '../api/types.js';
import type { AppendChanges, BookmarkChanges } from '../model.js';

/** Splits popup changes into additions (tags, note) and plain field changes (title, collection...). */
export function splitAppend(changes: BookmarkChanges): { rest: BookmarkChanges; append: AppendChanges } {
  const { tags, note, ...rest } = changes;
  const append: AppendChanges = {};
  if (tags !== undefined) append.tags = tags;
  if (note !== undefined) append.note = note;
  return { rest, append };
}

export const isEmptyAppend = (a: AppendChanges | undefined) => !a || (!a.tags?.length && !a.note?.trim());

/**
 * The update that adds `append` to `stored`: tags it lacks are added after its own, the note is
 * added under its own. Repeating it on the result changes nothing (a write whose answer was lost
 * and is sent again does not add twice).
 */
export function appendedUpdate(stored: Pick<Bookmark, 'tags' | 'note'>, body: BookmarkUpdate, append: AppendChanges): BookmarkUpdate {
  const out: BookmarkUpdate = { ...body };
  if (append.tags?.length) {
    const have = new Set(stored.tags);
    const added = append.tags.filter((t) => !have.has(t));
    if (added.length) out.tags = [...stored.tags, ...added];
  }
  const note = append.note?.trim();
  if (note && !stored.note.includes(note)) out.note = stored.note.trim() ? `${stored.note.trimEnd()}\n\n${note}` : note;
  return out;
}

/** Later additions replace earlier ones field by field: the popup always sends its whole list of tags to add and its whole note to add. */
export function mergeAppend(earlier: AppendChanges | undefined, later: AppendChanges | undefined): AppendChanges | undefined {
  if (!earlier) return later;
  if (!later) return earlier;
  return { ...earlier, ...later };
}
