// Save by address, the web app's own way in (no extension to save the open tab): the server reads the
// page (GET /import/url/parse, its SSRF-safe parser) and says whether it is saved already
// (/import/url/exists); a page saved already opens for editing instead of being saved twice. The
// share target (/share → /?save=<address>&title=) opens this form filled in: one tap saves.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { UNSORTED } from '../lib/api/constants.js';
import type { Bookmark, ParsedItem, Tag } from '../lib/api/types.js';
import { t } from '../lib/i18n.js';
import type { WebHost } from '../lib/library/web-host.js';
import type { LibraryCollection } from '../lib/library/types.js';
import type { CollectionOption } from '../lib/model.js';
import { pathOf } from '../components/library/DetailPane.js';
import { CollectionPicker } from '../components/shared/CollectionPicker.js';
import { GrowingTextarea } from '../components/shared/GrowingTextarea.js';
import { openModal } from '../components/shared/modal.js';
import { TagsInput } from '../components/shared/TagsInput.js';

interface Props {
  host: WebHost;
  /** The address and title to start with (the share target's), or empty. */
  initial: { url: string; title: string };
  /** The collection the library shows, saved into when it can be. */
  collectionId: number;
  onClose: () => void;
  /** Saved (or the saved one changed): what to tell the person. */
  onSaved: (message: string) => void;
}

interface Draft {
  title: string;
  excerpt: string;
  cover: string;
  tags: string[];
  collectionId: number;
}

type Lookup =
  | { state: 'idle' }
  | { state: 'reading' }
  | { state: 'read'; parsed: ParsedItem | null; problem: string | null }
  | { state: 'saved-before'; bookmark: Bookmark };

/** An http(s) address typed or pasted, with the scheme added when left out; null when it is not one. */
export function addressOf(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || /\s/.test(trimmed)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(withScheme);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.') ? url.href : url.hostname === 'localhost' || /^\d+\.\d+\.\d+\.\d+$/.test(url.hostname) ? url.href : null;
  } catch {
    return null;
  }
}

function optionsOf(collections: LibraryCollection[]): CollectionOption[] {
  const unsorted = t('collectionUnsorted');
  const items = collections
    .filter((c) => c.level >= 3)
    .map((c) => ({ id: c.id, title: c.title, path: pathOf(c, collections).split(' / '), parentId: c.parentId, count: c.count }));
  items.sort((a, b) => a.path.join('\u0000').localeCompare(b.path.join('\u0000'), undefined, { sensitivity: 'base' }));
  return [{ id: UNSORTED, title: unsorted, path: [unsorted], parentId: null, count: 0 }, ...items];
}

export function SaveForm({ host, initial, collectionId, onClose, onSaved }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [address, setAddress] = useState(initial.url);
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const [collections, setCollections] = useState<LibraryCollection[]>([]);
  const [known, setKnown] = useState<Tag[]>([]);
  const [draft, setDraft] = useState<Draft>({ title: initial.title, excerpt: '', cover: '', tags: [], collectionId: collectionId > 0 ? collectionId : UNSORTED });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const options = useMemo(() => optionsOf(collections), [collections]);
  const link = addressOf(address);
  const existing = lookup.state === 'saved-before' ? lookup.bookmark : null;

  // Open (and focused) in the task that rendered it: keys typed right after the opening press land in it.
  useLayoutEffect(() => openModal(dialog.current), []);
  useEffect(() => {
    host.collections().then((r) => setCollections(r.items), (err: Error) => setError(err.message));
    host.tags().then(setKnown, () => setKnown([]));
  }, []);
  // The chosen collection must be one this person can save into.
  useEffect(() => {
    if (collections.length && draft.collectionId !== UNSORTED && !options.some((o) => o.id === draft.collectionId)) setDraft((d) => ({ ...d, collectionId: UNSORTED }));
  }, [options]);

  // Read the page once the address has stood still a moment (typing) or at once (pasted, shared).
  const asked = useRef('');
  useEffect(() => {
    if (!link || link === asked.current) return;
    const timer = setTimeout(() => void look(link), address === initial.url ? 0 : 500);
    return () => clearTimeout(timer);
  }, [link]);

  const look = async (url: string) => {
    asked.current = url;
    setLookup({ state: 'reading' });
    setError('');
    const [parsed, exists] = await Promise.allSettled([host.api.parseUrl(url), host.api.urlExists([url], { retries: 0 })]);
    if (asked.current !== url) return; // another address since
    const savedId = exists.status === 'fulfilled' && exists.value.result ? exists.value.ids[0] : undefined;
    if (savedId !== undefined) {
      try {
        const b = await host.api.getBookmark(savedId);
        if (asked.current !== url) return;
        setLookup({ state: 'saved-before', bookmark: b });
        setDraft({ title: b.title, excerpt: b.excerpt, cover: b.cover, tags: b.tags, collectionId: b.collectionId });
        return;
      } catch {
        // Could not be read (moved to another account's collection, gone): offered as a new save.
      }
    }
    const item = parsed.status === 'fulfilled' ? parsed.value : null;
    setLookup({ state: 'read', parsed: item, problem: parsed.status === 'rejected' ? (parsed.reason as Error).message : null });
    if (item) {
      setDraft((d) => ({
        ...d,
        title: d.title.trim() && initial.title && address === initial.url ? d.title : item.title || d.title,
        excerpt: item.excerpt,
        cover: item.media.find((m) => m.type === 'image')?.link ?? '',
      }));
    }
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!link) return setError(t('webSaveBadAddress'));
    setSaving(true);
    setError('');
    try {
      if (existing) {
        await host.updateBookmark(existing._id, { title: draft.title, excerpt: draft.excerpt, tags: draft.tags, collectionId: draft.collectionId });
        onSaved(t('webSaveUpdated'));
      } else {
        if (typeof navigator !== 'undefined' && navigator.onLine === false) throw new Error(t('webOfflineEdit'));
        await host.api.createBookmark({
          link,
          title: draft.title.trim() || undefined,
          excerpt: draft.excerpt || undefined,
          cover: draft.cover || undefined,
          tags: draft.tags,
          collection: { $id: draft.collectionId },
          // The server reads the page again in the background (the cover and the permanent copy) when nothing was read here.
          ...(lookup.state === 'read' && lookup.parsed ? {} : { pleaseParse: {} }),
        });
        const where = options.find((o) => o.id === draft.collectionId)?.path.join(' / ') ?? t('collectionUnsorted');
        onSaved(t('webSavedIn', where));
      }
    } catch (err) {
      setError(host.writeError(err).message);
      setSaving(false);
    }
  };

  const reading = lookup.state === 'reading';
  const existingPlace = existing ? pathOfId(existing.collectionId, collections) : '';
  return (
    <dialog ref={dialog} class="save-dialog" aria-labelledby="save-heading" onCancel={(e) => { e.preventDefault(); onClose(); }}>
      <form class="save-form" onSubmit={(e) => void submit(e)}>
        <div class="save-head">
          <h2 id="save-heading">{existing ? t('webSaveEditHeading') : t('webSaveHeading')}</h2>
          <button type="button" class="icon" aria-label={t('webSaveClose')} onClick={onClose}>✕</button>
        </div>
        <div class="field">
          <label for="save-url">{t('webSaveAddress')}</label>
          <input
            id="save-url"
            type="url"
            inputMode="url"
            autoComplete="url"
            autoFocus={!initial.url}
            placeholder="https://"
            value={address}
            onInput={(e) => setAddress((e.target as HTMLInputElement).value)}
            onBlur={() => link && link !== asked.current && void look(link)}
            required
          />
          {address && !link && <span class="hint warn">{t('webSaveBadAddress')}</span>}
        </div>
        <p class="save-status" role="status">
          {reading ? t('webSaveReading') : lookup.state === 'read' && lookup.problem ? t('webSaveNotRead', lookup.problem) : ''}
        </p>
        {existing && (
          <p class="notice" role="status">
            {t('webSaveAlreadySaved', existingPlace)}
          </p>
        )}
        <div class="save-preview">
          {draft.cover && <img class="save-cover" src={draft.cover} alt="" referrerpolicy="no-referrer" />}
          <div class="save-fields">
            <div class="field">
              <label for="save-title">{t('fieldTitle')}</label>
              <input id="save-title" type="text" value={draft.title} placeholder={reading ? t('webSaveReading') : ''} onInput={(e) => setDraft({ ...draft, title: (e.target as HTMLInputElement).value })} />
            </div>
            <div class="field">
              <label for="save-excerpt">{t('fieldExcerpt')}</label>
              <GrowingTextarea id="save-excerpt" minRows={2} maxRows={5} value={draft.excerpt} onInput={(e) => setDraft({ ...draft, excerpt: (e.target as HTMLTextAreaElement).value })} />
            </div>
          </div>
        </div>
        <div class="save-collection">
          <CollectionPicker
            items={options}
            recent={[]}
            value={draft.collectionId}
            onChange={(id) => setDraft({ ...draft, collectionId: id })}
            onCreate={async (title, parentId) => {
              const id = await host.collectionOp({ op: 'create', title, parentId });
              const fresh = await host.collections();
              setCollections(fresh.items);
              const made = fresh.items.find((c) => c.id === id);
              return { id: id ?? UNSORTED, title, path: made ? pathOf(made, fresh.items).split(' / ') : [title], parentId, count: 0 };
            }}
          />
        </div>
        <TagsInput value={draft.tags} known={known} suggested={lookup.state === 'read' ? (lookup.parsed?.meta.tags ?? []).slice(0, 6) : []} onChange={(tags) => setDraft({ ...draft, tags })} />
        {error && <p class="error" role="alert">{error}</p>}
        <div class="save-actions">
          {existing && <a class="button secondary" href={existing.link} target="_blank" rel="noreferrer noopener">{t('webSaveOpenPage')}</a>}
          <button type="button" onClick={onClose}>{t('webSaveCancel')}</button>
          <button type="submit" class="primary" disabled={saving || !link}>
            {saving ? t('statusSaving') : existing ? t('webSaveChanges') : t('webSaveButton')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function pathOfId(id: number, collections: LibraryCollection[]): string {
  if (id === UNSORTED) return t('collectionUnsorted');
  const c = collections.find((x) => x.id === id);
  return c ? pathOf(c, collections) : t('collectionUnsorted');
}
