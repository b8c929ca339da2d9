// The popup's notice when the page's save waits in the offline queue because the server could not be
// reached: what happened, what to do (is the server running, is its address right), and a retry. It
// takes the excerpt field's room (popup.css), which the form shows again once the save is sent, so the
// popup keeps the height it opened at when the save fails (extension-popup-height.spec.ts).
import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../../lib/i18n.js';

/** `waiting`: how many writes wait in the queue, this page's among them (the retry sends them all). */
export function UnreachableNotice({ serverUrl, waiting, onRetry }: { serverUrl: string; waiting: number; onRetry: () => Promise<boolean> }) {
  const [trying, setTrying] = useState(false);
  const [failedAgain, setFailedAgain] = useState(false);
  const retry = () => {
    setTrying(true);
    void onRetry().then((sent) => {
      setTrying(false);
      setFailedAgain(!sent);
    });
  };
  // Link-like buttons on one line under the text: the notice stays within the excerpt field's room.
  return (
    <div class="notice offline unreachable" role="alert" data-testid="unreachable-notice">
      <p>{t('popupUnreachable', serverUrl || t('popupUnreachableNoAddress'))}</p>
      <p class="unreachable-actions">
        <button type="button" class="link" onClick={retry} disabled={trying}>
          {trying ? t('popupUnreachableTrying') : failedAgain ? t('popupUnreachableStill') : waiting > 1 ? t('popupUnreachableRetryAll', waiting) : t('tryAgain')}
        </button>{' '}
        <button type="button" class="link" onClick={() => void browser.runtime.openOptionsPage()}>
          {t('popupUnreachableAddress')}
        </button>
      </p>
    </div>
  );
}
