/**
 * The highlighter's parts that are not needed to paint a page's stored highlights, each its own
 * script (entrypoints/highlighter-<part>/index.ts) injected by the background into this frame only when
 * needed: the editor (selection toolbar, creating and changing highlights) on the first selection or
 * highlight command, approximate anchoring when exact anchoring cannot place a highlight, the text
 * index's patcher once a long page has been indexed (page-index.ts), the painter's scope marks where
 * the page has no registered highlight style sheet (lib/painting/scope-marks.ts). As with the
 * fallback painter (lib/painting/fallback-slot.ts), a part hands itself over through a property of
 * the extension's isolated world, which the page's scripts cannot see. The background injects them
 * (lib/background/highlighter-injection.ts, injectHighlighterPart).
 */
import type { ApproximateSearch } from '../anchoring/anchor.js';
import type { TextIndex } from '../anchoring/text-index.js';
import type { ScopeMarker } from '../painting/scope-marks.js';
import type { PainterFactory } from '../painting/fallback-slot.js';
import { send } from '../messaging/client.js';
import type { HighlighterPart } from '../messaging/protocol.js';
import type { EditorFactory } from './editor-host.js';

export interface PartOf {
  editor: EditorFactory;
  approximate: ApproximateSearch;
  /** The index after the page's changes (MutationObserver records since it was built), or null: build it again. */
  'index-patch': (index: TextIndex, records: readonly MutationRecord[]) => TextIndex | null;
  /** The painter's scope marks, where the page has no registered highlight style sheet (the click path). */
  'scope-marks': () => ScopeMarker;
  /** Rangy's class-applier painter, where the frame has no CSS Custom Highlight API (lib/painting/fallback-slot.ts). */
  'fallback-painter': PainterFactory;
}

const slot = (part: HighlighterPart) => `__tidemarkPart_${part}`;
type Global = Record<string, unknown>;

/** Called by a part's script: hands the part to the highlighter of this frame. */
export function providePart<K extends HighlighterPart>(part: K, value: PartOf[K]): void {
  (globalThis as unknown as Global)[slot(part)] = value;
}

/** The part if it is already here. */
export function loadedPart<K extends HighlighterPart>(part: K): PartOf[K] | undefined {
  return (globalThis as unknown as Global)[slot(part)] as PartOf[K] | undefined;
}

const loading = new Map<HighlighterPart, Promise<unknown>>();

/** The part, asking the background to inject its script first when it is not here yet. */
export function loadPart<K extends HighlighterPart>(part: K): Promise<PartOf[K]> {
  const here = loadedPart(part);
  if (here) return Promise.resolve(here);
  let pending = loading.get(part) as Promise<PartOf[K]> | undefined;
  if (!pending) {
    pending = send('loadHighlighterPart', { part }).then(() => {
      const value = loadedPart(part);
      if (!value) throw new Error('Tidemark could not load part of its highlighter on this page. Reload the page and try again.');
      return value;
    });
    // A failed load may be tried again (the next selection or command).
    void pending.catch(() => loading.delete(part));
    loading.set(part, pending);
  }
  return pending;
}
