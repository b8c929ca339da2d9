// Signing out from the web app: the server's sign-out is a form POST carrying the CSRF token of this
// browser's session (server/web/pages/auth.ts), which only the server's own pages hold, so the token
// is read from the account page and the form sent from here. This device's copy of the library (the
// service worker's) goes first: it must not outlive the session.
import { t } from '../lib/i18n.js';

const API_CACHE = 'tidemark-api';

export async function signOut(): Promise<void> {
  if ('caches' in globalThis) await caches.delete(API_CACHE);
  let page: string;
  try {
    const res = await fetch('/account', { credentials: 'same-origin' });
    if (res.redirected && new URL(res.url).pathname === '/signin') return location.assign('/signin');
    page = await res.text();
  } catch {
    throw new Error(t('webSignOutOffline'));
  }
  const token = new DOMParser().parseFromString(page, 'text/html').querySelector<HTMLInputElement>('form[action="/signout"] input[name="_csrf"]')?.value;
  if (!token) throw new Error(t('webSignOutFailed'));
  const form = document.createElement('form');
  form.method = 'post';
  form.action = '/signout';
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = '_csrf';
  field.value = token;
  form.append(field);
  document.body.append(form);
  form.submit();
}
