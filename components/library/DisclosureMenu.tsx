// A small menu that opens from a button: a <details> disclosure, which the browser opens and closes on
// Enter, Space and a click, closed here too as a menu is expected to close: on Escape (the focus back
// on its button), when the focus leaves it, on a tap or click elsewhere, and once an item is chosen.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  /** Classes of the menu and of the box of its items. */
  class: string;
  itemsClass: string;
  /** Its button's accessible name. */
  label: string;
  /** What its button shows. */
  summary: ComponentChildren;
  /** The items; `close` closes the menu with the focus back on its button (call it once one is chosen). */
  children: (close: () => void) => ComponentChildren;
}

export function DisclosureMenu({ class: className, itemsClass, label, summary, children }: Props) {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = (refocus: boolean) => {
    const el = menu.current;
    if (!el?.open) return;
    el.open = false;
    if (refocus) el.querySelector('summary')!.focus();
  };

  useEffect(() => {
    const el = menu.current!;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !el.open) return;
      // The library's own Escape (closing the detail pane, clearing a selection) is not for this press.
      e.preventDefault();
      e.stopPropagation();
      close(true);
    };
    const onFocusOut = (e: FocusEvent) => {
      if (!el.contains(e.relatedTarget as Node | null) && e.relatedTarget !== null) close(false);
    };
    const onPointer = (e: PointerEvent) => {
      if (!el.contains(e.target as Node)) close(false);
    };
    el.addEventListener('keydown', onKey);
    el.addEventListener('focusout', onFocusOut);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);

  return (
    <details class={className} ref={menu}>
      <summary aria-label={label}>{summary}</summary>
      <div class={itemsClass}>{children(() => close(true))}</div>
    </details>
  );
}
