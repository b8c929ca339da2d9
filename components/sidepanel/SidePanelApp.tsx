// The side panel (Chrome side panel, Firefox sidebar): the highlights and notes of the page in the
// active tab, following tab switches and navigations. Highlights in page order with their colours
// (filter by colour), click to show one on the page, change colour, edit its note, copy, delete with
// Undo; those the page no longer contains under "Not found on this page". The bookmark's tags and
// note are edited here too. Everything goes through the background, which tells every open page
// (panel, popup) and the tab's highlighter when highlights change.
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { browser } from 'wxt/browser';
import type { HighlightColor } from '../../lib/api/constants.js';
import type { Tag } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import { onEvent, send } from '../../lib/messaging/client.js';
import type { HighlightListItem, HighlightListView, PanelView } from '../../lib/messaging/protocol.js';
import type { BookmarkChanges, BookmarkDraft } from '../../lib/model.js';
import { COLOR_VALUES } from '../../lib/painting/styles.js';
import { AutoSaver, type SaveState } from '../shared/autosave.js';
import { GrowingTextarea } from '../shared/GrowingTextarea.js';
import { askSiteAccess } from '../shared/site-access.js';
import { TagsInput } from '../shared/TagsInput.js';
import { followActiveTab, panelWindowId } from './follow-tab.js';
import { HighlightItem, type ItemActions } from './HighlightItem.js';
import './highlights.css';

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'view'; view: PanelView };

const state = signal<State>({ kind: 'loading' });
const tabId = signal<number | null>(null);
const draft = signal<BookmarkDraft | null>(null);
const partial = signal(false);
const saveState = signal<SaveState>('idle');
const saveError = signal('');
const highlights = signal<HighlightListView | null>(null);
const filter = signal<HighlightColor | null>(null);
const knownTags = signal<Tag[]>([]);
/** The highlight just deleted (Undo), and a short message (Copied...). */
const undo = signal<{ key: string; text: string } | null>(null);
const notice = signal('');
/** Answers to older requests never replace what a newer one showed. */
let asked = 0;

const saver = new AutoSaver(
  (changes: BookmarkChanges) =>
    send('updateBookmark', { ref: draft.value!.ref, changes, label: draft.value!.title.slice(0, 500), ...(partial.value ? { append: true } : {}) }),
  (s, error) => {
    saveState.value = s;
    saveError.value = error ?? '';
  },
);

function editBookmark(changes: BookmarkChanges, immediate = false) {
  if (!draft.value) return;
  draft.value = { ...draft.value, ...changes };
  saver.change(changes, immediate);
}

async function load(id: number) {
  const mine = ++asked;
  const sameTab = tabId.value === id;
  if (!sameTab) {
    await saver.flush();
    undo.value = null;
    notice.value = '';
    tabId.value = id;
    state.value = { kind: 'loading' };
  }
  try {
    const view = await send('panelState', { tabId: id });
    if (mine !== asked) return;
    state.value = { kind: 'view', view };
    if (view.state === 'saved') {
      highlights.value = view.highlights;
      partial.value = view.partial;
      // The same page reloaded while its note is being typed: what is typed stays (it is being saved).
      if (!(sameTab && draft.value?.ref === view.bookmark.ref && saver.hasPending)) draft.value = view.bookmark;
    } else {
      highlights.value = null;
      draft.value = null;
    }
  } catch (err) {
    if (mine === asked) state.value = { kind: 'error', message: (err as Error).message };
  }
}

async function reloadHighlights() {
  const id = tabId.value;
  if (id === null || state.value.kind !== 'view' || state.value.view.state !== 'saved') return;
  const mine = ++asked;
  try {
    const list = await send('listHighlights', { tabId: id });
    if (mine === asked && tabId.value === id) highlights.value = list;
  } catch {
    /* the next event or tab switch tries again; the list shown stays */
  }
}

function report(run: Promise<HighlightListView>) {
  run.then(
    (list) => (highlights.value = list),
    (err: Error) => (notice.value = err.message),
  );
}

const actions: ItemActions = {
  show: (key) => {
    if (tabId.value !== null) void send('showHighlight', { tabId: tabId.value, key }).catch((err: Error) => (notice.value = err.message));
  },
  recolor: (key, color) => {
    if (tabId.value !== null) report(send('setHighlightColor', { tabId: tabId.value, key, color }));
  },
  saveNote: async (tab, key, note) => {
    const list = await send('setHighlightNote', { tabId: tab, key, note });
    if (tabId.value === tab) highlights.value = list;
  },
  copy: (item) => {
    navigator.clipboard.writeText(item.text).then(
      () => (notice.value = t('highlightCopied')),
      () => (notice.value = t('errorCopy')),
    );
  },
  remove: (item) => {
    if (tabId.value === null) return;
    undo.value = null;
    send('deleteHighlight', { tabId: tabId.value, key: item.key }).then(
      (list) => {
        highlights.value = list;
        undo.value = { key: item.key, text: item.text };
        notice.value = '';
      },
      (err: Error) => (notice.value = err.message),
    );
  },
};

function undoDelete() {
  const u = undo.value;
  if (!u || tabId.value === null) return;
  undo.value = null;
  report(send('restoreHighlight', { tabId: tabId.value, key: u.key }));
}

async function saveTab() {
  if (tabId.value === null) return;
  state.value = { kind: 'loading' };
  try {
    await send('saveTab', { tabId: tabId.value });
    await load(tabId.value);
  } catch (err) {
    state.value = { kind: 'error', message: (err as Error).message };
  }
}

function startSidePanel(): () => void {
  // Failing, tag autocomplete is empty; saving reports its own errors.
  send('listTags', null).then((x) => (knownTags.value = x), () => {});
  let stop = () => {};
  void panelWindowId().then((windowId) => {
    stop = followActiveTab(windowId, (id) => void load(id));
  });
  const offs = [
    onEvent('highlightsChanged', (e) => {
      if (e.tabId === null || e.tabId === tabId.value) void reloadHighlights();
    }),
    onEvent('bookmarkWritten', ({ ref, result }) => {
      const d = draft.value;
      if (!d || d.ref !== ref || !result.bookmark || saver.hasPending) return;
      draft.value = result.bookmark;
    }),
    onEvent('authChanged', () => {
      if (tabId.value !== null) void load(tabId.value);
    }),
  ];
  const flush = () => void saver.flush();
  addEventListener('pagehide', flush);
  return () => {
    stop();
    offs.forEach((off) => off());
    removeEventListener('pagehide', flush);
  };
}

function allowSiteAccess() {
  // In the click: the browser asks only during the user's gesture.
  void askSiteAccess().then((granted) => {
    if (granted && tabId.value !== null) void load(tabId.value);
  });
}

function Filter({ list }: { list: HighlightListItem[] }) {
  const colors = [...new Set(list.map((h) => h.color))];
  if (colors.length < 2) return null;
  return (
    <div class="hl-filter" role="group" aria-label={t('panelFilter')}>
      <button type="button" class="chip-button" aria-pressed={filter.value === null} onClick={() => (filter.value = null)}>
        {t('panelFilterAll')}
      </button>
      {colors.map((c) => (
        <button type="button" key={c} class="chip-button" aria-pressed={filter.value === c} onClick={() => (filter.value = filter.value === c ? null : c)}>
          <span class="dot" style={{ background: COLOR_VALUES[c] }} />
          {t(`color_${c}`)}
        </button>
      ))}
    </div>
  );
}

function Highlights({ list, tab }: { list: HighlightListView; tab: number }) {
  const wanted = (h: HighlightListItem) => filter.value === null || h.color === filter.value;
  const found = list.found.filter(wanted);
  const notFound = list.notFound.filter(wanted);
  const total = list.found.length + list.notFound.length;
  return (
    <section class="panel-highlights" aria-label={t('popupHighlights')}>
      <h2>
        {t('popupHighlights')} <span class="count">({total})</span>
      </h2>
      <Filter list={[...list.found, ...list.notFound]} />
      {undo.value && (
        <p class="undo-bar" role="status">
          {t('highlightRemoved')}{' '}
          <button type="button" class="link" onClick={undoDelete}>
            {t('highlightUndo')}
          </button>
        </p>
      )}
      {total === 0 && <p class="hint">{t('panelNoHighlights')}</p>}
      {found.length > 0 && (
        <ol class="hl-list">
          {found.map((h) => (
            <HighlightItem key={h.key} tabId={tab} item={h} found={h.status !== 'unknown'} focus={h.key === list.editNoteOf} actions={actions} />
          ))}
        </ol>
      )}
      {notFound.length > 0 && (
        <section class="not-found" aria-label={t('popupHighlightsNotFound')}>
          <h3>{t('popupHighlightsNotFound')}</h3>
          <p class="hint">{t('panelNotFoundHint')}</p>
          <ul class="hl-list">
            {notFound.map((h) => (
              <HighlightItem key={h.key} tabId={tab} item={h} found={false} focus={h.key === list.editNoteOf} actions={actions} />
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}

function BookmarkFields({ d }: { d: BookmarkDraft }) {
  const status =
    saveState.value === 'saving'
      ? t('statusSaving')
      : saveState.value === 'saved'
        ? t('statusSaved')
        : saveState.value === 'queued'
          ? t('statusQueued')
          : saveState.value === 'error'
            ? t('statusError', saveError.value)
            : '';
  return (
    <section class="panel-bookmark" aria-label={t('panelBookmark')}>
      {partial.value && <p class="notice offline">{t('popupPartialNotice')}</p>}
      <TagsInput
        label={partial.value ? t('fieldTagsToAdd') : undefined}
        value={d.tags}
        known={knownTags.value}
        suggested={[]}
        disabled={d.removed}
        onChange={(tags) => editBookmark({ tags }, true)}
      />
      <div class="field">
        <label for="bookmark-note">{partial.value ? t('fieldNoteToAdd') : t('panelBookmarkNote')}</label>
        <GrowingTextarea id="bookmark-note" minRows={1} maxRows={12} value={d.note} disabled={d.removed} onInput={(e) => editBookmark({ note: (e.target as HTMLTextAreaElement).value })} onBlur={() => void saver.flush()} />
      </div>
      {status && (
        <p class={`hint save-state ${saveState.value}`} role="status">
          {status}
        </p>
      )}
    </section>
  );
}

export function SidePanelApp() {
  useEffect(() => startSidePanel(), []);
  const s = state.value;
  const d = draft.value;
  return (
    <main class="panel">
      <header>
        <h1>{t('panelTitle')}</h1>
      </header>
      {s.kind === 'loading' && <p class="hint">{t('statusChecking')}</p>}
      {s.kind === 'error' && (
        <p role="alert" class="error">
          {s.message}
        </p>
      )}
      {s.kind === 'view' && s.view.state === 'signed-out' && (
        <section>
          <p>{s.view.reason ?? t('signedOutText')}</p>
          <button type="button" class="primary" onClick={() => void browser.runtime.openOptionsPage()}>
            {t('signIn')}
          </button>
        </section>
      )}
      {s.kind === 'view' && s.view.state === 'unsupported' && <p class="notice">{s.view.reason}</p>}
      {s.kind === 'view' && s.view.state === 'no-access' && (
        <section>
          <p class="notice">{s.view.reason}</p>
          {s.view.canAsk && (
            <button type="button" onClick={allowSiteAccess}>
              {t('panelAllowSites')}
            </button>
          )}
        </section>
      )}
      {s.kind === 'view' && s.view.state === 'unsaved' && (
        <section>
          <p class="page-title">{s.view.page.title}</p>
          <p class="hint">{t('panelNotSaved')}</p>
          <button type="button" class="primary" onClick={() => void saveTab()}>
            {t('save')}
          </button>
        </section>
      )}
      {s.kind === 'view' && s.view.state === 'saved' && d && (
        <>
          <p class="page-title" title={d.link}>
            {d.title}
          </p>
          {s.view.offline && !partial.value && <p class="notice offline">{t('statusOffline')}</p>}
          <BookmarkFields d={d} />
          {highlights.value && tabId.value !== null && <Highlights list={highlights.value} tab={tabId.value} />}
        </>
      )}
      {notice.value && (
        <p class="hint" role="status">
          {notice.value}
        </p>
      )}
    </main>
  );
}
