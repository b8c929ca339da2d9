// The bar above the list for changing many bookmarks at once: select the loaded rows or every
// match, then move, tag, untag, favourite, trash (or, in Trash, restore and delete for good).
import { useState } from 'preact/hooks';
import { UNSORTED } from '../../lib/api/constants.js';
import { t } from '../../lib/i18n.js';
import type { Selection } from '../../lib/library/library-state.js';
import type { LibraryCollection } from '../../lib/library/types.js';
import { pathOf } from './DetailPane.js';

interface Props {
  selection: Selection;
  /** Rows loaded, and every match the server counts. */
  loaded: number;
  count: number;
  busy: boolean;
  inTrash: boolean;
  collections: LibraryCollection[];
  onSelectLoaded: (on: boolean) => void;
  onSelectMatching: () => void;
  onMove: (to: number) => void;
  onTag: (tag: string) => void;
  onUntag: (tag: string) => void;
  onFavourite: (value: boolean) => void;
  onTrash: () => void;
  onRestore: () => void;
}

export function BulkBar(p: Props) {
  const { ids, matching } = p.selection;
  const some = ids.size > 0;
  return (
    <div class={`bulkbar${some ? ' active' : ''}`} role="toolbar" aria-label={t('libBulkActions')}>
      <label class="inline">
        <input
          type="checkbox"
          aria-label={t('libSelectAllLoaded')}
          checked={some && ids.size >= p.loaded}
          onChange={(e) => p.onSelectLoaded((e.target as HTMLInputElement).checked)}
        />
        {matching ? t('libAllMatchingSelected', matching.count) : some ? t('libNSelected', ids.size) : t('libSelectHint')}
      </label>
      {p.count > p.loaded && some && !matching && (
        <button type="button" class="link" disabled={p.busy} onClick={p.onSelectMatching}>
          {t('libSelectAllMatching', p.count)}
        </button>
      )}
      {some && p.inTrash && (
        <>
          <button type="button" disabled={p.busy} onClick={p.onRestore}>{t('libRestore')}</button>
          <button type="button" class="danger" disabled={p.busy} onClick={p.onTrash}>{t('libDeleteForever')}</button>
        </>
      )}
      {some && !p.inTrash && (
        <>
          <select aria-label={t('libMoveTo')} value="" disabled={p.busy} onChange={(e) => { const v = (e.target as HTMLSelectElement).value; if (v) p.onMove(Number(v)); }}>
            <option value="">{t('libMoveTo')}…</option>
            <option value={String(UNSORTED)}>{t('collectionUnsorted')}</option>
            {p.collections.filter((c) => c.level >= 3).map((c) => <option key={c.id} value={String(c.id)}>{pathOf(c, p.collections)}</option>)}
          </select>
          <TagAction label={t('libAddTag')} disabled={p.busy} onSubmit={p.onTag} />
          <TagAction label={t('libRemoveTag')} disabled={p.busy} onSubmit={p.onUntag} />
          <button type="button" disabled={p.busy} onClick={() => p.onFavourite(true)}>★ {t('libFavourite')}</button>
          <button type="button" disabled={p.busy} onClick={() => p.onFavourite(false)}>{t('libUnfavourite')}</button>
          <button type="button" class="danger" disabled={p.busy} onClick={p.onTrash}>{t('libMoveToTrash')}</button>
        </>
      )}
    </div>
  );
}

function TagAction({ label, disabled, onSubmit }: { label: string; disabled: boolean; onSubmit: (tag: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      class="tag-action"
      onSubmit={(e) => {
        e.preventDefault();
        const tag = value.trim().replace(/^#/, '');
        if (!tag) return;
        setValue('');
        onSubmit(tag);
      }}
    >
      <input type="text" aria-label={label} placeholder={label} value={value} disabled={disabled} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
    </form>
  );
}
