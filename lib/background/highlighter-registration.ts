// Automatic painting: the small loader registered as a content script for every http(s) origin the
// extension may read (the optional host permission, and the server's host). It paints saved pages on load.
import { browser } from 'wxt/browser';

/** Built by WXT from entrypoints/highlighter-loader.ts. */
export const LOADER_FILE = '/highlighter-loader.js';
export const LOADER_SCRIPT_ID = 'tidemark-highlighter';
/** What automatic painting asks for (optional host permission). */
export const AUTO_PAINT_ORIGINS = ['http://*/*', 'https://*/*'];

export async function autoPaintGranted(): Promise<boolean> {
  return browser.permissions.contains({ origins: AUTO_PAINT_ORIGINS }).catch(() => false);
}

/** Registers (or re-registers, or removes) the loader to match the origins the extension holds now. */
export async function syncLoaderRegistration(): Promise<void> {
  const origins = ((await browser.permissions.getAll()).origins ?? []).filter((o) => /^(https?|\*):\/\//.test(o));
  const existing = await browser.scripting.getRegisteredContentScripts({ ids: [LOADER_SCRIPT_ID] }).catch(() => []);
  if (existing.length && [...(existing[0].matches ?? [])].sort().join() === [...origins].sort().join()) return;
  // Already gone (unregistered meanwhile) is what we want; registering follows.
  if (existing.length) await browser.scripting.unregisterContentScripts({ ids: [LOADER_SCRIPT_ID] }).catch(() => {});
  if (!origins.length) return;
  await browser.scripting.registerContentScripts([
    { id: LOADER_SCRIPT_ID, js: [LOADER_FILE.slice(1)], matches: origins, runAt: 'document_idle', allFrames: false, persistAcrossSessions: true },
  ]);
}
