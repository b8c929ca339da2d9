// The page's highlights in the popup: in page order with colour, text and an editable note; those
// the page no longer contains under "Not found on this page". A click shows the highlight on the page.
// Notes are edited here (extension origin), never in the page.
import { useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../../lib/i18n.js';
import { send } from '../../lib/messaging/client.js';
import type { HighlightListItem, HighlightListView } from '../../lib/messaging/protocol.js';
import { COLOR_VALUES } from '../../lib/painting/styles.js';
import './highlight-list.css';

const AUTO_PAINT_ORIGINS = ['http://*/*', 'https://*/*'];
const NOTE_SAVE_DELAY_MS = 600;

function NoteField({ tabId, item, focus, onSaved }: { tabId: number; item: HighlightListItem; focus: boolean; onSaved: (v: HighlightListView) => void }) {
  const [value, setValue] = useState(item.note);
  const [error, setError] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  const save = (note: string) => {
    clearTimeout(timer.current);
    if (note === item.note) return;
    send('setHighlightNote', { tabId, key: item.key, note }).then(
      (v) => {
        setError('');
        onSaved(v);
      },
      (err: Error) => setError(err.message),
    );
  };
  const id = `hl-note-${item.key}`;
  return (
    <div class="hl-note">
      <label for={id} class="hint">
        {t('popupHighlightNote')}
      </label>
      <textarea
        id={id}
        ref={ref}
        rows={2}
        value={value}
        onInput={(e) => {
          const note = (e.target as HTMLTextAreaElement).value;
          setValue(note);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => save(note), NOTE_SAVE_DELAY_MS);
        }}
        onBlur={() => save(value)}
      />
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  );
}

function Item({ tabId, item, found, focus, onSaved }: { tabId: number; item: HighlightListItem; found: boolean; focus: boolean; onSaved: (v: HighlightListView) => void }) {
  return (
    <li class="hl-item">
      <span class="hl-swatch" style={{ background: COLOR_VALUES[item.color] }} title={t(`color_${item.color}`)} />
      {found ? (
        // Scrolling to a highlight that vanished meanwhile does nothing; the list refreshes on its own.
        <button type="button" class="link hl-text" title={t('popupHighlightShow')} onClick={() => void send('showHighlight', { tabId, key: item.key }).catch(() => {})}>
          {item.text}
        </button>
      ) : (
        <span class="hl-text">{item.text}</span>
      )}
      <NoteField tabId={tabId} item={item} focus={focus} onSaved={onSaved} />
    </li>
  );
}

export function HighlightList({ tabId }: { tabId: number }) {
  const [view, setView] = useState<HighlightListView | null>(null);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    send('listHighlights', { tabId }).then(
      (v) => {
        setView(v);
        setFocusKey(v.editNoteOf);
      },
      () => {
        // No list (tab closed, page not readable): the section stays hidden.
      },
    );
  }, [tabId]);
  if (!view) return null;
  const onSaved = (v: HighlightListView) => setView({ ...v, editNoteOf: null });
  const answer = (allow: boolean) => {
    setAsked(true);
    // Recorded before the browser's prompt: the popup may close while the prompt is up, and the
    // question must not come back. A grant also arrives through permissions.onAdded.
    const recorded = send('autoPaintAnswered', { granted: false }).catch(() => null);
    if (!allow) return;
    // Called in the click itself, so the browser sees the user's gesture.
    void browser.permissions
      .request({ origins: AUTO_PAINT_ORIGINS })
      .then((granted) => (granted ? recorded.then(() => send('autoPaintAnswered', { granted: true })) : null))
      .catch(() => {});
  };
  return (
    <section class="highlights" aria-label={t('popupHighlights')}>
      <h2>{t('popupHighlights')}</h2>
      {view.askAutoPaint && !asked && (
        <div class="hl-ask">
          <p>{t('popupAutoPaintText')}</p>
          <button type="button" onClick={() => answer(true)}>
            {t('popupAutoPaintAllow')}
          </button>{' '}
          <button type="button" class="link" onClick={() => answer(false)}>
            {t('popupAutoPaintNo')}
          </button>
        </div>
      )}
      {!view.found.length && !view.notFound.length && <p class="hint">{t('popupHighlightsEmpty')}</p>}
      {view.found.length > 0 && (
        <ol class="hl-list">
          {view.found.map((h) => (
            <Item key={h.key} tabId={tabId} item={h} found={h.status !== 'unknown'} focus={h.key === focusKey} onSaved={onSaved} />
          ))}
        </ol>
      )}
      {view.notFound.length > 0 && (
        <section aria-label={t('popupHighlightsNotFound')}>
          <h3>{t('popupHighlightsNotFound')}</h3>
          <ul class="hl-list">
            {view.notFound.map((h) => (
              <Item key={h.key} tabId={tabId} item={h} found={false} focus={h.key === focusKey} onSaved={onSaved} />
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
