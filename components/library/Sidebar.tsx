// The library's sidebar: All / Unsorted / Trash, the collection tree (expand, counts, shared
// marked), drop targets for bookmarks and collections, and the collection actions.
import { useRef, useState } from 'preact/hooks';
import { ALL_COLLECTIONS, TRASH, UNSORTED } from '../../lib/api/constants.js';
import { t } from '../../lib/i18n.js';
import type { LibraryCollection, LibraryCollectionOp } from '../../lib/library/types.js';

type CollectionSort = Extract<LibraryCollectionOp, { op: 'sort' }>['sort'];

/** Ref callback of an opened menu: the focus goes to its first item. */
const focusFirstItem = (el: HTMLDivElement | null) => el?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();

export const DRAG_BOOKMARKS = 'application/x-tidemark-bookmarks';
const DRAG_COLLECTION = 'application/x-tidemark-collection';

interface Props extends SidebarActions {
  collections: LibraryCollection[];
  current: number;
  tab: 'bookmarks' | 'highlights';
}

export interface SidebarActions {
  onSelect: (id: number) => void;
  onHighlights: () => void;
  /** Bookmarks (their ids, carried by the drag) dropped on a collection. */
  onDropBookmarks: (to: number, ids: number[]) => void;
  onNestCollection: (id: number, parentId: number | null) => void;
  onCreate: (parentId: number | null) => void;
  onRename: (c: LibraryCollection) => void;
  onDelete: (c: LibraryCollection) => void;
  onShare: (c: LibraryCollection) => void;
  onMerge: (c: LibraryCollection) => void;
  onSort: (sort: CollectionSort) => void;
}

export function Sidebar(p: Props) {
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [over, setOver] = useState<number | null>(null);
  const [menu, setMenu] = useState<number | null>(null);
  /** The collection being dragged (its id cannot be read from the drag until the drop). */
  const draggingCollection = useRef<number | null>(null);
  const children = new Map<number | null, LibraryCollection[]>();
  const known = new Set(p.collections.map((c) => c.id));
  for (const c of p.collections) {
    const parent = c.parentId !== null && known.has(c.parentId) ? c.parentId : null;
    const list = children.get(parent);
    if (list) list.push(c);
    else children.set(parent, [c]);
  }

  const parentOf = new Map(p.collections.map((c) => [c.id, c.parentId]));
  /** Whether `id` is `ancestor` or below it (a collection cannot go inside itself). */
  const within = (id: number, ancestor: number) => {
    for (let cur: number | null | undefined = id, guard = 0; cur != null && guard < 64; cur = parentOf.get(cur), guard++) {
      if (cur === ancestor) return true;
    }
    return false;
  };
  const dropProps = (id: number, acceptsCollections: boolean) => ({
    onDragOver: (e: DragEvent) => {
      // The innermost target decides: a row that refuses a drop must not pass it on to the tree around it.
      e.stopPropagation();
      const types = e.dataTransfer?.types ?? [];
      const dragged = draggingCollection.current;
      const collectionFits = acceptsCollections && types.includes(DRAG_COLLECTION) && (dragged === null || (id > 0 ? !within(id, dragged) : parentOf.get(dragged) != null));
      if ((id !== -2 && types.includes(DRAG_BOOKMARKS)) || collectionFits) {
        e.preventDefault();
        setOver(id);
      }
    },
    onDragLeave: () => setOver((o) => (o === id ? null : o)),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      e.stopPropagation();
      setOver(null);
      const dragged = e.dataTransfer?.getData(DRAG_COLLECTION);
      if (dragged) {
        const draggedId = Number(dragged);
        if (draggedId !== id) p.onNestCollection(draggedId, id > 0 ? id : null);
        return;
      }
      const ids = id !== -2 ? draggedIds(e.dataTransfer?.getData(DRAG_BOOKMARKS)) : [];
      if (ids.length) p.onDropBookmarks(id, ids);
    },
  });

  const system = (id: number, label: string, icon: string) => (
    <li>
      <button
        type="button"
        class={`nav-item${p.current === id && (p.tab === 'bookmarks' || id !== 0) ? ' current' : ''}${over === id ? ' drop' : ''}`}
        aria-current={p.current === id && (p.tab === 'bookmarks' || id !== 0) ? 'page' : undefined}
        onClick={() => p.onSelect(id)}
        {...(id !== ALL_COLLECTIONS ? dropProps(id, id === ALL_COLLECTIONS) : {})}
      >
        <span aria-hidden="true" class="nav-icon">{icon}</span>
        <span class="nav-title">{label}</span>
      </button>
    </li>
  );

  // The collection menu by keyboard, as a menu button works: it opens on its first item, the arrows
  // move through the items, Escape closes it and gives the focus back to its button.
  const menuKey = (e: KeyboardEvent, id: number) => {
    if (menu !== id) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setMenu(null);
      document.getElementById(`more-${id}`)?.focus();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const items = [...document.querySelectorAll<HTMLElement>('.sidebar [role="menuitem"]')];
    if (!items.length) return;
    e.preventDefault();
    e.stopPropagation(); // not the list's row movement too
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? (at + 1) % items.length : (at <= 0 ? items.length : at) - 1;
    items[next]!.focus();
  };

  const node = (c: LibraryCollection, depth: number) => {
    const kids = children.get(c.id) ?? [];
    const open = !collapsed.has(c.id);
    const canEdit = c.level >= 3;
    const isOwner = c.level === 4;
    // Nested lists of buttons rather than an ARIA tree: the rows hold several buttons each and Tab
    // reaches them, where a tree promises arrow-key focus on the items and a name from all their text.
    return (
      <li key={c.id} aria-label={c.title}>
        <div class={`nav-row${p.current === c.id ? ' current' : ''}${over === c.id ? ' drop' : ''}`} style={{ paddingLeft: `${depth * 14}px` }}>
          {kids.length ? (
            <button
              type="button"
              class="twisty"
              aria-expanded={open}
              aria-label={open ? t('libCollapse', c.title) : t('libExpand', c.title)}
              onClick={() => setCollapsed((s) => {
                const n = new Set(s);
                if (open) n.add(c.id);
                else n.delete(c.id);
                return n;
              })}
            >
              {open ? '▾' : '▸'}
            </button>
          ) : (
            <span class="twisty" aria-hidden="true" />
          )}
          <button
            type="button"
            class="nav-item"
            draggable={isOwner}
            aria-current={p.current === c.id ? 'page' : undefined}
            onClick={() => p.onSelect(c.id)}
            onDragStart={(e) => {
              if (!isOwner) {
                e.preventDefault();
                return;
              }
              draggingCollection.current = c.id;
              e.dataTransfer?.setData(DRAG_COLLECTION, String(c.id));
            }}
            onDragEnd={() => {
              draggingCollection.current = null;
              setOver(null);
            }}
            {...(canEdit ? dropProps(c.id, isOwner) : {})}
          >
            <span class="nav-title">{c.title}</span>
            {c.shared && (
              <span class="shared-mark" title={c.foreign ? t('libSharedWithYou', roleName(c.level)) : t('libSharedByYou')}>
                {c.foreign ? roleName(c.level) : t('libShared')}
              </span>
            )}
            <span class="count">{c.count}</span>
          </button>
          {canEdit && (
            <button type="button" class="more" id={`more-${c.id}`} aria-label={t('libCollectionActions', c.title)} aria-haspopup="menu" aria-expanded={menu === c.id} onClick={() => setMenu(menu === c.id ? null : c.id)} onKeyDown={(e) => menuKey(e, c.id)}>
              ⋯
            </button>
          )}
        </div>
        {menu === c.id && (
          <div class="menu" role="menu" aria-label={t('libCollectionActions', c.title)} ref={focusFirstItem} onKeyDown={(e) => menuKey(e, c.id)}>
            <button type="button" role="menuitem" onClick={() => { setMenu(null); p.onCreate(c.id); }}>{t('libNewInside')}</button>
            {isOwner && <button type="button" role="menuitem" onClick={() => { setMenu(null); p.onRename(c); }}>{t('libRename')}</button>}
            <button type="button" role="menuitem" onClick={() => { setMenu(null); p.onShare(c); }}>{t('libShare')}</button>
            {isOwner && <button type="button" role="menuitem" onClick={() => { setMenu(null); p.onMerge(c); }}>{t('libMerge')}</button>}
            {isOwner && c.parentId !== null && <button type="button" role="menuitem" onClick={() => { setMenu(null); p.onNestCollection(c.id, null); }}>{t('libMoveToTop')}</button>}
            {isOwner && <button type="button" role="menuitem" class="danger" onClick={() => { setMenu(null); p.onDelete(c); }}>{t('libDelete')}</button>}
          </div>
        )}
        {kids.length > 0 && open && <ul>{kids.map((k) => node(k, depth + 1))}</ul>}
      </li>
    );
  };

  return (
    <nav class="sidebar" aria-label={t('libCollections')}>
      <ul class="nav-list">
        {system(ALL_COLLECTIONS, t('libAll'), '▤')}
        {system(UNSORTED, t('collectionUnsorted'), '◌')}
        <li>
          <button type="button" class={`nav-item${p.tab === 'highlights' && p.current === 0 ? ' current' : ''}`} aria-current={p.tab === 'highlights' && p.current === 0 ? 'page' : undefined} onClick={p.onHighlights}>
            <span aria-hidden="true" class="nav-icon">✎</span>
            <span class="nav-title">{t('libAllHighlights')}</span>
          </button>
        </li>
        {system(TRASH, t('libTrash'), '⌫')}
      </ul>
      <div class="nav-heading">
        <h2>{t('libCollections')}</h2>
        <select aria-label={t('libSortCollectionsLabel')} onChange={(e) => { const v = (e.target as HTMLSelectElement).value; if (v) p.onSort(v as CollectionSort); (e.target as HTMLSelectElement).value = ''; }}>
          <option value="">{t('libSortCollections')}</option>
          <option value="title">{t('libSortAZ')}</option>
          <option value="-title">{t('libSortZA')}</option>
          <option value="-count">{t('libSortCount')}</option>
        </select>
        <button type="button" class="icon" aria-label={t('libNewCollection')} title={t('libNewCollection')} onClick={() => p.onCreate(null)}>+</button>
      </div>
      <ul class="nav-list tree" aria-label={t('libCollections')} {...dropProps(-2, true)}>
        {(children.get(null) ?? []).map((c) => node(c, 0))}
      </ul>
      {p.collections.length === 0 && <p class="hint pad">{t('libNoCollections')}</p>}
    </nav>
  );
}

/** The bookmark ids a drag carries (a JSON array of numbers); anything else carries none. */
function draggedIds(data: string | undefined): number[] {
  if (!data) return [];
  try {
    const parsed: unknown = JSON.parse(data);
    return Array.isArray(parsed) ? parsed.filter((x): x is number => Number.isInteger(x)) : [];
  } catch {
    // Dropped text from elsewhere under our type name: nothing of ours to move.
    return [];
  }
}

export function roleName(level: number): string {
  return level === 4 ? t('libRoleOwner') : level === 3 ? t('libRoleMember') : level === 2 ? t('libRoleViewer') : t('libRolePublic');
}
