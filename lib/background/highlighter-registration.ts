// Automatic painting: the small loader registered as a content script for every http(s) origin the
// extension may read (the optional host permission, and the server's host). It paints saved pages on load.
// With it, the painter's ::highlight() rules (highlight-styles.css, a few lines) as a content-script style
// sheet: the page has them from its first style computation, so painting never makes Chromium restyle
// every element of a long page (which adding a sheet with ::highlight() rules later does).
import { browser } from 'wxt/browser';
import { HIGHLIGHT_STYLES_FILE } from '../painting/highlight-css.js';

/** Built by WXT from entrypoints/highlighter-loader/index.ts. */
const LOADER_FILE = '/highlighter-loader.js';
const LOADER_SCRIPT_ID = 'tidemark-highlighter';
/** What automatic painting asks for (optional host permission). */
const AUTO_PAINT_ORIGINS = ['http://*/*', 'https://*/*'];

export async function autoPaintGranted(): Promise<boolean> {
  return browser.permissions.contains({ origins: AUTO_PAINT_ORIGINS }).catch(() => false);
}

/** Registers (or re-registers, or removes) the loader to match the origins the extension holds now. */
export async function syncLoaderRegistration(): Promise<void> {
  const origins = ((await browser.permissions.getAll()).origins ?? []).filter((o) => /^(https?|\*):\/\//.test(o));
  const existing = await browser.scripting.getRegisteredContentScripts({ ids: [LOADER_SCRIPT_ID] }).catch(() => []);
  const same = existing.length > 0 && [...(existing[0].matches ?? [])].sort().join() === [...origins].sort().join();
  // A registration from before the style sheet was part of it is renewed.
  if (same && existing[0].css?.includes(HIGHLIGHT_STYLES_FILE)) return;
  // Already gone (unregistered meanwhile) is what we want; registering follows.
  if (existing.length) await browser.scripting.unregisterContentScripts({ ids: [LOADER_SCRIPT_ID] }).catch(() => {});
  if (!origins.length) return;
  await browser.scripting.registerContentScripts([
    {
      id: LOADER_SCRIPT_ID,
      js: [LOADER_FILE.slice(1)],
      css: [HIGHLIGHT_STYLES_FILE],
      matches: origins,
      runAt: 'document_idle',
      allFrames: false,
      persistAcrossSessions: true,
    },
  ]);
}
