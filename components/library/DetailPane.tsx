// The opened bookmark: edit title, excerpt, note, tags, collection and favourite (saved through
// the host as the popup's edits are, queued offline in the extension), see its highlights, open the page.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Bookmark, Tag } from '../../lib/api/types.js';
import { HIGHLIGHT_COLORS } from '../../lib/api/constants.js';
import { t } from '../../lib/i18n.js';
import { useHost } from './host-context.js';
import type { LibraryCollection } from '../../lib/library/types.js';
import { GrowingTextarea } from '../shared/GrowingTextarea.js';
import { TagsInput } from '../shared/TagsInput.js';
import { TextState } from './TextState.js';

interface Props {
  bookmark: Bookmark;
  collections: LibraryCollection[];
  tags: Tag[];
  readOnly: boolean;
  onSaved: (b: Bookmark) => void;
  onClose: () => void;
  /** Opens the bookmark's text in the reader. */
  onRead: (b: Bookmark) => void;
  onOpenHighlight: (b: Bookmark, highlightId: string) => void;
}

type Draft = Pick<Bookmark, 'title' | 'excerpt' | 'note' | 'tags' | 'important' | 'collectionId'>;
type TextField = 'title' | 'excerpt' | 'note';
const TEXT_FIELDS: TextField[] = ['title', 'excerpt', 'note'];

export function DetailPane({ bookmark, collections, tags, readOnly, onSaved, onClose, onRead, onOpenHighlight }: Props) {
  const host = useHost();
  const [draft, setDraft] = useState<Draft>(() => pick(bookmark));
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'queued' | 'error'>('idle');
  const [error, setError] = useState('');
  /** The text fields as last sent: a field is saved when left, if it differs. */
  const sent = useRef<Pick<Draft, TextField>>(pick(bookmark));
  const latest = useRef({ draft, bookmark });
  latest.current = { draft, bookmark };
  /** Saves go one after another, so the last one sent is the one the server keeps. */
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const save = (changes: Partial<Draft>, of = latest.current) => {
    const next = { ...of.draft, ...changes };
    if (of.bookmark._id === latest.current.bookmark._id) setDraft(next);
    for (const f of TEXT_FIELDS) if (f in changes) sent.current[f] = next[f];
    setStatus('saving');
    const run = queue.current.then(async () => {
      try {
        const r = await host.updateBookmark(of.bookmark._id, changes);
        if (of.bookmark._id === latest.current.bookmark._id) setStatus(r.queued ? 'queued' : 'saved');
        onSaved({ ...of.bookmark, ...next });
      } catch (err) {
        setStatus('error');
        setError((err as Error).message);
      }
    });
    queue.current = run;
    return run;
  };
  /** Text typed and not yet saved (the field was not left yet). */
  const unsaved = (of = latest.current): Partial<Draft> => {
    const out: Partial<Draft> = {};
    for (const f of TEXT_FIELDS) if (of.draft[f] !== sent.current[f]) out[f] = of.draft[f];
    return out;
  };
  // Another bookmark opened, or the pane closed, with a field still being typed in: that text is saved too.
  useEffect(() => {
    setDraft(pick(bookmark));
    sent.current = pick(bookmark);
    setStatus('idle');
    return () => {
      const left = { ...latest.current, bookmark };
      const changes = unsaved(left);
      if (Object.keys(changes).length) void save(changes, left);
    };
  }, [bookmark._id]);
  const edit = (field: TextField) => ({
    value: draft[field],
    onInput: (e: Event) => setDraft({ ...draft, [field]: (e.target as HTMLInputElement | HTMLTextAreaElement).value }),
    onBlur: () => {
      const changes = unsaved();
      if (field in changes) void save({ [field]: changes[field] });
    },
  });

  const colorIndex = (c: string) => HIGHLIGHT_COLORS.indexOf(c as (typeof HIGHLIGHT_COLORS)[number]);

  return (
    <aside class="detail" aria-label={t('libDetails')}>
      <div class="detail-head">
        {/* Shown on a narrow screen, where the pane covers the list (library.css). */}
        <button type="button" class="back-button" onClick={onClose}>‹ {t('libBack')}</button>
        <h2>{t('libDetails')}</h2>
        <span class={`save-state ${status}`} role="status">
          {status === 'saving' ? t('statusSaving') : status === 'saved' ? t('statusSaved') : status === 'queued' ? t('statusQueued') : status === 'error' ? error : ''}
        </span>
        <button type="button" class="icon" aria-label={t('libCloseDetails')} onClick={onClose}>✕</button>
      </div>
      {readOnly && <p class="hint read-only-note">{t('libReadOnlyHere')}</p>}
      {bookmark.cover && <img class="detail-cover" src={bookmark.cover} alt="" referrerpolicy="no-referrer" />}
      <div class="field">
        <label for="d-title">{t('libFieldTitle')}</label>
        <input id="d-title" type="text" disabled={readOnly} {...edit('title')} />
      </div>
      <div class="actions-row">
        <button type="button" class="primary read-button" onClick={() => onRead(bookmark)}>{t('readerRead')}</button>
        <a class="button" href={bookmark.link} target="_blank" rel="noreferrer noopener">{t('libOpenPage')}</a>
        {bookmark.cache?.status === 'ready' && (
          <a class="button secondary" href={host.savedCopyUrl(bookmark._id)} target="_blank">{t('libOpenSavedCopy')}</a>
        )}
        <label class="fav-toggle">
          <input type="checkbox" checked={draft.important} disabled={readOnly} onChange={(e) => void save({ important: (e.target as HTMLInputElement).checked })} />
          {t('libFavourite')}
        </label>
      </div>
      <p class="hint link-text">{bookmark.link}</p>
      <TextState bookmark={bookmark} readOnly={readOnly} onChange={(article) => onSaved({ ...latest.current.bookmark, article })} />
      <div class="field">
        <label for="d-collection">{t('libFieldCollection')}</label>
        <select id="d-collection" value={String(draft.collectionId)} disabled={readOnly} onChange={(e) => void save({ collectionId: Number((e.target as HTMLSelectElement).value) })}>
          <option value="-1">{t('collectionUnsorted')}</option>
          {collections.filter((c) => c.level >= 3 || c.id === draft.collectionId).map((c) => <option key={c.id} value={String(c.id)}>{pathOf(c, collections)}</option>)}
        </select>
      </div>
      <div class="field">
        <TagsInput value={draft.tags} known={tags} suggested={[]} onChange={(next) => void save({ tags: next })} disabled={readOnly} />
      </div>
      <div class="field">
        <label for="d-excerpt">{t('libFieldExcerpt')}</label>
        <GrowingTextarea id="d-excerpt" minRows={3} maxRows={20} disabled={readOnly} {...edit('excerpt')} />
      </div>
      <div class="field">
        <label for="d-note">{t('libFieldNote')}</label>
        <GrowingTextarea id="d-note" minRows={4} maxRows={20} disabled={readOnly} {...edit('note')} />
      </div>
      <h3>{t('libHighlightsOf', bookmark.highlights.length)}</h3>
      {bookmark.highlights.length === 0 ? (
        <p class="hint">{t('libNoHighlightsHere')}</p>
      ) : (
        <ul class="hl-list">
          {[...bookmark.highlights].sort((a, b) => colorIndex(a.color) - colorIndex(b.color) || 0).map((h) => (
            <li key={h._id} class={`hl c-${h.color}`}>
              <button type="button" class="hl-text" aria-label={t('libOpenHighlight', short(h.text))} onClick={() => onOpenHighlight(bookmark, h._id)}>
                <blockquote>{h.text}</blockquote>
              </button>
              {h.note && <p class="hl-note">{h.note}</p>}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}

function pick(b: Bookmark): Draft {
  return { title: b.title, excerpt: b.excerpt, note: b.note, tags: b.tags, important: b.important, collectionId: b.collectionId };
}

export function pathOf(c: LibraryCollection, all: LibraryCollection[]): string {
  const byId = new Map(all.map((x) => [x.id, x]));
  const parts = [c.title];
  let cur = c;
  for (let guard = 0; cur.parentId !== null && guard < 64; guard++) {
    const parent = byId.get(cur.parentId);
    if (!parent) break;
    parts.unshift(parent.title);
    cur = parent;
  }
  return parts.join(' / ');
}

const short = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
