// Opening and closing the reader from the library. Opening adds a history entry (`?read=<id>`), so
// Back (the button, Escape, the browser's) goes back through it to the same place in the list, and
// the Read button that opened it has the focus again; opened by its address, closing goes to the list.
import { useCallback, useEffect, useRef } from 'preact/hooks';
import type { Bookmark } from '../../../lib/api/types.js';
import type { LibraryState } from '../../../lib/library/url-state.js';

export function useReader(read: number | null, go: (patch: Partial<LibraryState>) => void): { open: (b: Bookmark) => void; close: () => void } {
  const from = useRef<number | null>(null);
  const open = useCallback((b: Bookmark) => {
    from.current = b._id;
    go({ read: b._id });
  }, []);
  const close = useCallback(() => (from.current !== null ? history.back() : go({ read: null })), []);
  useEffect(() => {
    if (read !== null || from.current === null) return;
    document.querySelector<HTMLElement>(`#bm-${from.current} .read-button, .detail .read-button`)?.focus();
    from.current = null;
  }, [read]);
  return { open, close };
}
