// The detail pane's line about the page's text: searchable, being read, or why it could not be read,
// with a Retry that asks the server to fetch the page again. While the server reads it, the state is
// asked again now and then, so the line changes by itself.
import { useEffect, useState } from 'preact/hooks';
import type { ArticleState, Bookmark } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import { useHost } from './host-context.js';

type State = Pick<ArticleState, 'status' | 'error'>;

/** How often a pending text is asked about after a Retry, and for how long. */
const POLL_MS = 2000;
const POLL_TRIES = 30;

export function TextState({ bookmark, readOnly, onChange }: { bookmark: Bookmark; readOnly: boolean; onChange: (state: State) => void }) {
  const host = useHost();
  const [state, setState] = useState<State | undefined>(bookmark.article);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [watching, setWatching] = useState(false);
  useEffect(() => {
    setState(bookmark.article);
    setError('');
    setWatching(false);
  }, [bookmark._id]);

  // After a Retry: asked again until the server has read the page (or gave up).
  useEffect(() => {
    if (!watching || state?.status !== 'pending') return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > POLL_TRIES) return clearInterval(timer);
      host.article(bookmark._id).then(
        (a) => {
          if (a.status === 'pending') return;
          clearInterval(timer);
          const next = { status: a.status, error: a.error };
          setState(next);
          onChange(next);
        },
        (err: Error) => {
          clearInterval(timer);
          setError(err.message);
        },
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [watching, state?.status, bookmark._id]);

  if (!state) return null;
  const retry = () => {
    setBusy(true);
    setError('');
    host.retryArticle(bookmark._id).then(
      (r) => {
        const next = { status: r.status, error: r.error };
        setState(next);
        onChange(next);
        setWatching(true);
      },
      (err: Error) => setError(err.message),
    ).finally(() => setBusy(false));
  };
  const said =
    state.status === 'indexed'
      ? t('libTextIndexed')
      : state.status === 'pending'
        ? t('libTextPending')
        : state.status === 'failed'
          ? t('libTextFailed', state.error || t('libTextNoReason'))
          : t('libTextNone', state.error || t('libTextNoText'));
  return (
    <div class={`text-state ${state.status}`} data-testid="text-state">
      <p aria-live="polite">{said}</p>
      {state.status === 'failed' && !readOnly && (
        <button type="button" disabled={busy} onClick={retry}>
          {t('libTextRetry')}
        </button>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}
