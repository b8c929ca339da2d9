// Injecting the content-side highlighter into a tab on demand, and sending it commands.
import { browser } from 'wxt/browser';
import type { HighlighterPart, TabCommand, TabCommandType, TabDataOf, TabResultOf } from '../messaging/protocol.js';
import { check } from '../messaging/check.js';
import { TAB_COMMANDS } from '../messaging/schemas.js';

/** Built by WXT from entrypoints/highlighter/index.ts. */
const HIGHLIGHTER_FILE = '/highlighter.js' as const;

/** The highlighter's parts injected when it asks for them (lib/highlighter/parts.ts), built from entrypoints/highlighter-<part>/index.ts. */
const PART_FILES = {
  editor: '/highlighter-editor.js',
  approximate: '/highlighter-approximate.js',
  'index-patch': '/highlighter-index-patch.js',
  'scope-marks': '/highlighter-scope-marks.js',
  // Only where the frame has no CSS Custom Highlight API: never in Firefox 140+, whose build has no such file.
  'fallback-painter': '/highlighter-fallback-painter.js',
} as const satisfies Record<HighlighterPart, string>;

/**
 * Injects the highlighter into a tab (needs a host permission or activeTab); once per frame. In a frame
 * without the CSS Custom Highlight API it asks for the fallback painter itself (a part), so the common
 * case costs one injection, not a probe of the frame first.
 */
export async function injectHighlighter(tabId: number, frameId = 0): Promise<void> {
  await browser.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [HIGHLIGHTER_FILE] });
}

/** Injects one of the highlighter's on-demand parts into the frame whose highlighter asked for it. */
export async function injectHighlighterPart(tabId: number, frameId: number, part: HighlighterPart): Promise<void> {
  await browser.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [PART_FILES[part]] });
}

/**
 * Sends a command to the tab's highlighter, injecting it first when it is not there. The answer is
 * checked against the command's result schema: it comes from the web page's process.
 */
export async function tabCommand<K extends TabCommandType>(tabId: number, command: K, data: TabDataOf<K>): Promise<TabResultOf<K>> {
  const message: TabCommand<K> = { tidemark: command, data };
  let answer: unknown;
  try {
    answer = await browser.tabs.sendMessage(tabId, message, { frameId: 0 });
  } catch {
    /* not injected yet */
  }
  if (answer === undefined) {
    await injectHighlighter(tabId);
    answer = await browser.tabs.sendMessage(tabId, message, { frameId: 0 });
  }
  const problem = check(TAB_COMMANDS[command].result, answer, 'answer');
  if (problem) throw new Error(`The page's highlighter gave an unexpected answer to "${command}": ${problem}.`);
  return answer as TabResultOf<K>;
}
