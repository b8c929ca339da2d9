// The options page's "Browser bookmarks" section: the sync's switch, its folder and what it mirrors,
// its state (last sync, changes waiting, conflicts) and the failsafe's question. It talks to the
// background through extension storage (lib/storage/items.ts): the background watches the settings
// and the answer, and writes the state.
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { browser, type Browser } from 'wxt/browser';
import { describeConflict } from '../../lib/bookmark-sync/conflicts.js';
import { SYNC_WRITE_LABEL, type BookmarkSyncSettings, type BookmarkSyncStatus } from '../../lib/bookmark-sync/settings.js';
import { t } from '../../lib/i18n.js';
import { onEvent, send } from '../../lib/messaging/client.js';
import type { QueueView } from '../../lib/messaging/protocol.js';
import type { CollectionOption } from '../../lib/model.js';
import { bookmarkSyncDecisionItem, bookmarkSyncSettingsItem, bookmarkSyncStatusItem } from '../../lib/storage/items.js';

const settings = signal<BookmarkSyncSettings>(bookmarkSyncSettingsItem.fallback);
const status = signal<BookmarkSyncStatus | null>(null);
interface FolderChoice {
  id: string;
  title: string;
  /** "Other bookmarks / Reading". */
  path: string;
}
/** The sync's browser changes waiting in the offline queue. */
const pending = signal(0);
const countPending = (view: QueueView) => (pending.value = view.entries.filter((e) => e.label.startsWith(SYNC_WRITE_LABEL)).length);
/** The browser's bookmark folders. */
const folders = signal<FolderChoice[]>([]);

function folderPaths(nodes: Browser.bookmarks.BookmarkTreeNode[], prefix: string[], out: FolderChoice[]) {
  for (const n of nodes) {
    if (n.url !== undefined || !n.children) continue;
    const path = n.title ? [...prefix, n.title] : prefix;
    if (n.title && n.parentId !== undefined) out.push({ id: n.id, title: n.title, path: path.join(' / ') });
    folderPaths(n.children, path, out);
  }
  return out;
}

function change(next: Partial<BookmarkSyncSettings>) {
  settings.value = { ...settings.value, ...next };
  void bookmarkSyncSettingsItem.setValue(settings.value);
}

const when = (at: number) => new Date(at).toLocaleString();

export function BookmarkSyncSection({ collections, signedIn }: { collections: CollectionOption[]; signedIn: boolean }) {
  useEffect(() => {
    void bookmarkSyncSettingsItem.getValue().then((v) => (settings.value = v));
    void bookmarkSyncStatusItem.getValue().then((v) => (status.value = v));
    const unwatchSettings = bookmarkSyncSettingsItem.watch((v) => (settings.value = v));
    const unwatchStatus = bookmarkSyncStatusItem.watch((v) => (status.value = v));
    // The waiting count is a hint: unanswered, the line shows none until the queue's next change.
    send('getQueue', null).then(countPending, () => {});
    const unwatchQueue = onEvent('queueChanged', countPending);
    // The folder list; without it (no bookmarks API) only the default folder is offered.
    browser.bookmarks?.getTree().then((tree) => (folders.value = folderPaths(tree, [], [])), () => {});
    return () => {
      unwatchSettings();
      unwatchStatus();
      unwatchQueue();
    };
  }, []);

  const s = settings.value;
  const st = status.value;
  const chosen = s.scope.kind === 'collection' ? String(s.scope.id) : 'all';
  return (
    <section aria-labelledby="bookmark-sync-heading">
      <h2 id="bookmark-sync-heading">{t('optionsBookmarkSync')}</h2>
      <div class="field inline">
        <input id="bookmark-sync" type="checkbox" checked={s.enabled} disabled={!signedIn && !s.enabled} onChange={(e) => change({ enabled: (e.target as HTMLInputElement).checked })} />
        <label for="bookmark-sync">{t('fieldBookmarkSync')}</label>
      </div>
      <p class="hint">{t('bookmarkSyncExplain')}</p>
      {!signedIn && <p class="hint">{t('bookmarkSyncSignIn')}</p>}
      <div class="field">
        <label for="bookmark-sync-folder">{t('fieldBookmarkSyncFolder')}</label>
        <select id="bookmark-sync-folder" disabled={s.enabled} value={s.folderId ?? ''} onChange={(e) => change({ folderId: (e.target as HTMLSelectElement).value || null })}>
          {!s.folderId && <option value="">{t('bookmarkSyncFolderDefault')}</option>}
          {folders.value.map((f) => (
            <option key={f.id} value={f.id}>
              {f.path}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="bookmark-sync-scope">{t('fieldBookmarkSyncScope')}</label>
        <select
          id="bookmark-sync-scope"
          disabled={s.enabled}
          value={chosen}
          onChange={(e) => {
            const v = (e.target as HTMLSelectElement).value;
            change({ scope: v === 'all' ? { kind: 'all' } : { kind: 'collection', id: Number(v) } });
          }}
        >
          <option value="all">{t('bookmarkSyncScopeAll')}</option>
          {collections
            .filter((c) => c.id > 0)
            .map((c) => (
              <option key={c.id} value={String(c.id)}>
                {t('bookmarkSyncScopeOne', c.path.join(' / '))}
              </option>
            ))}
        </select>
      </div>
      {s.enabled && <p class="hint">{t('bookmarkSyncChangeNote')}</p>}
      {s.enabled && <SyncState st={st} folderTitle={folders.value.find((f) => f.id === s.folderId)?.title ?? ''} />}
      {!s.enabled && <p class="hint">{t('bookmarkSyncOffNote')}</p>}
      {!s.enabled && st?.otherAccount && (
        <p role="alert" class="error">
          {t('bookmarkSyncOtherAccount')}
        </p>
      )}
    </section>
  );
}

function SyncState({ st, folderTitle }: { st: BookmarkSyncStatus | null; folderTitle: string }) {
  if (st?.held) {
    return (
      <div role="alert" class="error" data-testid="bookmark-sync-held">
        <p>{t('bookmarkSyncHeld', st.held.serverRemovals, st.held.browserRemovals, st.held.mirrored)}</p>
        <button type="button" onClick={() => void bookmarkSyncDecisionItem.setValue('apply')}>
          {t('bookmarkSyncHeldApply')}
        </button>{' '}
        <button type="button" onClick={() => void bookmarkSyncDecisionItem.setValue('keep')}>
          {t('bookmarkSyncHeldKeep')}
        </button>
      </div>
    );
  }
  const last = st?.lastSyncAt ? when(st.lastSyncAt) : null;
  const mirrored = st?.mirrored ?? 0;
  return (
    <div data-testid="bookmark-sync-state">
      {st?.error && (
        <p role="alert" class="error">
          {t('bookmarkSyncStopped', st.error)}
        </p>
      )}
      <p role="status">
        {last ? t('bookmarkSyncStateOk', last, mirrored, folderTitle) : st?.state === 'syncing' ? t('bookmarkSyncStateSyncing') : t('bookmarkSyncStateNever')}
        {pending.value ? ` ${t('bookmarkSyncPending', pending.value)}` : ''}
      </p>
      {!!st?.conflicts.length && (
        <details>
          <summary>{t('bookmarkSyncConflicts', st.conflicts.length)}</summary>
          <p class="hint">{t('bookmarkSyncConflictsRule')}</p>
          <ul>
            {st.conflicts.map((c, i) => (
              <li key={i}>
                {when(c.at)}: “{c.title}”: {describeConflict(c)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
