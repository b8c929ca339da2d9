// A highlight's note in the reader: shown under the highlight when it is clicked, edited there
// (the toolbar's note button, or the highlights list). Saved through the host like the side panel's.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { HighlightColor } from '../../../lib/api/constants.js';
import { t } from '../../../lib/i18n.js';

export interface NoteCardSpec {
  key: string;
  edit: boolean;
  text: string;
  color: HighlightColor;
  /** Where in the reader's scrolled content, in px; null: at the list (the card is shown in place there). */
  top: number | null;
  left: number;
}

interface Props {
  spec: NoteCardSpec;
  onSave: (key: string, text: string) => Promise<boolean>;
  onEdit: () => void;
  onClose: () => void;
}

export function NoteCard({ spec, onSave, onEdit, onClose }: Props) {
  const [text, setText] = useState(spec.text);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => setText(spec.text), [spec.key, spec.text]);
  useEffect(() => {
    if (spec.edit) box.current?.focus();
  }, [spec.edit, spec.key]);

  const save = async () => {
    setBusy(true);
    try {
      await onSave(spec.key, text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <aside
      class={`note-card c-${spec.color}${spec.top === null ? ' docked' : ''}`}
      style={spec.top === null ? undefined : { top: `${spec.top}px`, left: `${spec.left}px` }}
      aria-label={t('readerNote')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && spec.edit) {
          e.preventDefault();
          void save();
        }
      }}
    >
      {spec.edit ? (
        <>
          <label for="reader-note">{t('readerNote')}</label>
          <textarea id="reader-note" ref={box} rows={4} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          <div class="note-actions">
            <button type="button" class="primary" disabled={busy} onClick={() => void save()}>{t('readerNoteSave')}</button>
            <button type="button" onClick={onClose}>{t('readerNoteCancel')}</button>
          </div>
        </>
      ) : (
        <>
          <p class="note-text">{spec.text}</p>
          <div class="note-actions">
            <button type="button" onClick={onEdit}>{t('highlightEditNote')}</button>
            <button type="button" class="icon" aria-label={t('readerNoteClose')} onClick={onClose}>✕</button>
          </div>
        </>
      )}
    </aside>
  );
}
