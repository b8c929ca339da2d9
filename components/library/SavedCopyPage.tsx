// The saved-copy page (saved-copy.html?id=<bookmark>): the bookmark's permanent copy, fetched by the
// host (in the extension the background, where the token stays), shown in a sandboxed frame under the server's policy: nothing
// in it runs and it has no extension origin. A bar above says what it is and links the live page.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { t } from '../../lib/i18n.js';
import { useHost } from './host-context.js';
import { COPY_FRAME_SANDBOX, copyDocument, copyTitle } from '../../lib/library/saved-copy.js';
import type { SavedCopy } from '../../lib/library/types.js';

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function SavedCopyPage() {
  const host = useHost();
  const id = Number(new URLSearchParams(location.search).get('id'));
  const [copy, setCopy] = useState<SavedCopy | null>(null);
  const [error, setError] = useState<string | null>(Number.isInteger(id) && id > 0 ? null : t('copyBadAddress'));
  useEffect(() => {
    if (error) return;
    host.savedCopy(id).then(setCopy, (err: Error) => setError(err.message));
  }, []);
  const title = useMemo(() => (copy ? copyTitle(copy.html) || copy.pageUrl : ''), [copy]);
  const doc = useMemo(() => (copy && !copy.frameUrl ? copyDocument(copy.html, copy.csp) : ''), [copy]);
  useEffect(() => {
    document.title = title ? `${t('copyTitle', title)} · Tidemark` : `${t('copyHeading')} · Tidemark`;
  }, [title]);

  return (
    <div class="saved-copy">
      <header class="copy-bar">
        <strong class="brand">Tidemark</strong>
        <span class="copy-what" role="status">
          {error ? t('copyHeading') : !copy ? t('copyLoading') : copy.savedAt ? t('copySavedOn', DATE.format(new Date(copy.savedAt))) : t('copyHeading')}
        </span>
        {copy?.pageUrl && (
          <a class="button" href={copy.pageUrl} target="_blank" rel="noreferrer noopener">
            {t('copyOpenLive')}
          </a>
        )}
      </header>
      {error ? (
        <div class="error-box" role="alert">
          <p>{error}</p>
        </div>
      ) : (
        copy && <iframe class="copy-frame" title={t('copyTitle', title)} sandbox={COPY_FRAME_SANDBOX} referrerpolicy="no-referrer" {...(copy.frameUrl ? { src: copy.frameUrl } : { srcdoc: doc })} />
      )}
    </div>
  );
}
