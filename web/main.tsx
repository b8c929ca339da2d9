// The web app's start: texts from the bundled messages (there is no extension i18n here), the host
// that talks to the API with the session cookie, then the library, or the saved-copy page when the
// address asks for one (`/?copy=1&id=<bookmark>`: the server serves the app only at `/`).
import { render } from 'preact';
import messages from '../public/_locales/en/messages.json';
import { HostContext } from '../components/library/host-context.js';
import { SavedCopyPage } from '../components/library/SavedCopyPage.js';
import { setMessageSource } from '../lib/i18n.js';
import { messageSource } from '../lib/i18n-messages.js';
import { askFirstPage, listQuery } from '../lib/library/list-requests.js';
import { parseState } from '../lib/library/url-state.js';
import { createWebHost } from '../lib/library/web-host.js';
import { WebApp } from './WebApp.js';
import '../components/shared/base.css';
import '../components/shared/editors.css';
import '../components/library/library.css';
import '../components/library/saved-copy.css';
import './web.css';

// On a touch screen there is no "/" key to press: the search box says only what it is for.
const touch = matchMedia('(pointer: coarse)').matches;
setMessageSource(messageSource(touch ? { ...messages, libSearchPlaceholder: { message: messages.webSearchPlaceholderTouch.message } } : messages));
const host = createWebHost();
const savedCopy = new URLSearchParams(location.search).has('copy');

// The list is what the page opens for: asked before the first render (the app takes this answer).
const state = parseState(location.search);
if (!savedCopy && state.tab === 'bookmarks') askFirstPage(host, listQuery(state));

render(
  <HostContext.Provider value={host}>{savedCopy ? <SavedCopyPage /> : <WebApp host={host} />}</HostContext.Provider>,
  document.getElementById('app')!,
);

// Installable and usable offline (web/sw.ts). Not registered in development (no built worker there).
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((err: Error) => console.warn(`Tidemark: offline use is not available: ${err.message}`));
  });
}
