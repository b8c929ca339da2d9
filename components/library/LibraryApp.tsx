// The library page: sidebar, search, the list (paged), the detail pane, bulk changes with Undo,
// all highlights, export. What is shown lives in the address (lib/library/url-state.ts).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ALL_COLLECTIONS, BOOKMARK_SORTS, TRASH, UNSORTED, type HighlightColor } from '../../lib/api/constants.js';
import type { Bookmark, Tag } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import { onEvent, receiveExport, send } from '../../lib/messaging/client.js';
import type { BulkAction, BulkResult, BulkTarget, LibraryCollection, LibraryCollectionOp } from '../../lib/library/types.js';
import { Pager, type PagerSnapshot } from '../../lib/library/pager.js';
import { askFirstPage, askList, listQuery, takeFirstPage } from '../../lib/library/list-requests.js';
import { effectiveSort, formatState, isNewPlace, parseState, type LibraryState } from '../../lib/library/url-state.js';
import { BookmarkList } from './BookmarkList.js';
import { DetailPane, pathOf } from './DetailPane.js';
import { Dialog, type DialogSpec } from './Dialog.js';
import { HighlightsView } from './HighlightsView.js';
import { SearchBox } from './SearchBox.js';
import { roleName, Sidebar, type SidebarActions } from './Sidebar.js';
import { memo } from 'preact/compat';

const MemoSidebar = memo(Sidebar);

/** The pause in typing after which the list follows (a newer query cancels the older request in the background). */
const SEARCH_DEBOUNCE_MS = 60;
/** "Select all matching" loads at most this many (then says so). */
const SELECT_ALL_MAX = 5000;

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

/** "All N matching" selected: the change goes to the server as one call by search, not by ids. */
interface Matching {
  collectionId: number;
  search: string;
  count: number;
}

interface UndoEntry {
  action: BulkAction;
  before: BulkTarget[];
  /** Made on every match of a search: undone by the same search. */
  matching?: Matching;
  label: string;
  /** The change waits in the offline queue: its reversal is queued after it. */
  queued: boolean;
}

const targetOf = (b: Bookmark): BulkTarget => ({ id: b._id, collectionId: b.collectionId, tags: b.tags, important: b.important });

export function LibraryApp() {
  const [state, setState] = useState<LibraryState>(() => parseState(location.search));
  const [collections, setCollections] = useState<LibraryCollection[]>([]);
  const [collectionsOffline, setCollectionsOffline] = useState(false);
  const [tags, setTags] = useState<Tag[]>([]);
  const [list, setList] = useState<PagerSnapshot<Bookmark>>(Pager.empty());
  const [selected, setSelectedIds] = useState<Set<number>>(new Set());
  const [matching, setMatching] = useState<Matching | null>(null);
  /** A selection of rows: no longer "all matching". */
  const setSelected = (ids: Set<number>) => {
    setMatching(null);
    setSelectedIds(ids);
  };
  const [anchor, setAnchor] = useState<number | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [undo, setUndo] = useState<UndoEntry | null>(null);
  const [toast, setToast] = useState<{ text: string; error?: boolean; undo?: boolean } | null>(null);
  const [dialog, setDialog] = useState<DialogSpec | null>(null);
  const [signedOut, setSignedOut] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);

  const pager = useMemo(() => new Pager<Bookmark>(async () => ({ items: [], count: 0 }), setList), []);

  // --- the address is the state ---
  const go = useCallback((patch: Partial<LibraryState>) => {
    setState((prev) => {
      const next = { ...prev, ...patch };
      const url = `${location.pathname}${formatState(next)}`;
      if (isNewPlace(prev, next)) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
      return next;
    });
  }, []);
  useEffect(() => {
    const onPop = () => {
      const next = parseState(location.search);
      setState(next);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);


  const loadCollections = useCallback(async () => {
    try {
      const r = await send('libraryCollections', null);
      setCollections(r.items);
      setCollectionsOffline(r.offline);
      setSignedOut(null);
    } catch (err) {
      const e = err as { kind?: string; message: string };
      if (e.kind === 'unauthorized' || /signed out|sign in/i.test(e.message)) setSignedOut(e.message);
      else setToast({ text: e.message, error: true });
    }
  }, []);

  // The sidebar and the tag list load once the first page of the list is there (or failed): the list
  // is what the page is opened for, and the three requests would otherwise share the server.
  const sidebarLoaded = useRef(false);
  useEffect(() => {
    if (sidebarLoaded.current || (list.pages === 0 && !list.error && state.tab === 'bookmarks')) return;
    sidebarLoaded.current = true;
    void loadCollections();
    send('listTags', null).then(setTags, () => setTags([]));
  }, [list.pages, list.error, state.tab]);

  useEffect(() => {
    const offAuth = onEvent('authChanged', () => {
      void loadCollections();
      void pager.reset();
    });
    return offAuth;
  }, []);

  const latest = useRef(state);
  latest.current = state;
  const searchNow = (text: string) => {
    const next = { ...latest.current, search: text };
    // A typed search asks for its first page at the end of the typing pause, before the page
    // re-renders for it; the list below takes that answer instead of asking again.
    if (next.tab === 'bookmarks' && text !== latest.current.search) askFirstPage(listQuery(next));
    go({ search: text });
  };
  // A new place or query: the list starts over. A layout effect: the request leaves in this task,
  // not after the next frame is painted.
  useLayoutEffect(() => {
    if (state.tab !== 'bookmarks') return;
    const q = listQuery(state);
    let sent = takeFirstPage(q);
    // Taken once: a retry or a reload after a bulk change asks the background again.
    const take = () => {
      const answer = sent;
      sent = null;
      return answer;
    };
    void pager.reset((page) => (page === 0 && take()) || askList(q, page));
    setSelected(new Set());
    setAnchor(null);
    setFocused(null);
  }, [state.collectionId, state.search, state.sort, state.tab]);

  const current = collections.find((c) => c.id === state.collectionId);
  const readOnly = !!current && current.level < 3;
  const inTrash = state.collectionId === TRASH;
  const place =
    state.collectionId === ALL_COLLECTIONS
      ? t('libAll')
      : state.collectionId === UNSORTED
        ? t('collectionUnsorted')
        : inTrash
          ? t('libTrash')
          : current
            ? pathOf(current, collections)
            : t('libCollection');
  const title =
    state.tab !== 'highlights' ? place : state.collectionId === ALL_COLLECTIONS ? t('libAllHighlights') : t('libHighlightsIn', place);
  useEffect(() => {
    document.title = `${title} · Tidemark`;
  }, [title]);

  const items = list.items;
  const opened = items.find((b) => b._id === openId) ?? null;
  const selectedItems = items.filter((b) => selected.has(b._id));
  const collectionTitle = (id: number) =>
    id === UNSORTED ? t('collectionUnsorted') : id === TRASH ? t('libTrash') : collections.find((c) => c.id === id)?.title ?? '';

  // --- selection ---
  const clickRow = (b: Bookmark, e: MouseEvent) => {
    setFocused(b._id);
    if (e.shiftKey && anchor !== null && !readOnly) {
      const a = items.findIndex((x) => x._id === anchor);
      const z = items.findIndex((x) => x._id === b._id);
      const [from, to] = a < z ? [a, z] : [z, a];
      setSelected(new Set([...selected, ...items.slice(from, to + 1).map((x) => x._id)]));
      return;
    }
    if ((e.ctrlKey || e.metaKey) && !readOnly) {
      toggle(b);
      return;
    }
    setOpenId(b._id);
    setAnchor(b._id);
  };
  const toggle = (b: Bookmark, e?: MouseEvent) => {
    if (e?.shiftKey && anchor !== null) {
      clickRow(b, e);
      return;
    }
    const next = new Set(selected);
    if (next.has(b._id)) next.delete(b._id);
    else next.add(b._id);
    setSelected(next);
    setAnchor(b._id);
  };
  const selectAllMatching = async () => {
    if (state.collectionId !== ALL_COLLECTIONS) {
      // Inside one collection the server changes every match in one call: nothing more is loaded.
      setSelectedIds(new Set(items.map((b) => b._id)));
      setMatching({ collectionId: state.collectionId, search: state.search, count: list.count });
      return;
    }
    setBusy(true);
    try {
      while (!pager.snapshot.done && pager.snapshot.items.length < SELECT_ALL_MAX) await pager.more();
      const all = pager.snapshot.items.slice(0, SELECT_ALL_MAX);
      setSelected(new Set(all.map((b) => b._id)));
      if (pager.snapshot.count > SELECT_ALL_MAX) setToast({ text: t('libSelectAllCapped', SELECT_ALL_MAX) });
    } finally {
      setBusy(false);
    }
  };

  // --- bulk changes ---
  /** Sends a bulk change; then its Undo is offered (when it has one) and the list shows what is now. */
  const applyChange = async (sendIt: () => Promise<BulkResult>, undoOf: (r: BulkResult) => UndoEntry, text: (r: BulkResult) => string) => {
    setBusy(true);
    try {
      const r = await sendIt();
      setUndo(r.undoable ? undoOf(r) : null);
      // Undo belongs to this message only: another message later must not offer to undo this change.
      setToast({ text: text(r), undo: r.undoable });
      setSelected(new Set());
      await Promise.all([pager.reset(), loadCollections()]);
    } catch (err) {
      setToast({ text: (err as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  };
  const runBulk = async (action: BulkAction, targets: BulkTarget[], label: string) => {
    if (!targets.length) return;
    await applyChange(
      () => send('libraryBulk', { action, targets }),
      (r) => ({ action, before: targets, label, queued: r.queued }),
      (r) => (r.queued ? t('libBulkQueued', label) : label),
    );
  };
  /** A change to every match of the search in this collection: asked for first (it reaches bookmarks not shown). */
  const runMatching = (action: BulkAction, label: string, m: Matching) =>
    setDialog({
      title: t('libMatchingTitle', n(m.count)),
      message: t('libMatchingMessage'),
      confirm: describe(action),
      danger: action.kind === 'delete-forever',
      onSubmit: () =>
        applyChange(
          () => send('libraryBulkMatching', { action, collectionId: m.collectionId, search: m.search }),
          () => ({ action, before: [], matching: m, label, queued: false }),
          (r) => (r.undoable ? label : `${label} ${t('libMatchingNoUndo')}`),
        ),
    });
  /** What a bulk action does, as its button says it. */
  const describe = (action: BulkAction): string => {
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
  };
  /** A bulk change of what is selected: the rows, or every match. */
  /** A bulk change of the given bookmarks (dragged, or the Delete key's), else of what is selected: the rows, or every match. */
  const act = (action: BulkAction, label: string, targets?: BulkTarget[]): Promise<void> | void =>
    matching && !targets ? runMatching(action, label, matching) : runBulk(action, targets ?? bulkTargets(), label);
  const runUndo = async () => {
    if (!undo) return;
    setBusy(true);
    try {
      const r = undo.matching
        ? await send('libraryUndoMatching', { action: undo.action, collectionId: undo.matching.collectionId, search: undo.matching.search })
        : await send('libraryUndo', { action: undo.action, before: undo.before, queued: undo.queued });
      const undone = t('libUndone', undo.label);
      setToast({ text: r.queued ? t('libBulkQueued', undone) : undone });
      setUndo(null);
      await Promise.all([pager.reset(), loadCollections()]);
    } catch (err) {
      setToast({ text: (err as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  };
  const bulkTargets = () => (selectedItems.length ? selectedItems : opened ? [opened] : []).map(targetOf);
  const n = (count: number) => (count === 1 ? t('libOneBookmark') : t('libNBookmarks', count));
  /** How many the bulk bar's actions change. */
  const chosen = matching ? matching.count : selected.size;
  const chosenText = n(chosen);
  const moveTo = (to: number, targets?: BulkTarget[]) => {
    const what = n(targets ? targets.length : chosen);
    const where = collectionTitle(to);
    void act({ kind: 'move', to }, t('libMoved', what, where), targets);
  };
  const trash = (targets?: BulkTarget[]) => {
    const what = n(targets ? targets.length : chosen);
    if (!inTrash) return void act({ kind: 'trash' }, t('libTrashed', what), targets);
    // Every match asks in its own dialog (runMatching); rows are asked here.
    if (matching && !targets) return void act({ kind: 'delete-forever' }, t('libDeletedForever', what));
    setDialog({
      title: t('libDeleteForeverTitle', what),
      message: t('libDeleteForeverMessage'),
      confirm: t('libDeleteForever'),
      danger: true,
      onSubmit: () => act({ kind: 'delete-forever' }, t('libDeletedForever', what), targets),
    });
  };

  // --- collections ---
  const collectionOp = async (op: LibraryCollectionOp, done: string) => {
    await send('libraryCollectionOp', op);
    setToast({ text: done });
    await loadCollections();
  };
  const dialogs = {
    create: (parentId: number | null) =>
      setDialog({
        title: parentId ? t('libNewInsideTitle', collectionTitle(parentId)) : t('libNewCollection'),
        text: { label: t('libName'), value: '' },
        confirm: t('libCreate'),
        onSubmit: ({ text }) => collectionOp({ op: 'create', title: text, parentId }, t('libCreated', text)),
      }),
    rename: (c: LibraryCollection) =>
      setDialog({
        title: t('libRenameTitle', c.title),
        text: { label: t('libName'), value: c.title },
        confirm: t('libRename'),
        onSubmit: ({ text }) => collectionOp({ op: 'rename', id: c.id, title: text }, t('libRenamed', text)),
      }),
    remove: (c: LibraryCollection) =>
      setDialog({
        title: t('libDeleteTitle', c.title),
        message: t('libDeleteMessage', c.count),
        confirm: t('libDelete'),
        danger: true,
        onSubmit: async () => {
          await collectionOp({ op: 'delete', id: c.id }, t('libDeleted', c.title));
          if (state.collectionId === c.id) go({ collectionId: ALL_COLLECTIONS });
        },
      }),
    share: (c: LibraryCollection) =>
      setDialog({
        title: t('libShareTitle', c.title),
        message: t('libShareMessage'),
        text: { label: t('libEmails'), value: '', placeholder: 'ann@example.com, bo@example.com' },
        role: true,
        confirm: t('libInvite'),
        onSubmit: ({ text, role }) =>
          collectionOp(
            { op: 'share', id: c.id, role, emails: text.split(/[\s,;]+/).filter(Boolean) },
            t('libInvited', c.title),
          ),
      }),
    merge: (c: LibraryCollection) =>
      setDialog({
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
          await collectionOp({ op: 'merge', ids: [c.id], to: Number(choice) }, t('libMerged', c.title));
          if (state.collectionId === c.id) go({ collectionId: Number(choice) });
        },
      }),
  };

  // --- export ---
  const exportAs = async (format: 'html' | 'csv' | 'md') => {
    setBusy(true);
    try {
      const file = await receiveExport({ collectionId: state.collectionId, format, search: state.search });
      const url = URL.createObjectURL(file.blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = file.name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setToast({ text: t('libExported', file.name) });
    } catch (err) {
      setToast({ text: (err as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  };

  // --- keyboard ---
  // One listener for the page's life, calling the handler of the latest render: an effect re-added
  // after each render lagged behind quick keys (ArrowDown then e opened the row before the one shown focused).
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    addEventListener('keydown', listener);
    return () => removeEventListener('keydown', listener);
  }, []);
  onKey.current = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    const typing = target.closest('input, textarea, select, [contenteditable="true"]') !== null;
    if (e.key === 'Escape') {
      if (dialog) return;
      if (typing) (target as HTMLInputElement).blur();
      else if (selected.size) setSelected(new Set());
      else setOpenId(null);
      return;
    }
    if (typing || dialog || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === '/') {
      e.preventDefault();
      searchRef.current?.focus();
      searchRef.current?.select();
      return;
    }
    if (state.tab !== 'bookmarks' || !items.length) return;
    const at = items.findIndex((b) => b._id === focused);
    if (e.key === 'ArrowDown' || e.key === 'j') {
      e.preventDefault();
      const next = items[Math.min(at + 1, items.length - 1)]!;
      setFocused(next._id);
      if (at + 1 >= items.length - 5) void pager.more();
    } else if (e.key === 'ArrowUp' || e.key === 'k') {
      e.preventDefault();
      setFocused(items[Math.max(at - 1, 0)]!._id);
    } else if (e.key === 'Enter' && focused !== null) {
      e.preventDefault();
      setOpenId(focused);
    } else if (e.key === 'e' && focused !== null) {
      e.preventDefault();
      setOpenId(focused);
      setTimeout(() => document.getElementById('d-title')?.focus(), 0);
    } else if (e.key === ' ' && focused !== null && !readOnly) {
      e.preventDefault();
      const b = items.find((x) => x._id === focused);
      if (b) toggle(b);
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && !readOnly) {
      const targets = selectedItems.length ? selectedItems : items.filter((b) => b._id === focused);
      if (matching) {
        e.preventDefault();
        trash();
      } else if (targets.length) {
        e.preventDefault();
        trash(targets.map(targetOf));
      }
    }
  };

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), toast.error ? 12_000 : 8_000);
    return () => clearTimeout(timer);
  }, [toast]);

  const sidebarLatest = useRef<SidebarActions | null>(null);
  sidebarLatest.current = {
    onSelect: (id) => go({ collectionId: id, tab: 'bookmarks' }),
    onHighlights: () => go({ tab: 'highlights', collectionId: ALL_COLLECTIONS }),
    onDropBookmarks: (to, dropped) => {
      const ids = new Set(dropped);
      const targets = items.filter((b) => ids.has(b._id)).map(targetOf);
      if (to === TRASH) trash(targets);
      else moveTo(to, targets);
    },
    onNestCollection: (id, parentId) =>
          void collectionOp({ op: 'move', id, parentId }, nestLabel(collectionTitle(id), parentId ? collectionTitle(parentId) : null)).catch((err: Error) =>
            setToast({ text: err.message, error: true }),
          ),
    onCreate: dialogs.create,
    onRename: dialogs.rename,
    onDelete: dialogs.remove,
    onShare: dialogs.share,
    onMerge: dialogs.merge,
    onSort: (sort) => void collectionOp({ op: 'sort', sort }, t('libCollectionsSorted')).catch((err: Error) => setToast({ text: err.message, error: true })),
  };
  // Stable functions calling the latest handlers: the (possibly 1000-collection) sidebar re-renders only when its data changes.
  const sidebarActions = useMemo(
    () =>
      Object.fromEntries(
        (Object.keys(sidebarLatest.current!) as (keyof SidebarActions)[]).map((k) => [k, (...args: unknown[]) => (sidebarLatest.current![k] as (...a: unknown[]) => void)(...args)]),
      ) as unknown as SidebarActions,
    [],
  );

  if (signedOut !== null) {
    return (
      <main class="signed-out">
        <h1>{t('libTitle')}</h1>
        <p>{signedOut}</p>
        <button type="button" class="primary" onClick={() => void import('wxt/browser').then(({ browser }) => browser.runtime.openOptionsPage())}>{t('libOpenOptions')}</button>
      </main>
    );
  }

  const filtersActive = !!state.search || state.collectionId !== ALL_COLLECTIONS;
  const sorts = BOOKMARK_SORTS.filter((s) => s !== 'score' || state.search);

  return (
    <div class={`library${opened && state.tab === 'bookmarks' ? ' with-detail' : ''}`}>
      <header class="topbar">
        <h1 class="brand">Tidemark</h1>
        <SearchBox
          value={state.search}
          debounceMs={SEARCH_DEBOUNCE_MS}
          tags={tags}
          collections={collections}
          inputRef={searchRef}
          onSearch={searchNow}
          onCollection={(id) => go({ collectionId: id, tab: 'bookmarks' })}
        />
        {(list.offline || collectionsOffline) && (
          <span class="offline-badge" role="status">
            {list.cachedAt ? t('libOfflineSince', new Date(list.cachedAt).toLocaleTimeString()) : t('libOffline')}
          </span>
        )}
      </header>
      <MemoSidebar collections={collections} current={state.collectionId} tab={state.tab} {...sidebarActions} />
      <main class="main" aria-busy={list.loading || busy}>
        {state.tab === 'highlights' ? (
          <>
            <div class="main-head">
              <h2 class="view-title">{title}</h2>
              {state.collectionId !== ALL_COLLECTIONS && (
                <div class="view-controls">
                  <button type="button" onClick={() => go({ tab: 'bookmarks' })}>{t('libShowBookmarksHere')}</button>
                </div>
              )}
            </div>
            <HighlightsView collectionId={state.collectionId} color={state.color} onColor={(c: HighlightColor | null) => go({ color: c })} onMessage={(text) => setToast({ text })} />
          </>
        ) : (
          <>
            <div class="main-head">
              <h2 class="view-title">
                {title}
                {current && current.level < 4 && <span class="role-badge">{roleName(current.level)}</span>}
              </h2>
              <span class="count-line" role="status">
                {list.loading && !items.length ? t('libLoading') : list.count === 1 ? t('libOneBookmark') : t('libCount', list.count)}
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
                <select
                  aria-label={t('libExport')}
                  value=""
                  disabled={busy}
                  onChange={(e) => {
                    const v = (e.target as HTMLSelectElement).value as 'html' | 'csv' | 'md' | '';
                    (e.target as HTMLSelectElement).value = '';
                    if (v) void exportAs(v);
                  }}
                >
                  <option value="">{t('libExport')}…</option>
                  <option value="html">{t('libExportHtml')}</option>
                  <option value="csv">{t('libExportCsv')}</option>
                  <option value="md">{t('libExportMd')}</option>
                </select>
                {inTrash && list.count > 0 && (
                  <button
                    type="button"
                    class="danger"
                    onClick={() =>
                      setDialog({
                        title: t('libEmptyTrash'),
                        message: t('libEmptyTrashMessage', list.count),
                        confirm: t('libEmptyTrash'),
                        danger: true,
                        onSubmit: async () => {
                          const removed = await send('libraryEmptyTrash', null);
                          setToast({ text: t('libTrashEmptied', removed) });
                          setUndo(null);
                          await Promise.all([pager.reset(), loadCollections()]);
                        },
                      })
                    }
                  >
                    {t('libEmptyTrash')}
                  </button>
                )}
              </div>
            </div>
            {!readOnly && (selected.size > 0 || (items.length > 0 && !list.done) || items.length > 1) && (
              <div class={`bulkbar${selected.size ? ' active' : ''}`} role="toolbar" aria-label={t('libBulkActions')}>
                <label class="inline">
                  <input
                    type="checkbox"
                    aria-label={t('libSelectAllLoaded')}
                    checked={selected.size > 0 && selected.size >= items.length}
                    onChange={(e) => setSelected((e.target as HTMLInputElement).checked ? new Set(items.map((b) => b._id)) : new Set())}
                  />
                  {matching ? t('libAllMatchingSelected', matching.count) : selected.size ? t('libNSelected', selected.size) : t('libSelectHint')}
                </label>
                {list.count > items.length && selected.size > 0 && !matching && (
                  <button type="button" class="link" disabled={busy} onClick={() => void selectAllMatching()}>
                    {t('libSelectAllMatching', list.count)}
                  </button>
                )}
                {selected.size > 0 && inTrash && (
                  <>
                    <button type="button" disabled={busy} onClick={() => act({ kind: 'restore' }, t('libRestored', chosenText))}>{t('libRestore')}</button>
                    <button type="button" class="danger" disabled={busy} onClick={() => trash()}>{t('libDeleteForever')}</button>
                  </>
                )}
                {selected.size > 0 && !inTrash && (
                  <>
                    <select aria-label={t('libMoveTo')} value="" disabled={busy} onChange={(e) => { const v = (e.target as HTMLSelectElement).value; if (v) moveTo(Number(v)); }}>
                      <option value="">{t('libMoveTo')}…</option>
                      <option value={String(UNSORTED)}>{t('collectionUnsorted')}</option>
                      {collections.filter((c) => c.level >= 3).map((c) => <option key={c.id} value={String(c.id)}>{pathOf(c, collections)}</option>)}
                    </select>
                    <TagAction label={t('libAddTag')} disabled={busy} onSubmit={(tag) => act({ kind: 'tag', tags: [tag] }, t('libTagged', chosenText, tag))} />
                    <TagAction label={t('libRemoveTag')} disabled={busy} onSubmit={(tag) => act({ kind: 'untag', tag }, t('libUntagged', chosenText, tag))} />
                    <button type="button" disabled={busy} onClick={() => act({ kind: 'favourite', value: true }, t('libFavourited', chosenText))}>★ {t('libFavourite')}</button>
                    <button type="button" disabled={busy} onClick={() => act({ kind: 'favourite', value: false }, t('libUnfavourited', chosenText))}>{t('libUnfavourite')}</button>
                    <button type="button" class="danger" disabled={busy} onClick={() => trash()}>{t('libMoveToTrash')}</button>
                  </>
                )}
              </div>
            )}
            {list.error && (
              <div class="error-box" role="alert">
                <p>{list.error}</p>
                <button type="button" onClick={() => void pager.reset()}>{t('libRetry')}</button>
              </div>
            )}
            {!list.loading && !list.error && list.pages > 0 && items.length === 0 && (
              <div class="empty" role="status">
                <p class="empty-title">
                  {state.search ? t('libNoMatches', state.search) : inTrash ? t('libTrashEmpty') : t('libEmptyCollection')}
                </p>
                {filtersActive && (
                  <div class="empty-actions">
                    {state.search && <button type="button" onClick={() => go({ search: '' })}>{t('libClearSearch')}</button>}
                    {state.collectionId !== ALL_COLLECTIONS && state.search && (
                      <button type="button" onClick={() => go({ collectionId: ALL_COLLECTIONS })}>{t('libSearchEverywhere')}</button>
                    )}
                  </div>
                )}
              </div>
            )}
            <BookmarkList
              items={items}
              view={state.view}
              selected={selected}
              focused={focused}
              open={openId}
              loading={list.loading}
              done={list.done || !!list.error || list.pages === 0}
              onClickRow={clickRow}
              onToggle={toggle}
              onOpen={(b) => setOpenId(b._id)}
              onMore={() => void pager.more()}
              onDragIds={() => [...selected]}
              editable={!readOnly}
              collectionTitle={collectionTitle}
              showCollection={state.collectionId === ALL_COLLECTIONS || !!state.search}
            />
          </>
        )}
      </main>
      {opened && state.tab === 'bookmarks' && (
        <DetailPane
          bookmark={opened}
          collections={collections}
          tags={tags}
          readOnly={readOnly}
          onClose={() => setOpenId(null)}
          onSaved={(b) => pager.patch((x) => (x._id === b._id ? b : x))}
          onOpenHighlight={(b, id) =>
            void send('libraryOpenHighlight', { link: b.link, highlightId: id }).then(
              (shown) => !shown && setToast({ text: t('libHighlightNotShown') }),
              (err: Error) => setToast({ text: err.message, error: true }),
            )
          }
        />
      )}
      {toast && (
        <div class={`toast${toast.error ? ' error' : ''}`} role={toast.error ? 'alert' : 'status'}>
          <span>{toast.text}</span>
          {undo && toast.undo && !toast.error && (
            <button type="button" class="link" disabled={busy} onClick={() => void runUndo()}>{t('libUndo')}</button>
          )}
          <button type="button" class="icon" aria-label={t('libDismiss')} onClick={() => setToast(null)}>✕</button>
        </div>
      )}
      {dialog && <Dialog spec={dialog} onClose={() => setDialog(null)} />}
    </div>
  );
}

function nestLabel(what: string, into: string | null): string {
  return into === null ? t('libMovedToTop', what) : t('libNested', what, into);
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
