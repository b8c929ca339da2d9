// What the reader says when the page's text is not there to read: being fetched, failed (with the
// server's reason and a retry), or none (an image or another file without text).
import { useState } from 'preact/hooks';
import type { Article } from '../../../lib/api/types.js';
import { t } from '../../../lib/i18n.js';
import { useHost } from '../host-context.js';

interface Props {
  article: Article;
  bookmarkId: number;
  /** The server took the retry: the reader asks for the text again. */
  onRetried: () => void;
}

export function ReaderStatus({ article, bookmarkId, onRetried }: Props) {
  const host = useHost();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const retry = async () => {
    setBusy(true);
    setError('');
    try {
      await host.retryArticle(bookmarkId);
      onRetried();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (article.status === 'pending') {
    return (
      <div class="reader-status" role="status">
        <p>{t('readerPending')}</p>
        <p class="hint">{t('readerPendingHint')}</p>
      </div>
    );
  }
  const failed = article.status === 'failed';
  return (
    <div class={`reader-status${failed ? ' failed' : ''}`} role={failed ? 'alert' : 'status'}>
      <p>{failed ? t('readerFailed', article.error || t('readerUnknownReason')) : article.error || t('readerNoText')}</p>
      {failed && (
        <button type="button" disabled={busy} onClick={() => void retry()}>
          {busy ? t('readerRetrying') : t('readerFetchAgain')}
        </button>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}
