// The reader's highlights in the web app: straight to the API (PUT /bookmark/{id} with `highlights`,
// the one way the API writes them), in the same form the extension's highlighter stores, so the
// extension paints them on the live page. The colours are offered as the extension first offers them,
// the last one used on this device first.
import type { TidemarkApi } from '../api/client/index.js';
import { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';
import type { Bookmark, HighlightChange } from '../api/types.js';
import { STARTER_COLORS } from '../highlight-color-order.js';
import type { StoredHighlight } from '../model.js';
import type { LibraryHost } from './host.js';
import type { ReaderHighlights } from './types.js';

const LAST_COLOR = 'tidemark.lastHighlightColor';

function lastColor(): HighlightColor {
  let kept: string | null = null;
  try {
    kept = localStorage.getItem(LAST_COLOR);
  } catch {
    // Storage refused (private mode, a policy): the first colour.
  }
  return (HIGHLIGHT_COLORS as readonly string[]).includes(kept ?? '') ? (kept as HighlightColor) : 'yellow';
}

function used(color: HighlightColor): void {
  try {
    localStorage.setItem(LAST_COLOR, color);
  } catch {
    // As above: the choice is simply not remembered.
  }
}

function view(b: Bookmark): ReaderHighlights {
  const last = lastColor();
  const items: StoredHighlight[] = b.highlights.map((h) => ({ key: h._id, text: h.text, color: h.color, note: h.note, position: h.position, prefix: h.prefix, suffix: h.suffix }));
  return { items, colors: [last, ...STARTER_COLORS.filter((c) => c !== last)], lastColor: last };
}

type ReaderMethods = Pick<LibraryHost, 'bookmark' | 'readerHighlights' | 'addHighlight' | 'changeHighlight' | 'removeHighlight'>;

/** The host's reader methods; `read` and `write` give failures the web host's words (signed out, offline). */
export function webReaderHighlights(api: TidemarkApi, read: <T>(run: () => Promise<T>) => Promise<T>, write: <T>(run: () => Promise<T>) => Promise<T>): ReaderMethods {
  const put = (id: number, highlights: HighlightChange[]) => api.updateBookmark(id, { highlights }, { retries: 1 });
  return {
    bookmark: (id) => read(() => api.getBookmark(id, { retries: 1 })),
    readerHighlights: ({ bookmarkId }) => read(async () => view(await api.getBookmark(bookmarkId, { retries: 1 }))),
    addHighlight: ({ bookmarkId }, h) =>
      write(async () => {
        const before = new Set((await api.getBookmark(bookmarkId, { retries: 1 })).highlights.map((x) => x._id));
        const b = await put(bookmarkId, [{ text: h.text, color: h.color, ...(h.position !== undefined ? { position: h.position } : {}), ...(h.prefix !== undefined ? { prefix: h.prefix } : {}), ...(h.suffix !== undefined ? { suffix: h.suffix } : {}) }]);
        used(h.color);
        const added = b.highlights.filter((x) => !before.has(x._id));
        const key = (added.find((x) => x.text === h.text) ?? added[added.length - 1])?._id ?? '';
        return { ...view(b), key };
      }),
    changeHighlight: ({ bookmarkId }, key, fields) =>
      write(async () => {
        const b = await put(bookmarkId, [{ _id: key, ...fields }]);
        if (fields.color) used(fields.color);
        return view(b);
      }),
    removeHighlight: ({ bookmarkId }, key) => write(async () => view(await put(bookmarkId, [{ _id: key, text: '' }]))),
  };
}
