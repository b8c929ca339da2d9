// The web app around the shared library UI: the library itself (components/library/LibraryApp.tsx,
// the same as the extension's) with the web's own controls in its top bar (Save by address, the
// account menu), a banner while the network is down, and the save form the share target opens.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n.js';
import type { WebHost } from '../lib/library/web-host.js';
import { parseState } from '../lib/library/url-state.js';
import { LibraryApp } from '../components/library/LibraryApp.js';
import { SaveForm } from './SaveForm.js';
import { AccountMenu } from './AccountMenu.js';

/** The save form's request in the address (`/?save=<address>&title=`, where the share target leads), or null. */
function saveRequest(search: string): { url: string; title: string } | null {
  const p = new URLSearchParams(search);
  if (!p.has('save')) return null;
  return { url: p.get('save') ?? '', title: p.get('title') ?? '' };
}

/** The address without the save form's parameters (kept in history only while the form is open). */
function withoutSave(): string {
  const p = new URLSearchParams(location.search);
  p.delete('save');
  p.delete('title');
  const rest = p.toString();
  return `${location.pathname}${rest ? `?${rest}` : ''}`;
}

export function WebApp({ host }: { host: WebHost }) {
  const [save, setSave] = useState(() => saveRequest(location.search));
  const [online, setOnline] = useState(() => navigator.onLine);
  const [message, setMessage] = useState('');

  useEffect(() => {
    const on = () => setOnline(navigator.onLine);
    addEventListener('online', on);
    addEventListener('offline', on);
    const onPop = () => setSave(saveRequest(location.search));
    addEventListener('popstate', onPop);
    return () => {
      removeEventListener('online', on);
      removeEventListener('offline', on);
      removeEventListener('popstate', onPop);
    };
  }, []);

  const openSave = () => {
    history.pushState(null, '', `${withoutSave()}${location.search ? '&' : '?'}save=`);
    setSave({ url: '', title: '' });
  };
  const closeSave = () => {
    history.replaceState(null, '', withoutSave());
    setSave(null);
  };

  return (
    <>
      {!online && (
        <p class="offline-banner" role="status">
          {t('webOfflineBanner')}
        </p>
      )}
      {message && (
        <p class="web-message" role="status">
          <span>{message}</span>
          <button type="button" class="icon" aria-label={t('webDismiss')} onClick={() => setMessage('')}>✕</button>
        </p>
      )}
      <LibraryApp
        actions={
          <div class="web-actions">
            <button type="button" class="primary save-button" onClick={openSave} aria-haspopup="dialog">
              <svg class="glyph" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 5v14M5 12h14" /></svg>
              <span class="save-label">{t('webSaveButtonShort')}</span>
            </button>
            <AccountMenu onError={setMessage} />
          </div>
        }
      />
      {save && (
        <SaveForm
          host={host}
          initial={save}
          collectionId={parseState(location.search).collectionId}
          onClose={closeSave}
          onSaved={(text) => {
            closeSave();
            setMessage(text);
            host.notifyChanged();
          }}
        />
      )}
    </>
  );
}
