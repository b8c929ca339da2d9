// The library page: sidebar, search, the list (paged), the detail pane, bulk changes with Undo,
// all highlights, export. What is shown lives in the address (lib/library/url-state.ts); the data
// comes from the host in context (lib/library/host.ts); state changes are in lib/library/library-state.ts.
import type { ComponentChildren } from 'preact';
import { lazy, memo, Suspense } from 'preact/compat';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ALL_COLLECTIONS, TRASH, UNSORTED, type HighlightColor } from '../../lib/api/constants.js';
import type { Bookmark, Tag } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import { isSignedOut } from '../../lib/library/host.js';
import { clickRow, NO_SELECTION, navigate, SELECT_ALL_MAX, selectLoaded, selectMatching, targetOf, toggleRow, type Selection, type UndoEntry } from '../../lib/library/library-state.js';
import { askFirstPage, askList, listQuery, takeFirstPage } from '../../lib/library/list-requests.js';
import { offerDownload } from '../../lib/library/offer-download.js';
import { Pager, type PagerSnapshot } from '../../lib/library/pager.js';
import type { LibraryCollection, LibraryCollectionOp } from '../../lib/library/types.js';
import { formatState, parseState, type LibraryState } from '../../lib/library/url-state.js';
import { BookmarkList } from './BookmarkList.js';
import { BulkBar } from './BulkBar.js';
import { bulkCommands } from './bulk-commands.js';
import { collectionDialogs, nestLabel } from './collection-dialogs.js';
import { DetailPane, pathOf } from './DetailPane.js';
import { Dialog, type DialogSpec } from './Dialog.js';
import { HighlightsView } from './HighlightsView.js';
import { useHost } from './host-context.js';
import { ListHead, type ExportFormat } from './ListHead.js';
import { ListStatus } from './ListStatus.js';
import { useReader } from './reader/use-reader.js';
import { useDrawer } from './use-drawer.js';
import { SearchBox } from './SearchBox.js';
import { Sidebar, type SidebarActions } from './Sidebar.js';
import { Toast, type ToastSpec } from './Toast.js';
import { useLibraryKeys } from './use-library-keys.js';
import { useStableActions } from './use-stable-actions.js';

// The reader (its article, anchoring, painting and toolbar: about a third of the library's code) is
// loaded when a bookmark is first read, not before the first list. Its file is in the web app's
// offline copy (web/sw.ts keeps every file of the build) and in the extension's package.
const ReaderView = lazy(() => import('./reader/ReaderView.js').then((m) => m.ReaderView));

const MemoSidebar = memo(Sidebar);

/** Where the detail pane covers the list (library.css, the phone layout). */
const NARROW = '(max-width: 720px)';

/** The pause in typing after which the list follows (a newer query cancels the older request on its way). */
const SEARCH_DEBOUNCE_MS = 60;

interface Props {
  /** The host's own controls at the end of the top bar (the web app's Save button and account menu). */
  actions?: ComponentChildren;
}

export function LibraryApp({ actions }: Props = {}) {
  const host = useHost();
  const [state, setState] = useState<LibraryState>(() => parseState(location.search));
  const [collections, setCollections] = useState<LibraryCollection[]>([]);
  const [collectionsOffline, setCollectionsOffline] = useState(false);
  const [tags, setTags] = useState<Tag[]>([]);
  const [list, setList] = useState<PagerSnapshot<Bookmark>>(Pager.empty());
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [focused, setFocused] = useState<number | null>(null);
  const [openId, setOpenShown] = useState<number | null>(null);
  const [undo, setUndo] = useState<UndoEntry | null>(null);
  const [toast, setToast] = useState<ToastSpec | null>(null);
  const [dialog, setDialog] = useState<DialogSpec | null>(null);
  const [signedOut, setSignedOut] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // On a narrow screen (library.css): the sidebar is a drawer, and rows are picked in a Select mode.
  const { open: drawer, setOpen: setDrawer, menuButton } = useDrawer();
  const [selecting, setSelecting] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const pager = useMemo(() => new Pager<Bookmark>(async () => ({ items: [], count: 0 }), setList), []);
  const fail = (err: unknown) => setToast({ text: (err as Error).message, error: true });

  // --- the address is the state ---
  const go = useCallback((patch: Partial<LibraryState>) => {
    setState((prev) => {
      const { next, push } = navigate(prev, patch);
      history[push ? 'pushState' : 'replaceState'](null, '', `${location.pathname}${formatState(next)}`);
      return next;
    });
  }, []);
  // On a phone the detail pane covers the list: opening it adds a history entry, so the phone's Back
  // closes it (and the pane's Back button goes back through that entry).
  const setOpenId = (id: number | null) => {
    const covers = matchMedia(NARROW).matches;
    if (id !== null && covers && !(history.state as { detail?: boolean } | null)?.detail) history.pushState({ detail: true }, '', location.href);
    if (id === null && (history.state as { detail?: boolean } | null)?.detail) history.back();
    else setOpenShown(id);
  };
  useEffect(() => {
    const onPop = () => {
      // Back from the reader leaves the detail pane as it was.
      const fromReader = latest.current.read !== null;
      setState(parseState(location.search));
      if (!fromReader && !(history.state as { detail?: boolean } | null)?.detail) setOpenShown(null);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const loadCollections = useCallback(async () => {
    try {
      const r = await host.collections();
      setCollections(r.items);
      setCollectionsOffline(r.offline);
      setSignedOut(null);
    } catch (err) {
      if (isSignedOut(err)) setSignedOut((err as Error).message);
      else fail(err);
    }
  }, []);
  const reload = () => Promise.all([pager.reset(), loadCollections()]);

  // The sidebar and the tag list load once the first page of the list is there (or failed): the list
  // is what the page is opened for, and the three requests would otherwise share the server.
  const sidebarLoaded = useRef(false);
  useEffect(() => {
    if (sidebarLoaded.current || (list.pages === 0 && !list.error && state.tab === 'bookmarks')) return;
    sidebarLoaded.current = true;
    void loadCollections();
    host.tags().then(setTags, () => setTags([]));
  }, [list.pages, list.error, state.tab]);

  useEffect(() => host.onAccountChange(() => void reload()), []);

  const latest = useRef(state);
  latest.current = state;
  const searchNow = (text: string) => {
    const next = { ...latest.current, search: text };
    // A typed search asks for its first page at the end of the typing pause, before the page
    // re-renders for it; the list below takes that answer instead of asking again.
    if (next.tab === 'bookmarks' && text !== latest.current.search) askFirstPage(host, listQuery(next));
    go({ search: text });
  };
  // A new place or query: the list starts over. A layout effect: the request leaves in this task,
  // not after the next frame is painted.
  useLayoutEffect(() => {
    if (state.tab !== 'bookmarks') return;
    const q = listQuery(state);
    let sent = takeFirstPage(q);
    // Taken once: a retry or a reload after a bulk change asks the host again.
    const take = () => {
      const answer = sent;
      sent = null;
      return answer;
    };
    void pager.reset((page) => (page === 0 && take()) || askList(host, q, page));
    setSelection(NO_SELECTION);
    setFocused(null);
  }, [state.collectionId, state.search, state.sort, state.tab]);

  const current = collections.find((c) => c.id === state.collectionId);
  const readOnly = !!current && current.level < 3;
  const inTrash = state.collectionId === TRASH;
  const place = state.collectionId === ALL_COLLECTIONS ? t('libAll') : state.collectionId === UNSORTED ? t('collectionUnsorted') : inTrash ? t('libTrash') : current ? pathOf(current, collections) : t('libCollection');
  const title = state.tab !== 'highlights' ? place : state.collectionId === ALL_COLLECTIONS ? t('libAllHighlights') : t('libHighlightsIn', place);
  useEffect(() => {
    if (state.read === null) document.title = `${title} · Tidemark`;
  }, [title, state.read]);

  const items = list.items;
  const opened = items.find((b) => b._id === openId) ?? null;
  const collectionTitle = (id: number) => (id === UNSORTED ? t('collectionUnsorted') : id === TRASH ? t('libTrash') : collections.find((c) => c.id === id)?.title ?? '');

  // --- selection ---
  const onRowClick = (b: Bookmark, e: MouseEvent) => {
    setFocused(b._id);
    if (selecting && !readOnly) return setSelection(toggleRow(selection, b._id));
    const r = clickRow(selection, items, b._id, { shift: e.shiftKey, ctrl: e.ctrlKey || e.metaKey }, readOnly);
    setSelection(r.selection);
    if (r.open !== null) setOpenId(r.open);
  };
  const onToggle = (b: Bookmark, e?: MouseEvent) => (e?.shiftKey && selection.anchor !== null ? onRowClick(b, e) : setSelection(toggleRow(selection, b._id)));
  const onSelectMatching = async () => {
    const marked = selectMatching(state, items, list.count);
    if (marked) return setSelection(marked);
    setBusy(true);
    try {
      while (!pager.snapshot.done && pager.snapshot.items.length < SELECT_ALL_MAX) await pager.more();
      setSelection(selectLoaded(pager.snapshot.items.slice(0, SELECT_ALL_MAX), true));
      if (pager.snapshot.count > SELECT_ALL_MAX) setToast({ text: t('libSelectAllCapped', SELECT_ALL_MAX) });
    } finally {
      setBusy(false);
    }
  };

  // A row whose bookmark could not be read again keeps what it showed (the next load has it).
  const reader = useReader(state.read, go, (id) => void host.bookmark(id).then((b) => pager.patch((x) => (x._id === id ? b : x)), () => undefined));

  const bulk = bulkCommands({ host, items, selection, opened, inTrash, undo, collectionTitle, setSelection, setUndo, setToast, setDialog, setBusy, reload });

  // --- collections ---
  const collectionOp = async (op: LibraryCollectionOp, done: string) => {
    await host.collectionOp(op);
    setToast({ text: done });
    await loadCollections();
  };
  const dialogs = collectionDialogs({ collections, collectionTitle, shownId: () => latest.current.collectionId, show: (id) => go({ collectionId: id }), run: collectionOp });
  const ask = (spec: DialogSpec) => setDialog(spec);

  const emptyTrash = () =>
    ask({
      title: t('libEmptyTrash'),
      message: t('libEmptyTrashMessage', list.count),
      confirm: t('libEmptyTrash'),
      danger: true,
      onSubmit: async () => {
        const removed = await host.emptyTrash();
        setToast({ text: t('libTrashEmptied', removed) });
        setUndo(null);
        await reload();
      },
    });

  const exportAs = async (format: ExportFormat) => {
    setBusy(true);
    try {
      const file = await host.exportFile({ collectionId: state.collectionId, format, search: state.search });
      offerDownload(file.blob, file.name);
      setToast({ text: t('libExported', file.name) });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const focusedIndex = items.findIndex((b) => b._id === focused);
  useLibraryKeys({
    context: { dialogOpen: !!dialog || state.read !== null, tab: state.tab, count: items.length, focused: focusedIndex, hasSelection: selection.ids.size > 0, readOnly },
    blur: (target) => target.blur(),
    clearSelection: () => setSelection(NO_SELECTION),
    closeDetail: () => setOpenId(null),
    focusSearch: () => {
      searchRef.current?.focus();
      searchRef.current?.select();
    },
    focusRow: (index, more) => {
      setFocused(items[index]!._id);
      if (more) void pager.more();
    },
    open: () => setOpenId(focused),
    edit: () => {
      setOpenId(focused);
      setTimeout(() => document.getElementById('d-title')?.focus(), 0);
    },
    toggle: () => setSelection(toggleRow(selection, focused!)),
    remove: () => {
      if (selection.matching) {
        bulk.trash();
        return true;
      }
      const chosen = items.filter((b) => selection.ids.has(b._id));
      const targets = chosen.length ? chosen : items.filter((b) => b._id === focused);
      if (targets.length) bulk.trash(targets.map(targetOf));
      return targets.length > 0;
    },
  });

  // Stable functions calling the latest handlers: the (possibly 1000-collection) sidebar re-renders only when its data changes.
  const sidebarActions = useStableActions<SidebarActions>({
    onSelect: (id) => {
      setDrawer(false);
      go({ collectionId: id, tab: 'bookmarks' });
    },
    onHighlights: () => {
      setDrawer(false);
      go({ tab: 'highlights', collectionId: ALL_COLLECTIONS });
    },
    onDropBookmarks: (to, dropped) => {
      const ids = new Set(dropped);
      const targets = items.filter((b) => ids.has(b._id)).map(targetOf);
      if (to === TRASH) bulk.trash(targets);
      else bulk.moveTo(to, targets);
    },
    onNestCollection: (id, parentId) => void collectionOp({ op: 'move', id, parentId }, nestLabel(collectionTitle(id), parentId ? collectionTitle(parentId) : null)).catch(fail),
    onCreate: (parentId) => ask(dialogs.create(parentId)),
    onRename: (c) => ask(dialogs.rename(c)),
    onDelete: (c) => ask(dialogs.remove(c)),
    onShare: (c) => ask(dialogs.share(c)),
    onMerge: (c) => ask(dialogs.merge(c)),
    onSort: (sort) => void collectionOp({ op: 'sort', sort }, t('libCollectionsSorted')).catch(fail),
  });

  if (signedOut !== null) {
    return (
      <main class="signed-out">
        <h1>{t('libTitle')}</h1>
        <p>{signedOut}</p>
        <button type="button" class="primary" onClick={() => host.signIn.open()}>{host.signIn.label}</button>
      </main>
    );
  }

  return (
    <>
    <div inert={state.read !== null} class={`library${opened && state.tab === 'bookmarks' ? ' with-detail' : ''}${drawer ? ' drawer-open' : ''}${selecting ? ' selecting' : ''}`}>
      <header class="topbar">
        <button ref={menuButton} type="button" class="icon menu-button" aria-label={t('libMenu')} aria-expanded={drawer} onClick={() => setDrawer(!drawer)}>☰</button>
        <h1 class="brand">Tidemark</h1>
        <SearchBox value={state.search} debounceMs={SEARCH_DEBOUNCE_MS} tags={tags} collections={collections} inputRef={searchRef} onSearch={searchNow} onCollection={(id) => go({ collectionId: id, tab: 'bookmarks' })} />
        {(list.offline || collectionsOffline) && (
          <span class="offline-badge" role="status">
            {list.cachedAt ? t('libOfflineSince', new Date(list.cachedAt).toLocaleTimeString()) : t('libOffline')}
          </span>
        )}
        {actions}
      </header>
      {drawer && <div class="scrim" aria-hidden="true" onClick={() => setDrawer(false)} />}
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
            <ListHead state={state} title={title} current={current} inTrash={inTrash} loading={list.loading && !items.length} count={list.count} busy={busy} go={go} onExport={(f) => void exportAs(f)} onEmptyTrash={emptyTrash} />
            {!readOnly && items.length > 0 && (
              <button
                type="button"
                class="select-mode"
                aria-pressed={selecting}
                onClick={() => {
                  if (selecting) setSelection(NO_SELECTION);
                  setSelecting(!selecting);
                }}
              >
                {selecting ? t('libSelectDone') : t('libSelectMode')}
              </button>
            )}
            {!readOnly && (selection.ids.size > 0 || (items.length > 0 && !list.done) || items.length > 1) && (
              <BulkBar
                selection={selection}
                loaded={items.length}
                count={list.count}
                busy={busy}
                inTrash={inTrash}
                collections={collections}
                onSelectLoaded={(on) => setSelection(selectLoaded(items, on))}
                onSelectMatching={() => void onSelectMatching()}
                onMove={(to) => bulk.moveTo(to)}
                onTag={bulk.tag}
                onUntag={bulk.untag}
                onFavourite={bulk.favourite}
                onTrash={() => bulk.trash()}
                onRestore={bulk.restore}
              />
            )}
            <ListStatus list={list} state={state} inTrash={inTrash} go={go} onRetry={() => void pager.reset()} />
            <BookmarkList
              items={items}
              view={state.view}
              selected={selection.ids}
              focused={focused}
              open={openId}
              loading={list.loading}
              done={list.done || !!list.error || list.pages === 0}
              onClickRow={onRowClick}
              onToggle={onToggle}
              onOpen={(b) => setOpenId(b._id)}
              onRead={reader.open}
              onMore={() => void pager.more()}
              onDragIds={() => [...selection.ids]}
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
          onRead={reader.open}
          onSaved={(b) => pager.patch((x) => (x._id === b._id ? b : x))}
          onOpenHighlight={(b, id) => void host.openHighlight(b.link, id).then((shown) => !shown && setToast({ text: t('libHighlightNotShown') }), fail)}
        />
      )}
      {toast && <Toast toast={toast} canUndo={!!undo} busy={busy} onUndo={() => void bulk.undoLast()} onClose={() => setToast(null)} />}
      {dialog && <Dialog spec={dialog} onClose={() => setDialog(null)} />}
    </div>
    {state.read !== null && (
      <Suspense fallback={null}>
        <ReaderView bookmarkId={state.read} known={items.find((b) => b._id === state.read) ?? null} onClose={reader.close} />
      </Suspense>
    )}
    </>
  );
}
