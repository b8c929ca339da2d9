// The top bar's account menu: account settings and sign out.
import { useState } from 'preact/hooks';
import { DisclosureMenu } from '../components/library/DisclosureMenu.js';
import { t } from '../lib/i18n.js';
import { signOut } from './sign-out.js';

export function AccountMenu({ onError }: { onError: (message: string) => void }) {
  const [signingOut, setSigningOut] = useState('');
  return (
    <DisclosureMenu
      class="disclosure-menu account-menu"
      itemsClass="menu-items"
      label={t('webAccountMenu')}
      summary={
        <>
          <svg class="glyph" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="8" r="4" /><path d="M4 21c1.5-4.5 4.5-6 8-6s6.5 1.5 8 6" /></svg>
          <span class="account-label">{t('webAccount')}</span>
        </>
      }
    >
      {() => (
        <>
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
        </>
      )}
    </DisclosureMenu>
  );
}
