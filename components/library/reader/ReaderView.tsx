// The reader: a bookmark's article in readable typography, over the library (which stays where it
// was underneath, so Back returns to the same place). Title, site, byline and reading time; the
// bookmark's highlights painted in it and made there (ReaderArticle); the text's state when it is not
// indexed yet. Escape or Back closes it.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Article } from '../../../lib/api/types.js';
import type { Bookmark } from '../../../lib/api/types.js';
import { t } from '../../../lib/i18n.js';
import { readingMinutes } from '../../../lib/library/reading-time.js';
import { useHost } from '../host-context.js';
import { ReaderArticle } from './ReaderArticle.js';
import { ReaderStatus } from './ReaderStatus.js';
import './reader.css';

interface Props {
  bookmarkId: number;
  /** The bookmark as the list has it, when it does (the reader opened by its address asks the host). */
  known: Bookmark | null;
  onClose: () => void;
}

/** While the text is pending, how often the reader asks again (it shows the text by itself once it is there). */
const PENDING_RECHECK_MS = [2000, 3000, 5000, 8000, 13000, 20000];

export function ReaderView({ bookmarkId, known, onClose }: Props) {
  const host = useHost();
  const [bookmark, setBookmark] = useState<Bookmark | null>(known);
  const [article, setArticle] = useState<Article | null>(null);
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (known?._id === bookmarkId) return setBookmark(known);
    setBookmark(null);
    host.bookmark(bookmarkId).then(setBookmark, (err: Error) => setError(err.message));
  }, [bookmarkId]);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    const load = async () => {
      try {
        const a = await host.article(bookmarkId);
        if (stopped) return;
        setArticle(a);
        setError('');
        if (a.status === 'pending') timer = setTimeout(() => void load(), PENDING_RECHECK_MS[Math.min(checks++, PENDING_RECHECK_MS.length - 1)]);
      } catch (err) {
        if (!stopped) setError((err as Error).message);
      }
    };
    setArticle(null);
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [bookmarkId, attempt]);

  // Focus moves into the reader when it opens; Escape closes it (unless a note is being edited, or the toolbar has the key).
  // A layout effect: both hold from the reader's first frame, so a key pressed as soon as it shows reaches it.
  useLayoutEffect(() => {
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const target = e.composedPath()[0] as HTMLElement | undefined;
      if (target?.closest?.('textarea, input') || e.composedPath().some((n) => (n as Element).localName === 'tidemark-ui')) return;
      e.preventDefault();
      onClose();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [onClose]);

  const title = article?.title || bookmark?.title || bookmark?.link || '';
  useEffect(() => {
    if (title) document.title = `${title} · Tidemark`;
  }, [title]);

  const minutes = article?.status === 'indexed' ? readingMinutes(article.text) : 0;
  const site = article?.siteName || bookmark?.domain || '';

  return (
    <div class="reader" ref={dialog} tabIndex={-1} role="region" aria-label={t('readerLabel')}>
      <header class="reader-bar">
        <button type="button" class="back-button" onClick={onClose}>‹ {t('libBack')}</button>
        <span class="reader-bar-title" aria-hidden="true">{title}</span>
        {bookmark && (
          <a class="button secondary" href={bookmark.link} target="_blank" rel="noreferrer noopener">{t('libOpenPage')}</a>
        )}
      </header>
      <article class="reader-page">
        <header class="reader-head">
          {site && <p class="reader-site">{site}</p>}
          <h1 class="reader-title">{title}</h1>
          <p class="reader-meta">
            {article?.byline && <span class="reader-byline">{article.byline}</span>}
            {minutes > 0 && <span class="reader-time">{t('readerMinutes', minutes)}</span>}
            {article?.pageCount ? <span>{t('readerPages', article.pageCount)}</span> : null}
          </p>
        </header>
        {error ? (
          <div class="reader-status error" role="alert">
            <p>{t('readerLoadFailed', error)}</p>
            <button type="button" onClick={() => setAttempt(attempt + 1)}>{t('readerRetry')}</button>
          </div>
        ) : !article || !bookmark ? (
          <p class="reader-status" role="status">{t('readerLoading')}</p>
        ) : article.status === 'indexed' ? (
          <ReaderArticle article={article} bookmark={bookmark} />
        ) : (
          <ReaderStatus article={article} bookmarkId={bookmarkId} onRetried={() => setAttempt(attempt + 1)} />
        )}
      </article>
    </div>
  );
}
