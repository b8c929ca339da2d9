// The library's bulk changes as the bulk bar, drag and drop and the Delete key start them: by rows
// or by every match of the search (asked first), deleting for good asked first too, then a message
// with Undo where the change has one, and the list and sidebar read again.
import type { Bookmark } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import type { LibraryHost } from '../../lib/library/host.js';
import { bulkTargets, chosenCount, NO_SELECTION, runUndo, undoOfBulk, undoOfMatching, type Matching, type Selection, type UndoEntry } from '../../lib/library/library-state.js';
import type { BulkAction, BulkResult, BulkTarget } from '../../lib/library/types.js';
import type { DialogSpec } from './Dialog.js';
import type { ToastSpec } from './Toast.js';

interface Context {
  host: LibraryHost;
  items: Bookmark[];
  selection: Selection;
  opened: Bookmark | null;
  inTrash: boolean;
  undo: UndoEntry | null;
  collectionTitle: (id: number) => string;
  setSelection: (s: Selection) => void;
  setUndo: (u: UndoEntry | null) => void;
  setToast: (t: ToastSpec) => void;
  setDialog: (d: DialogSpec) => void;
  setBusy: (busy: boolean) => void;
  /** Reads the list and the sidebar again (counts change). */
  reload: () => Promise<unknown>;
}

/** "1 bookmark", "N bookmarks". */
const bookmarksText = (count: number) => (count === 1 ? t('libOneBookmark') : t('libNBookmarks', count));

export function bulkCommands(c: Context) {
  const chosenText = bookmarksText(chosenCount(c.selection));

  /** Sends a change; then its Undo is offered (when it has one) and the list shows what is now. */
  const apply = async (sendIt: () => Promise<BulkResult>, undoOf: (r: BulkResult) => UndoEntry | null, text: (r: BulkResult) => string) => {
    c.setBusy(true);
    try {
      const r = await sendIt();
      c.setUndo(undoOf(r));
      // Undo belongs to this message only: another message later must not offer to undo this change.
      c.setToast({ text: text(r), undo: r.undoable });
      c.setSelection(NO_SELECTION);
      await c.reload();
    } catch (err) {
      c.setToast({ text: (err as Error).message, error: true });
    } finally {
      c.setBusy(false);
    }
  };

  const byRows = async (action: BulkAction, targets: BulkTarget[], label: string) => {
    if (!targets.length) return;
    await apply(
      () => c.host.bulk(action, targets),
      (r) => undoOfBulk(action, targets, label, r),
      (r) => (r.queued ? t('libBulkQueued', label) : label),
    );
  };

  /** A change to every match of the search in this collection: asked first (it reaches bookmarks not shown). */
  const byMatching = (action: BulkAction, label: string, m: Matching) =>
    c.setDialog({
      title: t('libMatchingTitle', bookmarksText(m.count)),
      message: t('libMatchingMessage'),
      confirm: describe(action, c.collectionTitle),
      danger: action.kind === 'delete-forever',
      onSubmit: () =>
        apply(
          () => c.host.bulkMatching(action, m.collectionId, m.search),
          (r) => undoOfMatching(action, m, label, r),
          (r) => (r.undoable ? label : `${label} ${t('libMatchingNoUndo')}`),
        ),
    });

  /** A change of the given bookmarks (dragged, or the Delete key's), else of what is selected: the rows, or every match. */
  const act = (action: BulkAction, label: string, targets?: BulkTarget[]): void => {
    if (c.selection.matching && !targets) byMatching(action, label, c.selection.matching);
    else void byRows(action, targets ?? bulkTargets(c.items, c.selection, c.opened), label);
  };

  const what = (targets?: BulkTarget[]) => (targets ? bookmarksText(targets.length) : chosenText);

  const moveTo = (to: number, targets?: BulkTarget[]) => {
    const moved = what(targets);
    const where = c.collectionTitle(to);
    act({ kind: 'move', to }, t('libMoved', moved, where), targets);
  };

  /** To Trash; in Trash, deleted for good (asked first). */
  const trash = (targets?: BulkTarget[]) => {
    const text = what(targets);
    if (!c.inTrash) return act({ kind: 'trash' }, t('libTrashed', text), targets);
    // Every match asks in its own dialog (byMatching); rows are asked here.
    if (c.selection.matching && !targets) return act({ kind: 'delete-forever' }, t('libDeletedForever', text));
    c.setDialog({
      title: t('libDeleteForeverTitle', text),
      message: t('libDeleteForeverMessage'),
      confirm: t('libDeleteForever'),
      danger: true,
      onSubmit: () => act({ kind: 'delete-forever' }, t('libDeletedForever', text), targets),
    });
  };

  const undoLast = async () => {
    const entry = c.undo;
    if (!entry) return;
    c.setBusy(true);
    try {
      const r = await runUndo(c.host, entry);
      const undone = t('libUndone', entry.label);
      c.setToast({ text: r.queued ? t('libBulkQueued', undone) : undone });
      c.setUndo(null);
      await c.reload();
    } catch (err) {
      c.setToast({ text: (err as Error).message, error: true });
    } finally {
      c.setBusy(false);
    }
  };

  return {
    moveTo,
    trash,
    undoLast,
    restore: () => act({ kind: 'restore' }, t('libRestored', chosenText)),
    tag: (tag: string) => act({ kind: 'tag', tags: [tag] }, t('libTagged', chosenText, tag)),
    untag: (tag: string) => act({ kind: 'untag', tag }, t('libUntagged', chosenText, tag)),
    favourite: (value: boolean) => act({ kind: 'favourite', value }, value ? t('libFavourited', chosenText) : t('libUnfavourited', chosenText)),
  };
}

/** What a bulk action does, as its button says it. */
function describe(action: BulkAction, collectionTitle: (id: number) => string): string {
  switch (action.kind) {
    case 'move':
      return `${t('libMoveTo')} ${collectionTitle(action.to)}`;
    case 'tag':
      return `${t('libAddTag')}: ${action.tags.join(', ')}`;
    case 'untag':
      return `${t('libRemoveTag')}: ${action.tag}`;
    case 'favourite':
      return action.value ? t('libFavourite') : t('libUnfavourite');
    case 'trash':
      return t('libMoveToTrash');
    case 'restore':
      return t('libRestore');
    case 'delete-forever':
      return t('libDeleteForever');
  }
}
