// The top bar's account menu (account settings, sign out): a <details> disclosure, which the browser
// opens and closes on Enter, Space and a click, closed here too as a menu is expected to close: on
// Escape (the focus back on its button), when the focus leaves it, and on a tap or click elsewhere.
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../lib/i18n.js';
import { signOut } from './sign-out.js';

export function AccountMenu({ onError }: { onError: (message: string) => void }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [signingOut, setSigningOut] = useState('');

  useEffect(() => {
    const el = menu.current!;
    const close = (refocus: boolean) => {
      if (!el.open) return;
      el.open = false;
      if (refocus) el.querySelector('summary')!.focus();
    };
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
    <details class="account-menu" ref={menu}>
      <summary aria-label={t('webAccountMenu')}>
        <svg class="glyph" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="8" r="4" /><path d="M4 21c1.5-4.5 4.5-6 8-6s6.5 1.5 8 6" /></svg>
        <span class="account-label">{t('webAccount')}</span>
      </summary>
      <div class="account-items">
        <a href="/account">{t('webAccountSettings')}</a>
        <button
          type="button"
          class="sign-out"
          disabled={!!signingOut}
          onClick={() => {
            setSigningOut(t('webSigningOut'));
            signOut().catch((err: Error) => {
              setSigningOut('');
              onError(err.message);
            });
          }}
        >
          {signingOut || t('webSignOut')}
        </button>
      </div>
    </details>
  );
}
