// The toolbar popup: saves the page (or opens its existing bookmark) and edits it. All data goes
// through the background; everything from pages or the server is rendered as text.
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { browser } from 'wxt/browser';
import type { Tag } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import { openLibrary } from '../shared/open-library.js';
import { onEvent, send } from '../../lib/messaging/client.js';
import type { CollectionsView, PageInfo, PopupOpenResult, QueueView } from '../../lib/messaging/protocol.js';
import type { BookmarkChanges, BookmarkDraft } from '../../lib/model.js';
import { askOpening, takeCollections, takeOpening, takeSiteAccess, type PopupOpening } from '../../lib/popup/first-requests.js';
import { rememberedSiteAccess, rememberSiteAccess, siteAccessState, type SiteAccessState } from '../../lib/popup/site-access-state.js';
import { rememberedFormRoom, rememberFormRoom } from '../../lib/popup/form-room.js';
import { AutoSaver, type SaveState } from '../shared/autosave.js';
import { CollectionPicker } from '../shared/CollectionPicker.js';
import { QueueList } from './QueueList.js';
import { QueuedSaveNotice } from './QueuedSaveNotice.js';
import { TitleField } from '../shared/TitleField.js';
import { HighlightSummary, HighlightsPending } from './HighlightSummary.js';
import { UpdateText } from './UpdateText.js';
import { serverIdOf } from '../../lib/bookmark-ref.js';
import { hasSiteAccess } from '../shared/site-access.js';
import '../sidepanel/highlights.css';
import { TagsInput } from '../shared/TagsInput.js';
import { GrowingTextarea } from '../shared/GrowingTextarea.js';

/**
 * The note and excerpt boxes show their whole text up to these many lines, then scroll in whole lines: with both
 * at their most (a long note and a long excerpt) the form is 145 px taller than with 3-row boxes, and the popup
 * (at most 600 px tall) scrolls to the rest.
 */
const NOTE_MAX_ROWS = 8;
const EXCERPT_MAX_ROWS = 6;

type View =
  | { kind: 'loading' }
  | { kind: 'signed-out'; reason: string | null }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'unsaved'; page: PageInfo }
  | { kind: 'editing'; opened: 'created' | 'queued' | 'existing' | 'offline' }
  | { kind: 'error'; message: string };

const view = signal<View>({ kind: 'loading' });
const draft = signal<BookmarkDraft | null>(null);
const saveState = signal<SaveState>('idle');
const saveError = signal('');
const collections = signal<CollectionsView>({ items: [], recent: [] });
const tags = signal<Tag[]>([]);
const suggested = signal<string[]>([]);
const queue = signal<QueueView>({ entries: [], failures: [], otherAccounts: 0 });
/** The person pressed Save (the page is known to be new): the status may say it is being saved. */
const saveAsked = signal(false);
/**
 * The stored bookmark is not known here (opened offline): the form shows only what this device adds
 * (tags to add, a note to add), and those are sent as additions, never as a replacement.
 */
const partial = signal(false);
/** The page's title was cut at this length when it was saved. */
const titleCutAt = signal<number | undefined>(undefined);
/**
 * This page's save was queued when the popup opened: `serverUrl` is the server that did not answer, or null
 * when the save waits behind earlier writes. Null when it was not queued.
 */
const queuedOnOpen = signal<{ serverUrl: string | null } | null>(null);
/** The collection a removed bookmark was in, for Undo. */
const removedFrom = signal<number | null>(null);
let tabId = -1;
let windowId: number | undefined;
/** The tab's title and address (from the browser), shown while its bookmark is found or saved. */
const pendingPage = signal<{ title: string; url: string } | null>(null);
/** What the Highlights section says about site access (asked with the first requests); null until known. */
const siteAccess = signal<SiteAccessState | null>(null);
/** Set once the person answered the question here: a later answer to the early request does not undo it. */
let siteAccessChangedHere = false;
const changeSiteAccess = (state: SiteAccessState) => {
  siteAccessChangedHere = true;
  siteAccess.value = state;
  rememberSiteAccess(state);
};

/**
 * The state the first render shows: the answer asked for early when it came already, or else what the
 * last popup learned (replaced by the answer when it comes, which then is kept for the next popup).
 */
function loadSiteAccess() {
  const early = takeSiteAccess();
  siteAccess.value = early?.known ?? rememberedSiteAccess();
  (early?.answer ?? siteAccessState()).then(
    (state) => {
      if (siteAccessChangedHere) return;
      siteAccess.value = state;
      rememberSiteAccess(state);
    },
    async (err: Error) => {
      // The stored answer could not be read: the hint follows the permission, and the question waits
      // for another opening (asking again when it was answered would be worse than not asking now).
      console.error(`Tidemark could not read whether site access was asked about (${err.message}); the question is not shown this time.`);
      if (!siteAccessChangedHere) siteAccess.value = { granted: await hasSiteAccess(), ask: false };
    },
  );
}

const saver = new AutoSaver(
  async (changes) => {
    const append = partial.value;
    const d = draft.value!;
    const result = await send('updateBookmark', { ref: d.ref, changes, label: d.title.slice(0, 500), ...(append ? { append } : {}) });
    // The server answered with the whole bookmark: from now on the form edits what is stored.
    if (append && result.state === 'saved' && result.bookmark && !saver.hasPending) {
      partial.value = false;
      draft.value = result.bookmark;
    }
    return result;
  },
  (state, error) => {
    saveState.value = state;
    saveError.value = error ?? '';
  },
);

function edit(changes: BookmarkChanges, immediate = false) {
  if (!draft.value) return;
  draft.value = { ...draft.value, ...changes };
  saver.change(changes, immediate);
}

/** How much taller than their 3 rows the note and excerpt boxes are now (px): they grew with their text. */
function grownBoxes(): number {
  let px = 0;
  for (const id of ['note-input', 'excerpt-input']) {
    const el = document.getElementById(id);
    if (!el) continue;
    const s = getComputedStyle(el);
    const n = (v: string) => parseFloat(v) || 0;
    const threeRows = 3 * n(s.lineHeight) + n(s.paddingTop) + n(s.paddingBottom) + n(s.borderTopWidth) + n(s.borderBottomWidth);
    px += Math.max(0, el.getBoundingClientRect().height - threeRows);
  }
  return Math.round(px * 10) / 10;
}

/**
 * Marks for bench/extension and the e2e tests (performance timeline only; nothing leaves the popup).
 * `tidemark:settled`: every answer the popup asked for after its bookmark has come (or failed).
 */
function mark(name: 'tidemark:opened' | 'tidemark:interactive' | 'tidemark:settled') {
  if (!performance.getEntriesByName(name).length) performance.mark(name);
}

/** What the popup asks for once its bookmark is there (the `tidemark:settled` mark waits for them). */
const followUps: Promise<unknown>[] = [];

function apply(result: PopupOpenResult) {
  if (result.state === 'signed-out') view.value = { kind: 'signed-out', reason: result.reason };
  else if (result.state === 'unsupported') view.value = { kind: 'unsupported', reason: result.reason };
  else if (result.state === 'unsaved') view.value = { kind: 'unsaved', page: result.page };
  else {
    mark('tidemark:opened');
    draft.value = result.bookmark;
    partial.value = !!result.partial;
    titleCutAt.value = result.titleCutAt;
    queuedOnOpen.value = result.queued ? { serverUrl: result.serverUrl ?? null } : null;
    view.value = { kind: 'editing', opened: result.queued ? 'queued' : result.offline ? 'offline' : result.created ? 'created' : 'existing' };
    if (result.bookmark.ref.startsWith('b:')) {
      // Suggestions are a nicety: without them the tag field works as usual.
      followUps.push(send('suggestTags', { ref: result.bookmark.ref }).then((s) => (suggested.value = s), () => {}));
    }
  }
}

/** `early`: what the popup's first script asked for before the app loaded (lib/popup/first-requests.ts). */
async function open(early: Promise<PopupOpening | null> | null = null) {
  try {
    const opening = await (early ?? askOpening());
    if (!opening) {
      view.value = { kind: 'unsupported', reason: t('errorNoTab') };
      return;
    }
    tabId = opening.tabId;
    windowId = opening.windowId;
    pendingPage.value = { title: opening.title, url: opening.url };
    apply(await opening.answer);
  } catch (err) {
    view.value = { kind: 'error', message: (err as Error).message };
  }
}

async function saveNow() {
  view.value = { kind: 'loading' };
  saveAsked.value = true;
  try {
    apply(await send('saveTab', { tabId }));
  } catch (err) {
    view.value = { kind: 'error', message: (err as Error).message };
  }
}

async function remove() {
  const d = draft.value;
  if (!d) return;
  await saver.flush();
  saveState.value = 'saving';
  try {
    const r = await send('removeBookmark', { ref: d.ref });
    removedFrom.value = d.collectionId;
    draft.value = { ...d, removed: true };
    saveState.value = r.state === 'queued' ? 'queued' : 'saved';
  } catch (err) {
    saveState.value = 'error';
    saveError.value = (err as Error).message;
  }
}

async function undo() {
  const d = draft.value;
  if (!d || removedFrom.value === null) return;
  saveState.value = 'saving';
  try {
    const r = await send('restoreBookmark', { ref: d.ref, collectionId: removedFrom.value });
    draft.value = { ...d, removed: false, collectionId: removedFrom.value };
    removedFrom.value = null;
    saveState.value = r.state === 'queued' ? 'queued' : 'saved';
  } catch (err) {
    saveState.value = 'error';
    saveError.value = (err as Error).message;
  }
}

/**
 * This page's save was queued when the popup opened and has not been sent since (a sent write sets the save
 * state to saved): the notice says so in the excerpt field's room, and why.
 */
function queuedSave(): boolean {
  return view.value.kind === 'editing' && view.value.opened === 'queued' && queuedOnOpen.value !== null && saveState.value !== 'saved';
}

/** Sends the queue now; true when this page's save left it (the server answered). */
async function retryQueue(): Promise<boolean> {
  try {
    queue.value = await send('drainQueue', null);
  } catch (err) {
    console.error(`Tidemark could not send the offline queue: ${(err as Error).message}`);
    return false;
  }
  return !queuedSave();
}

/** One line (the notice says the rest): offline when the server did not answer, else waiting behind earlier writes. */
const queuedStatus = () => (queuedOnOpen.value?.serverUrl == null ? t('popupStatusWaiting') : t('popupStatusQueued'));

function statusText(): string {
  const v = view.value;
  // Until the background answers, the popup cannot know whether the page is new or saved already:
  // "Saving…" would be false for a saved page, so it says what is happening (and Save now says so too).
  if (v.kind === 'loading') return saveAsked.value ? t('statusSaving') : t('statusChecking');
  if (v.kind !== 'editing') return '';
  if (draft.value?.removed) return saveState.value === 'queued' ? t('statusRemovedQueued') : t('statusRemoved');
  switch (saveState.value) {
    case 'saving':
      return t('statusSaving');
    case 'saved':
      return t('statusSaved');
    case 'queued':
      return queuedSave() ? queuedStatus() : t('statusQueued');
    case 'error':
      return t('statusError', saveError.value);
  }
  return v.opened === 'created' ? t('statusSaved') : v.opened === 'queued' ? queuedStatus() : v.opened === 'offline' ? t('statusOffline') : t('statusExisting');
}

/** How the status line looks: success, waiting offline (never in the success colour), an error, or neutral. */
function statusTone(): 'ok' | 'offline' | 'error' | 'neutral' {
  const v = view.value;
  if (v.kind === 'error') return 'error';
  if (v.kind !== 'editing') return 'neutral';
  switch (saveState.value) {
    case 'saving':
      return 'neutral';
    case 'saved':
      return 'ok';
    case 'queued':
      return 'offline';
    case 'error':
      return 'error';
  }
  return v.opened === 'queued' || v.opened === 'offline' ? 'offline' : 'ok';
}

/**
 * Collection lists arrive from several requests (cached first, then fresh, plus pushed changes); an
 * answer only replaces what is shown when it was asked for later, so a slow cached answer can never
 * overwrite a fresh one.
 */
let collectionsAsked = 0;
let collectionsShown = 0;
function showCollections(view: CollectionsView, asked = ++collectionsAsked) {
  if (asked <= collectionsShown) return;
  collectionsShown = asked;
  collections.value = view;
}
function loadCollections(refresh: boolean, early: Promise<CollectionsView> | null = null): Promise<void> {
  const asked = ++collectionsAsked;
  // Failing, the picker keeps what it shows; saving reports its own errors.
  return (early ?? send('listCollections', { refresh })).then((c) => showCollections(c, asked), () => {});
}

/**
 * Starts the popup's work as soon as its script runs, before the first render. The save and the
 * cached collection list come first, usually asked for already by the popup's first script; what
 * is not needed for the first paint (tags, a fresh collection list, the queue) is asked for once
 * the bookmark is there, so it does not compete.
 */
export function startPopup() {
  loadSiteAccess();
  void loadCollections(false, takeCollections());
  void open(takeOpening()).finally(() => {
    followUps.push(
      loadCollections(true),
      // Failing, tag autocomplete is empty; saving reports its own errors.
      send('listTags', null).then((x) => (tags.value = x), () => {}),
      // Failing, the queue list stays empty; the queue itself keeps its entries.
      send('getQueue', null).then((q) => (queue.value = q), () => {}),
    );
    void Promise.all(followUps).then(() => mark('tidemark:settled'));
  });
}

export function PopupApp() {
  useEffect(() => {
    const offs = [
      onEvent('queueChanged', (q) => (queue.value = q)),
      onEvent('collectionsChanged', (c) => showCollections(c)),
      // A queued write reached the server: say so, and edit the server's bookmark from now on.
      onEvent('bookmarkWritten', ({ ref, result }) => {
        const d = draft.value;
        if (!d || d.ref !== ref || result.state !== 'saved') return;
        if (result.bookmark && result.bookmark.ref !== d.ref) draft.value = { ...d, ref: result.bookmark.ref };
        if (!saver.hasPending && saveState.value !== 'saving') saveState.value = 'saved';
      }),
      onEvent('authChanged', ({ account, signedOutReason }) => {
        if (!account) view.value = { kind: 'signed-out', reason: signedOutReason };
      }),
    ];
    // Closing the popup must not lose the last edit.
    const flush = () => void saver.flush();
    addEventListener('pagehide', flush);
    addEventListener('blur', flush);
    return () => {
      offs.forEach((off) => off());
      removeEventListener('pagehide', flush);
      removeEventListener('blur', flush);
    };
  }, []);

  const v = view.value;
  const d = draft.value;
  const status = statusText();
  const disabled = !!d?.removed;
  // Only a bookmark the server has (not one waiting in the offline queue) can take the page's text.
  const textId = d ? serverIdOf(d.ref) : null;
  const cols = collections.value;
  useEffect(() => {
    if (v.kind === 'editing' && cols.items.length) mark('tidemark:interactive');
  });
  // The whole form as it is now (boxes grown, lines typed): the room the next popup on this page holds while it finds the bookmark.
  // Measured when the form shows and when its texts change, not on every render (a status change, a tag typed).
  const page = pendingPage.value?.url;
  const fullForm = !!page && v.kind === 'editing' && !!d && !partial.value && !queuedSave();
  useEffect(() => {
    if (fullForm) rememberFormRoom(page!, grownBoxes());
  }, [fullForm, page, d?.note, d?.excerpt]);
  const room = v.kind === 'loading' && page ? rememberedFormRoom(page) : 0;

  return (
    <main class="popup">
      <header>
        <h1>{t('extName')}</h1>
        <p role="status" aria-live="polite" class={`status tone-${statusTone()}`} data-state={v.kind === 'editing' ? saveState.value : v.kind}>
          {status}
        </p>
      </header>

      {/* While the bookmark is found or saved: the page in the form's room, and the Highlights section with what it says about
          site access, so the popup opens at its size instead of growing under the pointer. */}
      {v.kind === 'loading' && (
        <>
          <div class="pending-space" style={room ? { '--grown-boxes': `${room}px` } : undefined}>
            {pendingPage.value?.title && <p class="page-title">{pendingPage.value.title}</p>}
            {pendingPage.value?.url && <p class="hint url">{pendingPage.value.url}</p>}
          </div>
          <HighlightsPending access={siteAccess.value} onChange={changeSiteAccess} />
        </>
      )}
      {v.kind === 'signed-out' && (
        <section>
          <p>{v.reason ?? t('signedOutText')}</p>
          <button type="button" class="primary" onClick={() => void browser.runtime.openOptionsPage().then(() => close())}>
            {t('signIn')}
          </button>
        </section>
      )}
      {v.kind === 'unsupported' && <p class="notice">{v.reason}</p>}
      {v.kind === 'error' && (
        <section>
          <p role="alert" class="error">
            {v.message}
          </p>
          <button type="button" onClick={() => void open()}>
            {t('tryAgain')}
          </button>
        </section>
      )}
      {v.kind === 'unsaved' && (
        <section>
          <p class="page-title">{v.page.title}</p>
          <p class="hint url">{v.page.url}</p>
          <button type="button" class="primary" onClick={() => void saveNow()}>
            {t('save')}
          </button>
        </section>
      )}

      {v.kind === 'editing' && d && (
        <form onSubmit={(e) => e.preventDefault()}>
          {partial.value && (
            <p class="notice offline" data-testid="partial-notice">
              {t('popupPartialNotice')}
            </p>
          )}
          {queuedSave() && <QueuedSaveNotice serverUrl={queuedOnOpen.value?.serverUrl ?? null} waiting={queue.value.entries.length} onRetry={retryQueue} />}
          {partial.value ? (
            <p class="page-title">{d.title}</p>
          ) : (
            <TitleField value={d.title} disabled={disabled} cutAt={titleCutAt.value} onInput={(title) => edit({ title })} />
          )}
          <CollectionPicker
            items={cols.items}
            recent={cols.recent}
            value={d.collectionId}
            disabled={disabled}
            onChange={(id) => edit({ collectionId: id }, true)}
            onCreate={(title, parentId) => send('createCollection', { title, parentId })}
          />
          <TagsInput
            label={partial.value ? t('fieldTagsToAdd') : undefined}
            value={d.tags}
            known={tags.value}
            suggested={suggested.value}
            disabled={disabled}
            onChange={(x) => edit({ tags: x }, true)}
          />
          {!partial.value && (
          <div class="field inline">
            <input
              id="favorite-input"
              type="checkbox"
              checked={d.important}
              disabled={disabled}
              onChange={(e) => edit({ important: (e.target as HTMLInputElement).checked }, true)}
            />
            <label for="favorite-input">{t('fieldFavorite')}</label>
          </div>
          )}
          <div class="field">
            <label for="note-input">{partial.value ? t('fieldNoteToAdd') : t('fieldNote')}</label>
            <GrowingTextarea
              id="note-input"
              minRows={3}
              maxRows={NOTE_MAX_ROWS}
              value={d.note}
              disabled={disabled}
              onInput={(e) => edit({ note: (e.target as HTMLTextAreaElement).value })}
            />
          </div>
          {!partial.value && !queuedSave() && (
          <div class="field">
            <label for="excerpt-input">{t('fieldExcerpt')}</label>
            <GrowingTextarea
              id="excerpt-input"
              minRows={3}
              maxRows={EXCERPT_MAX_ROWS}
              value={d.excerpt}
              disabled={disabled}
              onInput={(e) => edit({ excerpt: (e.target as HTMLTextAreaElement).value })}
            />
          </div>
          )}
          <div class="actions">
            {textId !== null && !d.removed && tabId >= 0 && <UpdateText tabId={tabId} bookmarkId={textId} />}
            {d.removed ? (
              <button type="button" onClick={() => void undo()}>
                {t('undo')}
              </button>
            ) : (
              <button type="button" class="danger" onClick={() => void remove()}>
                {t('remove')}
              </button>
            )}
          </div>
        </form>
      )}

      {v.kind === 'editing' && d && !d.removed && tabId >= 0 && (
        <HighlightSummary tabId={tabId} windowId={windowId} access={siteAccess.value} onAccessChange={changeSiteAccess} />
      )}
      <QueueList
        queue={queue.value}
        // This page's save is waiting: the notice above says so, with the count and a retry, in room the popup had
        // already (a list of other pages' writes arriving at the bottom would make it grow). While the bookmark is
        // found or saved, the queue's change for this very save can arrive first: the list waits for the answer.
        showWaiting={v.kind !== 'loading' && !queuedSave()}
        // A failed retry leaves the entries in the list, marked as failed by the queue itself.
        onRetry={() => send('drainQueue', null).then((q) => (queue.value = q), () => {})}
        // Failing, the entries stay listed and can be dismissed again.
        onDismiss={() => send('dismissFailures', null).then((q) => (queue.value = q), () => {})}
      />
      <footer>
        <button type="button" class="link" onClick={() => void openLibrary().then(() => window.close())}>
          {t('popupOpenLibrary')}
        </button>
        <button type="button" class="link" onClick={() => browser.runtime.openOptionsPage()}>
          {t('openOptions')}
        </button>
      </footer>
    </main>
  );
}
