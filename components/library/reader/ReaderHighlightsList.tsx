// The page's highlights under the reader's text: those found, in the text's order (each goes to its
// place and offers its toolbar: the keyboard's way to them), with their notes; then those whose text
// is not in the reader's version of the page, under "Not found here", as the side panel lists them.
import type { StoredHighlight } from '../../../lib/model.js';
import { t } from '../../../lib/i18n.js';
import type { ReaderHighlightsState } from '../../../lib/library/reader-highlighter.js';

interface Props {
  state: ReaderHighlightsState | null;
  onShow: (key: string) => void;
  onNote: (key: string) => void;
}

const short = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

export function ReaderHighlightsList({ state, onShow, onNote }: Props) {
  if (!state) return null;
  const count = state.found.length + state.notFound.length;
  const item = (h: StoredHighlight, found: boolean) => (
    <li key={h.key} class={`hl c-${h.color}`}>
      {found ? (
        <button type="button" class="hl-text" aria-label={t('readerGoToHighlight', short(h.text))} onClick={() => onShow(h.key)}>
          <blockquote>{h.text}</blockquote>
        </button>
      ) : (
        <blockquote class="hl-text">{h.text}</blockquote>
      )}
      {h.note && <p class="hl-note">{h.note}</p>}
      <button type="button" class="link" onClick={() => onNote(h.key)}>{h.note ? t('highlightEditNote') : t('highlightAddNote')}</button>
    </li>
  );
  return (
    <section class="reader-highlights" id="reader-highlights" aria-label={t('readerHighlights', count)}>
      <h2>{t('readerHighlights', count)}</h2>
      {count === 0 && <p class="hint">{t('readerNoHighlights')}</p>}
      {state.found.length > 0 && <ul class="hl-list">{state.found.map((h) => item(h, true))}</ul>}
      {state.notFound.length > 0 && (
        <>
          <h3>{t('readerNotFound')}</h3>
          <p class="hint">{t('readerNotFoundHint')}</p>
          <ul class="hl-list not-found">{state.notFound.map((h) => item(h, false))}</ul>
        </>
      )}
    </section>
  );
}
