// The article's text in the reader, sanitised again here (lib/library/reader-html.ts), with the
// bookmark's highlights painted and made in it (lib/library/reader-highlighter.ts), their notes on
// a card beside the text, and the list of the page's highlights below it.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Article } from '../../../lib/api/types.js';
import type { Bookmark } from '../../../lib/api/types.js';
import { t } from '../../../lib/i18n.js';
import { readerFragment } from '../../../lib/library/reader-html.js';
import { ReaderHighlighter, type ReaderHighlightsState } from '../../../lib/library/reader-highlighter.js';
import { useHost } from '../host-context.js';
import { NoteCard, type NoteCardSpec } from './NoteCard.js';
import { ReaderHighlightsList } from './ReaderHighlightsList.js';

interface Props {
  article: Article;
  bookmark: Bookmark;
}

export function ReaderArticle({ article, bookmark }: Props) {
  const host = useHost();
  const root = useRef<HTMLDivElement>(null);
  const highlighter = useRef<ReaderHighlighter | null>(null);
  const [state, setState] = useState<ReaderHighlightsState | null>(null);
  const [note, setNote] = useState<NoteCardSpec | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const el = root.current!;
    el.replaceChildren(readerFragment(article.html, bookmark.link));
    // An image that cannot be loaded any more is left out, not shown as a broken box (its text is not the article's).
    const onImageError = (e: Event) => {
      if ((e.target as Element).localName === 'img') (e.target as HTMLImageElement).hidden = true;
    };
    el.addEventListener('error', onImageError, true);
    const h = new ReaderHighlighter(el, host, { bookmarkId: bookmark._id, link: bookmark.link }, {
      changed: (s) => {
        setState(s);
        setError('');
      },
      note: (key, edit, at) => {
        const item = stateItems().find((i) => i.key === key);
        const scroller = el.closest('.reader');
        const box = scroller?.getBoundingClientRect();
        // Under the highlight, starting where it starts, kept inside the reader (the card is 480 px wide at most: reader.css).
        const width = scroller?.clientWidth ?? innerWidth;
        const left = Math.max(12, Math.min(at.left - (box?.left ?? 0), width - Math.min(480, width - 24) - 12));
        setNote({ key, edit, text: item?.note ?? '', color: item?.color ?? 'yellow', top: at.bottom - (box?.top ?? 0) + (scroller?.scrollTop ?? 0) + 8, left });
      },
      error: setError,
    });
    highlighter.current = h;
    h.start().catch((err: Error) => setError(err.message));
    return () => {
      el.removeEventListener('error', onImageError, true);
      h.destroy();
      highlighter.current = null;
    };
  }, [article.html, bookmark._id]);

  // The latest list, read when a note is opened (the highlighter's callbacks outlive renders).
  const latest = useRef(state);
  latest.current = state;
  const stateItems = () => [...(latest.current?.found ?? []), ...(latest.current?.notFound ?? [])];

  const saveNote = async (key: string, text: string) => {
    const ok = await highlighter.current?.setNote(key, text);
    if (ok) setNote(null);
    return !!ok;
  };

  return (
    <>
      {article.truncated && <p class="hint reader-truncated">{t('readerTruncated')}</p>}
      <div class="reader-article" ref={root} />
      {note && <NoteCard spec={note} onSave={saveNote} onEdit={() => setNote({ ...note, edit: true })} onClose={() => setNote(null)} />}
      {error && <p class="error" role="alert">{error}</p>}
      <ReaderHighlightsList
        state={state}
        onShow={(key) => highlighter.current?.show(key)}
        onNote={(key) => {
          const item = stateItems().find((i) => i.key === key);
          if (item) setNote({ key, edit: true, text: item.note, color: item.color, top: null, left: 0 });
        }}
      />
    </>
  );
}
