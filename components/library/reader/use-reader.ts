// Opening and closing the reader from the library. Opening adds a history entry (`?read=<id>`), so
// Back (the button, Escape, the browser's) goes back through it to the same place in the list, and
// the Read button that opened it has the focus again; opened by its address, closing goes to the list.
import { useCallback, useEffect, useRef } from 'preact/hooks';
import type { Bookmark } from '../../../lib/api/types.js';
import type { LibraryState } from '../../../lib/library/url-state.js';

/**
 * `refresh`: called with the bookmark the reader showed once it closes (its highlights may have
 * changed there: the list's row and the detail pane show them again).
 */
export function useReader(read: number | null, go: (patch: Partial<LibraryState>) => void, refresh: (id: number) => void): { open: (b: Bookmark) => void; close: () => void } {
  const shown = useRef<number | null>(null);
  const from = useRef<number | null>(null);
  const open = useCallback((b: Bookmark) => {
    from.current = b._id;
    go({ read: b._id });
  }, []);
  const close = useCallback(() => (from.current !== null ? history.back() : go({ read: null })), []);
  useEffect(() => {
    if (read !== null) {
      shown.current = read;
      return;
    }
    if (shown.current !== null) refresh(shown.current);
    shown.current = null;
    if (from.current === null) return;
    document.querySelector<HTMLElement>(`#bm-${from.current} .read-button, .detail .read-button`)?.focus();
    from.current = null;
  }, [read]);
  return { open, close };
}
