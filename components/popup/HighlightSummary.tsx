// The page's highlights in the popup: one line ("3 highlights, 1 not found") and the way to the side
// panel, where they are listed and edited. Also what works for highlighting on this site: without
// site access, selecting text shows no toolbar; the context menu and the shortcut still work (they
// grant access to the tab), and the popup offers the site-access choice. What is said about site
// access is known before the bookmark (lib/popup/site-access-state.ts): the popup shows it from its
// first frame, under the section's heading, so nothing arrives later that makes the popup taller.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n.js';
import { onEvent, send } from '../../lib/messaging/client.js';
import type { HighlightListView } from '../../lib/messaging/protocol.js';
import type { SiteAccessState } from '../../lib/popup/site-access-state.js';
import { COLOR_VALUES } from '../../lib/painting/styles.js';
import { hasSidePanel, openSidePanel } from '../../lib/browser-differences.js';
import { AutosavedText } from '../shared/AutosavedText.js';
import { askSiteAccess } from '../shared/site-access.js';

function summaryText(view: HighlightListView): string {
  const total = view.found.length + view.notFound.length;
  if (!total) return t('popupHighlightsNone');
  const count = total === 1 ? t('highlightsOne') : t('highlightsMany', total);
  return view.notFound.length ? t('highlightsWithNotFound', count, view.notFound.length) : count;
}

/** The site-access state changed in the popup: the question was answered, or access was granted. */
type SiteAccessChange = (state: SiteAccessState) => void;

/**
 * Under the section's first line: with site access, how to highlight (true whether or not the page has
 * highlights yet, so it is there from the first frame and the popup keeps its height); without, how to
 * highlight anyway, and the question whether to allow it.
 */
function SiteAccessHints({ access, onChange }: { access: SiteAccessState; onChange: SiteAccessChange }) {
  if (access.granted) return <p class="hint">{t('popupHighlightHowWithAccess')}</p>;
  const answer = (allow: boolean) => {
    onChange({ granted: false, ask: false });
    // Recorded before the browser's prompt: the popup may close while the prompt is up, and the
    // question must not come back. A grant also arrives through permissions.onAdded.
    const recorded = send('autoPaintAnswered', { granted: false }).catch(() => null);
    if (!allow) return;
    void askSiteAccess().then((granted) => {
      if (!granted) return;
      onChange({ granted: true, ask: false });
      void recorded.then(() => send('autoPaintAnswered', { granted: true }));
    });
  };
  return (
    <>
      <p class="hint">{t('popupHighlightHowWithoutAccess')}</p>
      {access.ask && (
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
    </>
  );
}

/**
 * The section before its answers: its heading and a line where the summary comes, and what is said
 * about site access once that is known (shown while the bookmark is found or saved, too).
 */
export function HighlightsPending({ access, onChange }: { access: SiteAccessState | null; onChange: SiteAccessChange }) {
  return (
    <section class="highlights" aria-label={t('popupHighlights')} aria-busy="true">
      <h2>{t('popupHighlights')}</h2>
      <p class="hl-summary hint">{t('popupHighlightsLoading')}</p>
      {access && <SiteAccessHints access={access} onChange={onChange} />}
    </section>
  );
}

export function HighlightSummary({
  tabId,
  windowId,
  access,
  onAccessChange,
}: {
  tabId: number;
  windowId: number | undefined;
  /** Null while not known (asked with the popup's first requests). */
  access: SiteAccessState | null;
  onAccessChange: SiteAccessChange;
}) {
  const [view, setView] = useState<HighlightListView | null>(null);
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
    return onEvent('highlightsChanged', (e) => {
      if (e.tabId === null || e.tabId === tabId) void load();
    });
  }, [tabId]);
  // Until the answers come, the section is there with its heading, a line and the site-access hints
  // (the popup does not grow under the reader's pointer when they arrive).
  if (!view || !access) return <HighlightsPending access={access} onChange={onAccessChange} />;

  const openPanel = () => {
    // In the click itself: the browser opens the side panel only during the user's gesture.
    void openSidePanel(windowId).then((opened) => (opened ? close() : setPanelError(t('panelDidNotOpen'))));
  };
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
      <SiteAccessHints access={access} onChange={onAccessChange} />
    </section>
  );
}
