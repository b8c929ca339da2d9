// Injecting the content-side highlighter into a tab on demand, and sending it commands.
import { browser } from 'wxt/browser';
import type { HighlighterPart, TabCommand } from '../messaging/protocol.js';
import { ALWAYS_HAS_HIGHLIGHT_API } from '../browser-differences.js';
import { frameLacksHighlightApi } from '../painting/fallback-probe.js';

/** Built by WXT from entrypoints/highlighter.ts. */
export const HIGHLIGHTER_FILE = '/highlighter.js' as const;
/** The rangy painter, injected before the highlighter only where the CSS Custom Highlight API is missing. */
export const FALLBACK_PAINTER_FILE = '/highlighter-fallback-painter.js' as const;

/** The highlighter's parts injected when it asks for them (lib/highlighter/parts.ts), built from entrypoints/highlighter-<part>.ts. */
const PART_FILES = {
  editor: '/highlighter-editor.js',
  approximate: '/highlighter-approximate.js',
} as const satisfies Record<HighlighterPart, string>;

/** Injects the highlighter into a tab (needs a host permission or activeTab); once per frame. */
export async function injectHighlighter(tabId: number, frameId = 0): Promise<void> {
  const target = { tabId, frameIds: [frameId] };
  const [probe] = ALWAYS_HAS_HIGHLIGHT_API ? [] : await browser.scripting.executeScript({ target, func: frameLacksHighlightApi });
  const files = probe?.result === true ? [FALLBACK_PAINTER_FILE, HIGHLIGHTER_FILE] : [HIGHLIGHTER_FILE];
  await browser.scripting.executeScript({ target, files });
}

/** Injects one of the highlighter's on-demand parts into the frame whose highlighter asked for it. */
export async function injectHighlighterPart(tabId: number, frameId: number, part: HighlighterPart): Promise<void> {
  await browser.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [PART_FILES[part]] });
}

/** Sends a command to the tab's highlighter, injecting it first when it is not there. */
export async function tabCommand<T>(tabId: number, command: TabCommand): Promise<T> {
  try {
    const r = await browser.tabs.sendMessage(tabId, command, { frameId: 0 });
    if (r !== undefined) return r as T;
  } catch {
    /* not injected yet */
  }
  await injectHighlighter(tabId);
  return (await browser.tabs.sendMessage(tabId, command, { frameId: 0 })) as T;
}
