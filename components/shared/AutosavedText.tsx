// A note field that saves by itself: after a pause in typing, and when it loses focus. The text is
// kept exactly as typed (plain text, no Markdown, nothing trimmed). Shows an error under the field
// when a save fails, and leaves what was typed in place.
import { useEffect, useRef, useState } from 'preact/hooks';
import { GrowingTextarea } from './GrowingTextarea.js';

interface Props {
  id: string;
  label: string;
  value: string;
  save: (text: string) => Promise<unknown>;
  rows?: number;
  /** Grows with its text from `rows` up to this many lines, then scrolls (unset: a fixed `rows` box). */
  maxRows?: number;
  focus?: boolean;
  delayMs?: number;
  placeholder?: string;
}

export function AutosavedText({ id, label, value, save, rows = 2, maxRows, focus = false, delayMs = 600, placeholder }: Props) {
  const [text, setText] = useState(value);
  const [error, setError] = useState('');
  const saved = useRef(value);
  /** What the field holds now (read when it goes away). */
  const latest = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const field = useRef<HTMLTextAreaElement>(null);
  // A change made elsewhere (the page, the popup) shows here unless the user is typing in this field.
  useEffect(() => {
    if (value !== saved.current && document.activeElement !== field.current) {
      saved.current = value;
      latest.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (focus) field.current?.focus();
  }, [focus]);
  // Leaving (another tab shown, the panel closed) saves what was typed and not saved yet.
  useEffect(() => {
    const leave = () => flush(latest.current);
    addEventListener('pagehide', leave);
    return () => {
      removeEventListener('pagehide', leave);
      leave();
    };
  }, []);
  const flush = (next: string) => {
    clearTimeout(timer.current);
    if (next === saved.current) return;
    saved.current = next;
    save(next).then(
      () => setError(''),
      (err: Error) => setError(err.message),
    );
  };
  const attributes = {
    id,
    placeholder,
    value: text,
    onInput: (e: Event) => {
      const next = (e.target as HTMLTextAreaElement).value;
      setText(next);
      latest.current = next;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => flush(next), delayMs);
    },
    onBlur: () => flush(text),
  };
  return (
    <div class="field note-field">
      <label for={id}>{label}</label>
      {maxRows ? <GrowingTextarea {...attributes} field={field} minRows={rows} maxRows={maxRows} /> : <textarea {...attributes} ref={field} rows={rows} />}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  );
}
