// Options: server URL, sign in / out, default collection, save-on-open, the badge, keyboard
// shortcuts, and (advanced) signing in with a pasted test token.
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { openShortcutSettings } from '../../lib/browser-differences.js';
import { t } from '../../lib/i18n.js';
import { openLibrary } from '../shared/open-library.js';
import { onEvent, send } from '../../lib/messaging/client.js';
import type { Account, BackgroundError, CollectionOption } from '../../lib/model.js';
import { badgeEnabledItem, defaultCollectionItem, lastBackgroundErrorItem, saveOnOpenItem, serverUrlItem } from '../../lib/storage/items.js';
import { BookmarkSyncSection } from './BookmarkSyncSection.js';
import { needsHostPermission, requestHostPermission, TABS_PERMISSION } from './permissions.js';
import { askSiteAccess, hasSiteAccess, removeSiteAccess } from '../shared/site-access.js';
import { rememberSiteAccessNow } from '../../lib/popup/site-access-state.js';

const account = signal<Account | null>(null);
const signedOutReason = signal<string | null>(null);
const backgroundError = signal<BackgroundError | null>(null);
const serverUrl = signal('');
const busy = signal(false);
const message = signal<{ kind: 'ok' | 'error'; text: string } | null>(null);
const tokenMessage = signal<{ kind: 'ok' | 'error'; text: string } | null>(null);
const testToken = signal('');
const saveOnOpen = signal(true);
const badgeEnabled = signal(true);
const tabsGranted = signal(false);
/** Tidemark may read the sites the user visits (highlight toolbar on selection, highlights shown on load). */
const siteAccess = signal(false);
const defaultCollection = signal<number | null>(null);
const collections = signal<CollectionOption[]>([]);
/** The advanced (test token) section is open. */
const tokenOpen = signal(false);
/** Sign out was asked for while writes wait: how many (the warning is shown instead of signing out). */
const unsent = signal(0);

async function refresh() {
  const status = await send('getStatus', null);
  account.value = status.account;
  signedOutReason.value = status.signedOutReason;
  serverUrl.value ||= status.serverUrl;
  if (status.account) {
    // Failing, the default-collection picker keeps its choices; the account status above says when the server is unreachable.
    send('listCollections', { refresh: false }).then((c) => (collections.value = c.items), () => {});
  }
}

/**
 * The origin of the address typed. People type a server's address as they see it written, often
 * without its scheme ("tidemark.example.com"): https:// is meant then, or http:// for this computer
 * (localhost, 127.0.0.1), where a server usually runs without TLS.
 */
function validServerUrl(): string | null {
  const typed = serverUrl.value.trim();
  if (!typed) return null;
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(typed) ? typed : `${/^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/i.test(typed) ? 'http' : 'https'}://${typed}`;
  try {
    const u = new URL(withScheme);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
  } catch {
    /* fall through */
  }
  return null;
}

/** Sign-in and test-token sign-in share this: ask for the host first, in the click itself. */
function withServer(run: (origin: string) => Promise<void>, report: typeof message) {
  const origin = validServerUrl();
  if (!origin) {
    report.value = { kind: 'error', text: t('errorServerUrl') };
    return;
  }
  const permission = needsHostPermission(origin) ? requestHostPermission(origin) : Promise.resolve(true);
  busy.value = true;
  // A new attempt: what earlier attempts said (an error, "Signed out") no longer applies.
  message.value = null;
  tokenMessage.value = null;
  permission
    .then(async (granted) => {
      if (!granted) throw new Error(t('errorHostDenied', origin));
      await run(origin);
    })
    .catch((err: Error) => (report.value = { kind: 'error', text: err.message }))
    .finally(() => (busy.value = false));
}

function signIn() {
  withServer(async (origin) => {
    const acc = await send('signIn', { serverUrl: origin });
    account.value = acc;
    tokenMessage.value = null; // an error left there by an earlier attempt is no longer true
    message.value = { kind: 'ok', text: t('signedInAs', acc.name) };
    await refresh();
  }, message);
}

function useToken() {
  if (testToken.value.trim().length < 8) {
    tokenMessage.value = { kind: 'error', text: t('errorTokenShort') };
    return;
  }
  withServer(async (origin) => {
    const acc = await send('useTestToken', { serverUrl: origin, token: testToken.value });
    account.value = acc;
    testToken.value = '';
    tokenMessage.value = null;
    tokenOpen.value = false; // done with it: the account section says who is signed in
    message.value = { kind: 'ok', text: t('signedInAs', acc.name) };
    await refresh();
  }, tokenMessage);
}

/** Sign out, unless writes still wait: then the user chooses (send them first, or sign out anyway). */
async function signOut(anyway = false) {
  busy.value = true;
  try {
    if (!anyway) {
      const waiting = (await send('getQueue', null)).entries.length;
      if (waiting > 0) {
        unsent.value = waiting;
        return;
      }
    }
    unsent.value = 0;
    await send('signOut', null);
    account.value = null;
    message.value = { kind: 'ok', text: t('signedOut') };
  } catch (err) {
    message.value = { kind: 'error', text: (err as Error).message };
  } finally {
    busy.value = false;
  }
}

/** "Send them first": drains the queue, then signs out if everything went; otherwise says what still waits. */
async function sendThenSignOut() {
  busy.value = true;
  try {
    const left = (await send('drainQueue', null)).entries.length;
    if (left === 0) {
      unsent.value = 0;
      busy.value = false;
      await signOut(true);
      return;
    }
    unsent.value = left;
    message.value = { kind: 'error', text: t('signOutStillWaiting', left) };
  } catch (err) {
    message.value = { kind: 'error', text: (err as Error).message };
  } finally {
    busy.value = false;
  }
}

function toggleBadge(on: boolean) {
  badgeEnabled.value = on;
  void badgeEnabledItem.setValue(on);
  // Seeing which page a tab shows needs the "tabs" permission: ask while the click lasts.
  if (on && !tabsGranted.value) {
    // Refused or failed, tabsGranted stays false and the hint still says the permission is missing.
    browser.permissions.request(TABS_PERMISSION).then((g) => (tabsGranted.value = g), () => {});
  }
}

function toggleSiteAccess(on: boolean) {
  // In the click: the browser asks only during the user's gesture.
  if (on) void askSiteAccess().then((granted) => (siteAccess.value = granted));
  // Not removed (the browser refused): the switch stays on, which is the truth.
  else removeSiteAccess().then(() => (siteAccess.value = false), () => {});
}

function openShortcuts() {
  openShortcutSettings().catch((err: Error) => (message.value = { kind: 'error', text: err.message }));
}

const Notice = ({ m }: { m: { kind: 'ok' | 'error'; text: string } | null }) =>
  m ? (
    <p role={m.kind === 'error' ? 'alert' : 'status'} class={m.kind === 'error' ? 'error' : 'ok'}>
      {m.text}
    </p>
  ) : null;

export function OptionsApp() {
  useEffect(() => {
    void refresh();
    void lastBackgroundErrorItem.getValue().then((e) => (backgroundError.value = e));
    const unwatchError = lastBackgroundErrorItem.watch((e) => (backgroundError.value = e));
    void serverUrlItem.getValue().then((v) => (serverUrl.value ||= v));
    void saveOnOpenItem.getValue().then((v) => (saveOnOpen.value = v));
    void badgeEnabledItem.getValue().then((v) => (badgeEnabled.value = v));
    void defaultCollectionItem.getValue().then((v) => (defaultCollection.value = v));
    // Failing, the permission shows as not granted (the default).
    browser.permissions.contains(TABS_PERMISSION).then((g) => (tabsGranted.value = g), () => {});
    void hasSiteAccess().then((g) => (siteAccess.value = g));
    // For the popup's first frame (the first popup after install comes after signing in here).
    rememberSiteAccessNow();
    const unsubscribe = onEvent('authChanged', () => void refresh());
    return () => {
      unsubscribe();
      unwatchError();
    };
  }, []);

  const acc = account.value;
  const bgError = backgroundError.value;
  const bgErrorWhen = bgError ? new Date(bgError.at).toLocaleString() : '';
  const origin = validServerUrl();
  const askHost = origin !== null && needsHostPermission(origin);
  return (
    <main class="options">
      <h1>{t('optionsTitle')}</h1>
      <p>
        <button type="button" class="link" onClick={() => void openLibrary()}>
          {t('optionsOpenLibrary')}
        </button>
      </p>

      <section aria-labelledby="account-heading">
        <h2 id="account-heading">{t('optionsAccount')}</h2>
        {acc ? (
          <p data-testid="account">{t('signedInAsOn', acc.name, acc.email, acc.serverUrl)}</p>
        ) : (
          <p data-testid="account">{signedOutReason.value ?? t('signedOutText')}</p>
        )}
        {bgError && (
          <p data-testid="background-error" role="status" class="error">
            {t('optionsBackgroundError', bgError.job, bgErrorWhen, bgError.message)}
          </p>
        )}
        <div class="field">
          <label for="server-url">{t('fieldServerUrl')}</label>
          <input
            id="server-url"
            type="text"
            inputMode="url"
            autoComplete="url"
            spellcheck={false}
            placeholder="https://tidemark.example.com"
            aria-describedby="server-url-hint"
            value={serverUrl.value}
            disabled={busy.value || !!acc}
            onInput={(e) => (serverUrl.value = (e.target as HTMLInputElement).value)}
          />
        </div>
        {!acc && (
          <p class="hint" id="server-url-hint">
            {askHost ? t('hostPermissionExplain', origin!) : t('serverUrlHint')}
          </p>
        )}
        {acc && unsent.value > 0 ? (
          <div class="notice offline" role="alertdialog" aria-labelledby="unsent-text">
            <p id="unsent-text">{unsent.value === 1 ? t('signOutUnsentOne') : t('signOutUnsent', unsent.value)}</p>
            <button type="button" class="primary" disabled={busy.value} onClick={() => void sendThenSignOut()}>
              {t('signOutSendFirst')}
            </button>{' '}
            <button type="button" class="danger" disabled={busy.value} onClick={() => void signOut(true)}>
              {t('signOutAnyway')}
            </button>{' '}
            <button type="button" class="link" disabled={busy.value} onClick={() => (unsent.value = 0)}>
              {t('cancel')}
            </button>
          </div>
        ) : acc ? (
          <button type="button" disabled={busy.value} onClick={() => void signOut()}>
            {t('signOut')}
          </button>
        ) : (
          <button type="button" class="primary" disabled={busy.value} onClick={signIn}>
            {t('signIn')}
          </button>
        )}
        <Notice m={message.value} />
      </section>

      <section aria-labelledby="saving-heading">
        <h2 id="saving-heading">{t('optionsSaving')}</h2>
        <div class="field inline">
          <input
            id="save-on-open"
            type="checkbox"
            checked={saveOnOpen.value}
            onChange={(e) => {
              saveOnOpen.value = (e.target as HTMLInputElement).checked;
              void saveOnOpenItem.setValue(saveOnOpen.value);
            }}
          />
          <label for="save-on-open">{t('fieldSaveOnOpen')}</label>
        </div>
        <div class="field">
          <label for="default-collection">{t('fieldDefaultCollection')}</label>
          <select
            id="default-collection"
            value={defaultCollection.value === null ? 'last' : String(defaultCollection.value)}
            onChange={(e) => {
              const v = (e.target as HTMLSelectElement).value;
              defaultCollection.value = v === 'last' ? null : Number(v);
              void defaultCollectionItem.setValue(defaultCollection.value);
            }}
          >
            <option value="last">{t('collectionLastUsed')}</option>
            {collections.value.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.path.join(' / ')}
              </option>
            ))}
          </select>
        </div>
      </section>

      <BookmarkSyncSection collections={collections.value} signedIn={!!acc} />

      <section aria-labelledby="badge-heading">
        <h2 id="badge-heading">{t('optionsBadge')}</h2>
        <div class="field inline">
          <input id="badge-enabled" type="checkbox" checked={badgeEnabled.value} onChange={(e) => toggleBadge((e.target as HTMLInputElement).checked)} />
          <label for="badge-enabled">{t('fieldBadge')}</label>
        </div>
        {badgeEnabled.value && !tabsGranted.value && (
          <p class="hint">
            {t('tabsPermissionExplain')}{' '}
            <button type="button" class="link" onClick={() => toggleBadge(true)}>
              {t('tabsPermissionAllow')}
            </button>
          </p>
        )}
      </section>

      <section aria-labelledby="highlights-heading">
        <h2 id="highlights-heading">{t('optionsHighlights')}</h2>
        <div class="field inline">
          <input id="site-access" type="checkbox" checked={siteAccess.value} onChange={(e) => toggleSiteAccess((e.target as HTMLInputElement).checked)} />
          <label for="site-access">{t('fieldSiteAccess')}</label>
        </div>
        <p class="hint">{siteAccess.value ? t('siteAccessOn') : t('siteAccessOff')}</p>
      </section>

      <section aria-labelledby="shortcuts-heading">
        <h2 id="shortcuts-heading">{t('optionsShortcuts')}</h2>
        <p>{t('shortcutsText')}</p>
        <button type="button" class="link" onClick={openShortcuts}>
          {t('shortcutsOpen')}
        </button>
      </section>

      {!acc && (
      <details open={tokenOpen.value} onToggle={(e) => (tokenOpen.value = (e.currentTarget as HTMLDetailsElement).open)}>
        <summary>{t('optionsAdvanced')}</summary>
        <p class="hint">{t('testTokenText')}</p>
        <div class="field">
          <label for="test-token">{t('fieldTestToken')}</label>
          <input
            id="test-token"
            type="password"
            autocomplete="off"
            value={testToken.value}
            onInput={(e) => (testToken.value = (e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="button" disabled={busy.value} onClick={useToken}>
          {t('useToken')}
        </button>
        <Notice m={tokenMessage.value} />
      </details>
      )}
    </main>
  );
}
