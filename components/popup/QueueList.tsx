// What is waiting in the offline queue, and queued writes the server refused.
import type { QueueView } from '../../lib/messaging/protocol.js';
import { t } from '../../lib/i18n.js';

const opText = (op: string) =>
  op === 'create' ? t('queueOpCreate') : op === 'update' ? t('queueOpUpdate') : op === 'bulk' ? t('queueOpBulk') : t('queueOpRemove');

/** `showWaiting`: false while the popup says otherwise that writes wait (its unreachable-server notice, with their count). */
export function QueueList({
  queue,
  showWaiting = true,
  onRetry,
  onDismiss,
}: {
  queue: QueueView;
  showWaiting?: boolean;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  const entries = showWaiting ? queue.entries : [];
  if (!entries.length && !queue.failures.length) return null;
  return (
    <section class="queue" aria-label={t('queueTitle')}>
      {entries.length > 0 && (
        <>
          <h2>{t('queueWaiting', entries.length)}</h2>
          <ul>
            {entries.map((e, i) => (
              <li key={i}>
                <span class="hint">{opText(e.op)}</span> {e.label}
              </li>
            ))}
          </ul>
          <button type="button" class="link" onClick={onRetry}>
            {t('queueRetry')}
          </button>
        </>
      )}
      {queue.failures.length > 0 && (
        <>
          <h2>{t('queueFailed')}</h2>
          <ul>
            {queue.failures.map((f, i) => (
              <li key={i}>
                <span class="hint">{opText(f.op)}</span> {f.label}: {f.message}
              </li>
            ))}
          </ul>
          <button type="button" class="link" onClick={onDismiss}>
            {t('queueDismiss')}
          </button>
        </>
      )}
    </section>
  );
}
