// What the list says instead of rows: the error with Retry, or that nothing matches (with ways out).
import { ALL_COLLECTIONS } from '../../lib/api/constants.js';
import type { Bookmark } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import type { PagerSnapshot } from '../../lib/library/pager.js';
import type { LibraryState } from '../../lib/library/url-state.js';
import { useHost } from './host-context.js';

interface Props {
  list: PagerSnapshot<Bookmark>;
  state: LibraryState;
  inTrash: boolean;
  go: (patch: Partial<LibraryState>) => void;
  onRetry: () => void;
}

export function ListStatus({ list, state, inTrash, go, onRetry }: Props) {
  const host = useHost();
  if (list.error) {
    return (
      <div class="error-box" role="alert">
        <p>{list.error}</p>
        <button type="button" onClick={onRetry}>{t('libRetry')}</button>
      </div>
    );
  }
  if (list.loading || list.pages === 0 || list.items.length > 0) return null;
  const filtersActive = !!state.search || state.collectionId !== ALL_COLLECTIONS;
  // Nothing saved anywhere yet: say how to save a first page.
  const firstRun = !filtersActive && !inTrash;
  return (
    <div class="empty" role="status">
      <p class="empty-title">{state.search ? t('libNoMatches', state.search) : inTrash ? t('libTrashEmpty') : firstRun ? t('libEmptyLibrary') : t('libEmptyCollection')}</p>
      {firstRun && <p class="empty-hint">{host.firstSaveHint}</p>}
      {filtersActive && (
        <div class="empty-actions">
          {state.search && <button type="button" onClick={() => go({ search: '' })}>{t('libClearSearch')}</button>}
          {state.collectionId !== ALL_COLLECTIONS && state.search && (
            <button type="button" onClick={() => go({ collectionId: ALL_COLLECTIONS })}>{t('libSearchEverywhere')}</button>
          )}
        </div>
      )}
    </div>
  );
}
