// The library's list of bookmarks: cover, title, domain, excerpt, tags, highlight count, date, in
// the list or compact view; click / shift-click / ctrl-click select; rows drag onto collections;
// the next page loads when the end of the list scrolls into view.
import { useEffect, useRef } from 'preact/hooks';
import type { Bookmark } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import type { LibraryView } from '../../lib/library/url-state.js';
import { DRAG_BOOKMARKS } from './Sidebar.js';
import { Snippet } from './Snippet.js';

interface Props {
  items: Bookmark[];
  view: LibraryView;
  selected: ReadonlySet<number>;
  focused: number | null;
  open: number | null;
  loading: boolean;
  done: boolean;
  onClickRow: (b: Bookmark, e: MouseEvent) => void;
  onToggle: (b: Bookmark, e: MouseEvent) => void;
  onOpen: (b: Bookmark) => void;
  /** Opens the bookmark's text in the reader. */
  onRead: (b: Bookmark) => void;
  onMore: () => void;
  onDragIds: () => number[];
  /** Rows can be selected and dragged onto collections (not where the list is read-only). */
  editable: boolean;
  collectionTitle: (id: number) => string;
  showCollection: boolean;
}

const DATE = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function BookmarkList(p: Props) {
  const sentinel = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || p.done) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) p.onMore();
    }, { rootMargin: '600px' });
    io.observe(el);
    return () => io.disconnect();
  }, [p.done, p.items.length, p.onMore]);

  useEffect(() => {
    if (p.focused === null) return;
    document.getElementById(`bm-${p.focused}`)?.scrollIntoView({ block: 'nearest' });
  }, [p.focused]);

  // A list, not a listbox: each row holds a checkbox and a link, which an option may not contain;
  // the checkbox says whether the row is selected.
  return (
    <ul class={`bookmarks ${p.view}`} aria-label={t('libBookmarks')}>
      {p.items.map((b) => {
        const selected = p.selected.has(b._id);
        return (
          <li
            key={b._id}
            id={`bm-${b._id}`}
            class={`bookmark${selected ? ' selected' : ''}${p.focused === b._id ? ' focused' : ''}${p.open === b._id ? ' opened' : ''}`}
            draggable={p.editable}
            onDragStart={(e) => {
              if (!p.editable) {
                e.preventDefault();
                return;
              }
              const ids = p.onDragIds();
              e.dataTransfer?.setData(DRAG_BOOKMARKS, JSON.stringify(ids.includes(b._id) ? ids : [b._id]));
              if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
            }}
            onClick={(e) => p.onClickRow(b, e)}
            onDblClick={() => p.onOpen(b)}
          >
            {p.editable && <input
              type="checkbox"
              class="pick"
              checked={selected}
              aria-label={t('libSelect', b.title || b.link)}
              onClick={(e) => {
                e.stopPropagation();
                p.onToggle(b, e);
              }}
            />}
            {p.view === 'list' && (
              <div class="cover" aria-hidden="true">
                {b.cover ? <img src={b.cover} alt="" loading="lazy" referrerpolicy="no-referrer" /> : <span>{(b.domain || '?').slice(0, 1).toUpperCase()}</span>}
              </div>
            )}
            <div class="body">
              <div class="title-line">
                {b.important && <span class="fav" title={t('libFavourite')} aria-label={t('libFavourite')}>★</span>}
                <a class="title" href={b.link} target="_blank" rel="noreferrer noopener" onClick={(e) => e.stopPropagation()}>
                  {b.title || b.link}
                </a>
              </div>
              <div class="meta">
                <span class="domain">{b.domain}</span>
                {p.showCollection && <span class="in-collection">{p.collectionTitle(b.collectionId)}</span>}
                <time dateTime={b.created}>{DATE.format(new Date(b.created))}</time>
                {b.highlights.length > 0 && (
                  <span class="hl-count" title={t('libHighlightCount', b.highlights.length)}>✎ {b.highlights.length}</span>
                )}
                <button
                  type="button"
                  class="link read-button"
                  aria-label={t('readerReadTitle', b.title || b.link)}
                  onClick={(e) => {
                    e.stopPropagation();
                    p.onRead(b);
                  }}
                >
                  {t('readerRead')}
                </button>
              </div>
              {b.snippet && <Snippet snippet={b.snippet} />}
              {p.view === 'list' && b.excerpt && <p class="excerpt">{b.excerpt}</p>}
              {b.tags.length > 0 && (
                <ul class="tags" aria-label={t('libTags')}>
                  {b.tags.map((tag) => <li key={tag}>#{tag}</li>)}
                </ul>
              )}
            </div>
          </li>
        );
      })}
      {!p.done && (
        <li ref={sentinel} class="more-row" aria-live="polite">
          {p.loading ? t('libLoading') : <button type="button" class="link" onClick={p.onMore}>{t('libLoadMore')}</button>}
        </li>
      )}
    </ul>
  );
}
