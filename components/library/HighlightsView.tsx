// All highlights (GET /highlights, or of one collection), grouped by page, filterable by colour;
// each opens its page scrolled to it.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { HIGHLIGHT_COLORS, type HighlightColor } from '../../lib/api/constants.js';
import type { HighlightListItem } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import { useHost } from './host-context.js';

interface Props {
  collectionId: number;
  color: HighlightColor | null;
  onColor: (c: HighlightColor | null) => void;
  onMessage: (text: string) => void;
}

const PAGE = 50;

export function HighlightsView({ collectionId, color, onColor, onMessage }: Props) {
  const host = useHost();
  const [items, setItems] = useState<HighlightListItem[]>([]);
  const [page, setPage] = useState(0);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');

  const load = async (p: number, reset: boolean) => {
    setLoading(true);
    setError('');
    try {
      const next = await host.highlights(collectionId, p);
      setItems((prev) => (reset ? next : [...prev, ...next]));
      setPage(p + 1);
      setDone(next.length < PAGE);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    setItems([]);
    setDone(false);
    void load(0, true);
  }, [collectionId]);

  const groups = useMemo(() => {
    const out = new Map<number, { title: string; link: string; items: HighlightListItem[] }>();
    for (const h of items) {
      if (color && h.color !== color) continue;
      const g = out.get(h.bookmarkRef);
      if (g) g.items.push(h);
      else out.set(h.bookmarkRef, { title: h.title, link: h.link, items: [h] });
    }
    return [...out.entries()];
  }, [items, color]);

  const open = async (h: HighlightListItem) => {
    try {
      const shown = await host.openHighlight(h.link, h._id);
      if (!shown) onMessage(t('libHighlightNotShown'));
    } catch (err) {
      onMessage((err as Error).message);
    }
  };

  return (
    <section class="highlights-view" aria-label={t('libAllHighlights')}>
      <div class="color-filter" role="group" aria-label={t('libColourFilter')}>
        <button type="button" class={color === null ? 'chip on' : 'chip'} aria-pressed={color === null} onClick={() => onColor(null)}>{t('libAllColours')}</button>
        {HIGHLIGHT_COLORS.map((c) => (
          <button key={c} type="button" class={`chip swatch c-${c}${color === c ? ' on' : ''}`} aria-pressed={color === c} aria-label={t(`color_${c}`)} title={t(`color_${c}`)} onClick={() => onColor(color === c ? null : c)} />
        ))}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {!loading && !error && groups.length === 0 && (
        <div class="empty">
          <p>{color ? t('libNoHighlightsColour') : t('libNoHighlights')}</p>
          {color && <button type="button" onClick={() => onColor(null)}>{t('libShowAllColours')}</button>}
        </div>
      )}
      {groups.map(([id, g]) => (
        <article key={id} class="hl-group">
          <h3>
            <a href={g.link} target="_blank" rel="noreferrer noopener">{g.title || g.link}</a>
            <span class="domain">{hostOf(g.link)}</span>
          </h3>
          <ul class="hl-list">
            {g.items.map((h) => (
              <li key={h._id} class={`hl c-${h.color}`}>
                <button type="button" class="hl-text" aria-label={t('libOpenHighlight', short(h.text))} onClick={() => void open(h)}>
                  <blockquote>{h.text}</blockquote>
                </button>
                {h.note && <p class="hl-note">{h.note}</p>}
              </li>
            ))}
          </ul>
        </article>
      ))}
      {!done && !error && (
        <p class="more-row">
          {loading ? t('libLoading') : <button type="button" class="link" onClick={() => void load(page, false)}>{t('libLoadMore')}</button>}
        </p>
      )}
    </section>
  );
}

function hostOf(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

const short = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
