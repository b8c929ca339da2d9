// The message after a change (with Undo when it has one) or an error; it goes away by itself,
// an error after longer.
import { useEffect } from 'preact/hooks';
import { t } from '../../lib/i18n.js';

export interface ToastSpec {
  text: string;
  error?: boolean;
  /** This message offers to undo the change it reports. */
  undo?: boolean;
}

interface Props {
  toast: ToastSpec;
  canUndo: boolean;
  busy: boolean;
  onUndo: () => void;
  onClose: () => void;
}

export function Toast({ toast, canUndo, busy, onUndo, onClose }: Props) {
  useEffect(() => {
    const timer = setTimeout(onClose, toast.error ? 12_000 : 8_000);
    return () => clearTimeout(timer);
  }, [toast]);
  return (
    <div class={`toast${toast.error ? ' error' : ''}`} role={toast.error ? 'alert' : 'status'}>
      <span>{toast.text}</span>
      {canUndo && toast.undo && !toast.error && (
        <button type="button" class="link" disabled={busy} onClick={onUndo}>{t('libUndo')}</button>
      )}
      <button type="button" class="icon" aria-label={t('libDismiss')} onClick={onClose}>✕</button>
    </div>
  );
}
