// The page's highlights in the popup: one line ("3 highlights, 1 not found") and the way to the side
// panel, where they are listed and edited. Also what works for highlighting on this site: without
// site access, selecting text shows no toolbar; the context menu and the shortcut still work (they
// grant access to the tab), and the popup offers the site-access choice.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n.js';
import { onEvent, send } from '../../lib/messaging/client.js';
import type { HighlightListView } from '../../lib/messaging/protocol.js';
import { COLOR_VALUES } from '../../lib/painting/styles.js';
import { hasSidePanel, openSidePanel } from '../../lib/browser-differences.js';
import { AutosavedText } from '../shared/AutosavedText.js';
import { askSiteAccess, hasSiteAccess } from '../shared/site-access.js';

function summaryText(view: HighlightListView): string {
  const total = view.found.length + view.notFound.length;
  if (!total) return t('popupHighlightsNone');
  const count = total === 1 ? t('highlightsOne') : t('highlightsMany', total);
  return view.notFound.length ? t('highlightsWithNotFound', count, view.notFound.length) : count;
}

export function HighlightSummary({ tabId, windowId }: { tabId: number; windowId: number | undefined }) {
  const [view, setView] = useState<HighlightListView | null>(null);
  const [access, setAccess] = useState<boolean | null>(null);
  const [answered, setAnswered] = useState(false);
  const [panelError, setPanelError] = useState('');
  const [noteKey, setNoteKey] = useState<string | null>(null);
  useEffect(() => {
    const load = () =>
      send('listHighlights', { tabId }).then(
        (v) => {
          setView(v);
          if (v.editNoteOf) setNoteKey(v.editNoteOf);
        },
        () => setView({ found: [], notFound: [], askAutoPaint: false, editNoteOf: null }),
      );
    void load();
    void hasSiteAccess().then(setAccess);
    return onEvent('highlightsChanged', (e) => {
      if (e.tabId === null || e.tabId === tabId) void load();
    });
  }, [tabId]);
  // Until the answers come, the section is there with its heading and a line (the popup does not grow
  // under the reader's pointer when they arrive; what depends on them comes below that line).
  if (!view || access === null) {
    return (
      <section class="highlights" aria-label={t('popupHighlights')} aria-busy="true">
        <h2>{t('popupHighlights')}</h2>
        <p class="hl-summary hint">{t('popupHighlightsLoading')}</p>
      </section>
    );
  }

  const openPanel = () => {
    // In the click itself: the browser opens the side panel only during the user's gesture.
    void openSidePanel(windowId).then((opened) => (opened ? close() : setPanelError(t('panelDidNotOpen'))));
  };
  const answer = (allow: boolean) => {
    setAnswered(true);
    // Recorded before the browser's prompt: the popup may close while the prompt is up, and the
    // question must not come back. A grant also arrives through permissions.onAdded.
    const recorded = send('autoPaintAnswered', { granted: false }).catch(() => null);
    if (!allow) return;
    void askSiteAccess().then((granted) => {
      if (!granted) return;
      setAccess(true);
      void recorded.then(() => send('autoPaintAnswered', { granted: true }));
    });
  };
  const ask = view.askAutoPaint && !answered;
  // "Highlight with note" when the side panel could not be opened: that one note, here.
  const noteOf = noteKey ? [...view.found, ...view.notFound].find((h) => h.key === noteKey) : undefined;
  return (
    <section class="highlights" aria-label={t('popupHighlights')}>
      <h2>{t('popupHighlights')}</h2>
      <p class="hl-summary">
        <span data-testid="highlight-summary">{summaryText(view)}</span>
        {hasSidePanel() && (
          <>
            {' '}
            <button type="button" class="link" onClick={openPanel}>
              {t('popupOpenSidePanel')}
            </button>
          </>
        )}
      </p>
      {noteOf && (
        <ul class="hl-list">
          <li class="hl-item" key={noteOf.key}>
            <span class="hl-swatch" style={{ background: COLOR_VALUES[noteOf.color] }} />
            <div class="hl-body">
              <p class="hl-text">{noteOf.text}</p>
              <AutosavedText
                id={`hl-note-${noteOf.key}`}
                label={t('popupHighlightNote')}
                value={noteOf.note}
                focus
                save={(note) => send('setHighlightNote', { tabId, key: noteOf.key, note })}
              />
            </div>
          </li>
        </ul>
      )}
      {panelError && (
        <p role="alert" class="error">
          {panelError}
        </p>
      )}
      {!access && <p class="hint">{t('popupHighlightHowWithoutAccess')}</p>}
      {access && view.found.length + view.notFound.length === 0 && <p class="hint">{t('popupHighlightsEmpty')}</p>}
      {!access && ask && (
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
    </section>
  );
}
