// The sidebar as a drawer on a narrow screen (library.css): open, it takes the focus (its current
// place first) and closes on Escape; closed, it gives the focus back to the menu button.
import { useEffect, useRef, useState } from 'preact/hooks';

export function useDrawer() {
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const nav = document.querySelector('.sidebar');
    (nav?.querySelector<HTMLElement>('button.nav-item.current, .nav-row.current .nav-item') ?? nav?.querySelector<HTMLElement>('.nav-item'))?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    addEventListener('keydown', onKey);
    return () => {
      removeEventListener('keydown', onKey);
      if (document.activeElement === document.body || document.activeElement?.closest('.sidebar')) menuButton.current?.focus();
    };
  }, [open]);
  return { open, setOpen, menuButton };
}
