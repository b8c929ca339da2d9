// The popup's notice when the page's save waits in the offline queue: because the server could not be
// reached (what happened, what to do: is the server running, is its address right, and a retry), or
// behind earlier writes still being sent. It takes the excerpt field's room (popup.css), which the form
// shows again once the save is sent, and it stands for the queue's list (counted in its button), so the
// popup keeps the height it opened at (extension-popup-height-edges.spec.ts).
import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../../lib/i18n.js';

/**
 * `serverUrl`: the server that did not answer, or null when the save only waits behind earlier writes.
 * `waiting`: how many writes wait in the queue, this page's among them (the button sends them all); 0 until
 * the popup has the queue.
 */
export function QueuedSaveNotice({ serverUrl, waiting, onRetry }: { serverUrl: string | null; waiting: number; onRetry: () => Promise<boolean> }) {
  const [trying, setTrying] = useState(false);
  const [failedAgain, setFailedAgain] = useState(false);
  const retry = () => {
    setTrying(true);
    void onRetry().then((sent) => {
      setTrying(false);
      setFailedAgain(!sent);
    });
  };
  const unreachable = serverUrl !== null;
  const label = trying
    ? t('popupUnreachableTrying')
    : failedAgain
      ? t('popupUnreachableStill')
      : !unreachable
        ? waiting > 0
          ? t('popupQueuedSendNow', waiting)
          : t('queueRetry')
        : waiting > 1
          ? t('popupUnreachableRetryAll', waiting)
          : t('tryAgain');
  // Link-like buttons on one line under the text: the notice stays within the excerpt field's room.
  return (
    <div class="notice offline queued-save" role={unreachable ? 'alert' : 'note'} data-testid="queued-save-notice">
      <p>{unreachable ? t('popupUnreachable', serverUrl) : t('popupQueuedBehind')}</p>
      <p class="queued-save-actions">
        <button type="button" class="link" onClick={retry} disabled={trying}>
          {label}
        </button>
        {unreachable && (
          <button type="button" class="link" onClick={() => void browser.runtime.openOptionsPage()}>
            {t('popupUnreachableAddress')}
          </button>
        )}
      </p>
    </div>
  );
}
