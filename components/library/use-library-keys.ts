// The library's keyboard: / to search, j/k or arrows to move, Enter to open, e to edit, Space to
// select, Delete to trash, Escape to step back. What a key means is decided in
// lib/library/library-state.ts (keyCommand); this carries it out.
import { useEffect, useRef } from 'preact/hooks';
import { keyCommand, type KeyContext } from '../../lib/library/library-state.js';

export interface KeyHandlers {
  context: Omit<KeyContext, 'typing' | 'modifier'>;
  blur: (target: HTMLElement) => void;
  clearSelection: () => void;
  closeDetail: () => void;
  focusSearch: () => void;
  focusRow: (index: number, loadMore: boolean) => void;
  open: () => void;
  edit: () => void;
  toggle: () => void;
  /** True when there was something to delete (the key's default is then prevented). */
  remove: () => boolean;
}

export function useLibraryKeys(handlers: KeyHandlers): void {
  // One listener for the page's life, calling the handlers of the latest render: a listener re-added
  // after each render lags behind quick keys (ArrowDown then e would open the row before the focused one).
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => {
      const h = latest.current;
      const target = e.target as HTMLElement;
      const typing = target.closest?.('input, textarea, select, [contenteditable="true"]') != null;
      // Enter and Space belong to the button or link that has the focus (a keyboard user tabbed to
      // it), not to the list's focused row.
      if ((e.key === 'Enter' || e.key === ' ') && target.closest?.('button, a[href], summary, [role="menuitem"]')) return;
      const cmd = keyCommand(e.key, { ...h.context, typing, modifier: e.ctrlKey || e.metaKey || e.altKey });
      if (cmd.kind === 'none') return;
      if (cmd.kind === 'blur') return h.blur(target);
      if (cmd.kind === 'clear-selection') return h.clearSelection();
      if (cmd.kind === 'close-detail') return h.closeDetail();
      if (cmd.kind === 'delete') {
        if (h.remove()) e.preventDefault();
        return;
      }
      e.preventDefault();
      if (cmd.kind === 'focus-search') h.focusSearch();
      else if (cmd.kind === 'focus') h.focusRow(cmd.index, cmd.more);
      else if (cmd.kind === 'open') h.open();
      else if (cmd.kind === 'edit') h.edit();
      else if (cmd.kind === 'toggle') h.toggle();
    };
    addEventListener('keydown', listener);
    return () => removeEventListener('keydown', listener);
  }, []);
}
