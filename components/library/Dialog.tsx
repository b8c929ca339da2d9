// One modal form for the library's collection actions: a text (create, rename), a choice (merge
// into), emails and a role (share), or just a confirmation (delete, Empty Trash).
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n.js';
import { openModal } from '../shared/modal.js';

export interface DialogSpec {
  title: string;
  message?: string;
  /** A text field with this label and starting value. */
  text?: { label: string; value: string; placeholder?: string };
  /** A choice with this label. */
  choice?: { label: string; options: { value: string; label: string }[] };
  /** Sharing: a role next to the text (emails). */
  role?: boolean;
  confirm: string;
  danger?: boolean;
  onSubmit: (values: { text: string; choice: string; role: 'member' | 'viewer' }) => Promise<void> | void;
}

export function Dialog({ spec, onClose }: { spec: DialogSpec; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState(spec.text?.value ?? '');
  const [choice, setChoice] = useState(spec.choice?.options[0]?.value ?? '');
  const [role, setRole] = useState<'member' | 'viewer'>('viewer');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  // Open (and focused) in the task that rendered it: keys typed right after the opening press land in it.
  useLayoutEffect(() => openModal(ref.current), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (spec.text && !text.trim()) {
      setError(t('libFieldEmpty', spec.text.label));
      return;
    }
    setBusy(true);
    setError('');
    try {
      await spec.onSubmit({ text: text.trim(), choice, role });
      onClose();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} class="dialog" aria-label={spec.title} onClose={onClose} onCancel={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <h2>{spec.title}</h2>
        {spec.message && <p>{spec.message}</p>}
        {spec.text && (
          <div class="field">
            <label for="dlg-text">{spec.text.label}</label>
            <input id="dlg-text" type="text" value={text} placeholder={spec.text.placeholder} autoFocus onInput={(e) => setText((e.target as HTMLInputElement).value)} />
          </div>
        )}
        {spec.role && (
          <div class="field">
            <label for="dlg-role">{t('libRole')}</label>
            <select id="dlg-role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as 'member' | 'viewer')}>
              <option value="viewer">{t('libRoleViewerLong')}</option>
              <option value="member">{t('libRoleMemberLong')}</option>
            </select>
          </div>
        )}
        {spec.choice && (
          <div class="field">
            <label for="dlg-choice">{spec.choice.label}</label>
            <select id="dlg-choice" value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
              {spec.choice.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
            </select>
          </div>
        )}
        {error && <p class="error" role="alert">{error}</p>}
        <div class="dialog-actions">
          <button type="button" onClick={onClose}>{t('libCancel')}</button>
          <button type="submit" class={spec.danger ? 'danger' : 'primary'} disabled={busy}>{spec.confirm}</button>
        </div>
      </form>
    </dialog>
  );
}
