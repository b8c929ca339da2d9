// "Update text": the page as it is now in the tab becomes the bookmark's text (after the page changed,
// or when the server could not read it), and the popup says how that went.
import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n.js';
import { send } from '../../lib/messaging/client.js';
import type { TextSent } from '../../lib/messaging/protocol.js';

type Outcome = { tone: 'busy' | 'ok' | 'error'; text: string } | null;

/** What the server's answer to a sent page means for a person. */
export function textSentOutcome(r: TextSent): NonNullable<Outcome> {
  if (r.status === 'failed') return { tone: 'error', text: t('textUpdateFailed', r.error) };
  const said = r.status === 'none' ? t('textNone') : r.status === 'pending' ? t('textSent') : t('textUpdated');
  // Cut pages still say so: the end of a very long page is not searchable.
  return { tone: 'ok', text: r.cutAt ? `${said} ${t('textCut', Math.round(r.cutAt / 1024 / 1024))}` : said };
}

export function UpdateText({ tabId, bookmarkId }: { tabId: number; bookmarkId: number }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const run = () => {
    setOutcome({ tone: 'busy', text: t('textUpdating') });
    send('updateArticleText', { tabId, bookmarkId }).then(
      (r) => setOutcome(textSentOutcome(r)),
      (err: Error) => setOutcome({ tone: 'error', text: t('textUpdateFailed', err.message) }),
    );
  };
  return (
    <>
      {outcome && (
        <p aria-live="polite" class={`hint text-outcome${outcome.tone === 'error' ? ' error' : outcome.tone === 'ok' ? ' ok' : ''}`} data-testid="text-outcome">
          {outcome.text}
        </p>
      )}
      <button type="button" disabled={outcome?.tone === 'busy'} onClick={run}>
        {t('textUpdate')}
      </button>
    </>
  );
}
