// The sidebar's collection commands, each asked in a dialog: new (at the top or inside), rename,
// delete, share by e-mail, merge into another.
import { ALL_COLLECTIONS, UNSORTED } from '../../lib/api/constants.js';
import { t } from '../../lib/i18n.js';
import type { LibraryCollection, LibraryCollectionOp } from '../../lib/library/types.js';
import { pathOf } from './DetailPane.js';
import type { DialogSpec } from './Dialog.js';

interface Context {
  collections: LibraryCollection[];
  collectionTitle: (id: number) => string;
  /** The collection shown now (a deleted or merged one is left for All, or for where it went). */
  shownId: () => number;
  show: (collectionId: number) => void;
  /** Carries the change out and says `done` when it went through. */
  run: (op: LibraryCollectionOp, done: string) => Promise<void>;
}

export function collectionDialogs({ collections, collectionTitle, shownId, show, run }: Context) {
  return {
    create: (parentId: number | null): DialogSpec => ({
      title: parentId ? t('libNewInsideTitle', collectionTitle(parentId)) : t('libNewCollection'),
      text: { label: t('libName'), value: '' },
      confirm: t('libCreate'),
      onSubmit: ({ text }) => run({ op: 'create', title: text, parentId }, t('libCreated', text)),
    }),
    rename: (c: LibraryCollection): DialogSpec => ({
      title: t('libRenameTitle', c.title),
      text: { label: t('libName'), value: c.title },
      confirm: t('libRename'),
      onSubmit: ({ text }) => run({ op: 'rename', id: c.id, title: text }, t('libRenamed', text)),
    }),
    remove: (c: LibraryCollection): DialogSpec => ({
      title: t('libDeleteTitle', c.title),
      message: t('libDeleteMessage', c.count),
      confirm: t('libDelete'),
      danger: true,
      onSubmit: async () => {
        await run({ op: 'delete', id: c.id }, t('libDeleted', c.title));
        if (shownId() === c.id) show(ALL_COLLECTIONS);
      },
    }),
    share: (c: LibraryCollection): DialogSpec => ({
      title: t('libShareTitle', c.title),
      message: t('libShareMessage'),
      text: { label: t('libEmails'), value: '', placeholder: 'ann@example.com, bo@example.com' },
      role: true,
      confirm: t('libInvite'),
      onSubmit: ({ text, role }) => run({ op: 'share', id: c.id, role, emails: text.split(/[\s,;]+/).filter(Boolean) }, t('libInvited', c.title)),
    }),
    merge: (c: LibraryCollection): DialogSpec => ({
      title: t('libMergeTitle', c.title),
      message: t('libMergeMessage', c.title),
      choice: {
        label: t('libMergeInto'),
        options: [
          { value: String(UNSORTED), label: t('collectionUnsorted') },
          ...collections.filter((x) => x.id !== c.id && x.level === 4).map((x) => ({ value: String(x.id), label: pathOf(x, collections) })),
        ],
      },
      confirm: t('libMergeConfirm'),
      onSubmit: async ({ choice }) => {
        await run({ op: 'merge', ids: [c.id], to: Number(choice) }, t('libMerged', c.title));
        if (shownId() === c.id) show(Number(choice));
      },
    }),
  };
}

/** A tree move's message: "X moved to the top" or "X moved into Y". */
export function nestLabel(what: string, into: string | null): string {
  return into === null ? t('libMovedToTop', what) : t('libNested', what, into);
}
