// The head of the bookmark list: where this is (and the person's role there), how many, and the
// view's controls: highlights here, sort, list or compact, export, and Empty Trash.
import { ALL_COLLECTIONS, BOOKMARK_SORTS } from '../../lib/api/constants.js';
import { t } from '../../lib/i18n.js';
import type { LibraryCollection } from '../../lib/library/types.js';
import { effectiveSort, type LibraryState } from '../../lib/library/url-state.js';
import { DisclosureMenu } from './DisclosureMenu.js';
import { roleName } from './Sidebar.js';

const SORT_LABELS: Record<string, string> = {
  '-created': 'libSortNewest',
  created: 'libSortOldest',
  score: 'libSortRelevance',
  '-sort': 'libSortManual',
  sort: 'libSortManualReverse',
  title: 'libSortTitleAZ',
  '-title': 'libSortTitleZA',
  domain: 'libSortDomainAZ',
  '-domain': 'libSortDomainZA',
  '-lastUpdate': 'libSortUpdated',
};

export type ExportFormat = 'html' | 'csv' | 'md';
const EXPORT_FORMATS: [ExportFormat, string][] = [
  ['html', 'libExportHtml'],
  ['csv', 'libExportCsv'],
  ['md', 'libExportMd'],
];

interface Props {
  state: LibraryState;
  title: string;
  current: LibraryCollection | undefined;
  inTrash: boolean;
  /** The first page is on its way and nothing is shown yet. */
  loading: boolean;
  count: number;
  busy: boolean;
  go: (patch: Partial<LibraryState>) => void;
  onExport: (format: ExportFormat) => void;
  onEmptyTrash: () => void;
}

export function ListHead({ state, title, current, inTrash, loading, count, busy, go, onExport, onEmptyTrash }: Props) {
  const sorts = BOOKMARK_SORTS.filter((s) => s !== 'score' || state.search);
  return (
    <div class="main-head">
      <h2 class="view-title">
        {title}
        {current && current.level < 4 && <span class="role-badge">{roleName(current.level)}</span>}
      </h2>
      <span class="count-line" role="status">
        {loading ? t('libLoading') : count === 1 ? t('libOneBookmark') : t('libCount', count)}
      </span>
      <div class="view-controls">
        {state.collectionId !== ALL_COLLECTIONS && !inTrash && (
          <button type="button" onClick={() => go({ tab: 'highlights' })}>{t('libShowHighlightsHere')}</button>
        )}
        <label class="inline">
          <span class="sr-only">{t('libSortBy')}</span>
          <select aria-label={t('libSortBy')} value={effectiveSort(state)} onChange={(e) => go({ sort: (e.target as HTMLSelectElement).value })}>
            {sorts.map((s) => <option key={s} value={s}>{t(SORT_LABELS[s] ?? 'libSortNewest')}</option>)}
          </select>
        </label>
        <div class="segmented" role="group" aria-label={t('libViewAs')}>
          <button type="button" aria-pressed={state.view === 'list'} onClick={() => go({ view: 'list' })}>{t('libViewList')}</button>
          <button type="button" aria-pressed={state.view === 'compact'} onClick={() => go({ view: 'compact' })}>{t('libViewCompact')}</button>
        </div>
        {/* A menu, not a <select>: a closed select's arrow keys would start an export. */}
        <DisclosureMenu class="disclosure-menu export-menu" itemsClass="menu-items" label={t('libExport')} summary={`${t('libExport')}…`}>
          {(close) =>
            EXPORT_FORMATS.map(([format, label]) => (
              <button
                key={format}
                type="button"
                disabled={busy}
                onClick={() => {
                  close();
                  onExport(format);
                }}
              >
                {t(label)}
              </button>
            ))
          }
        </DisclosureMenu>
        {inTrash && count > 0 && (
          <button type="button" class="danger" onClick={onEmptyTrash}>
            {t('libEmptyTrash')}
          </button>
        )}
      </div>
    </div>
  );
}
