// What the highlighter (controller.ts, always injected) shares with its editor (editor.ts, injected on
// the first selection or highlight command; see parts.ts): the page's painted state and the means to
// change it. Types only, so the editor's code stays out of the always-injected script.
import type { TextIndex } from '../anchoring/text-index.js';
import type { AnchorResult } from '../anchoring/types.js';
import type { HighlightColor } from '../api/constants.js';
import type { HighlightOutcome, PageHighlight, PageHighlightsView } from '../messaging/protocol.js';
import type { Painter } from '../painting/types.js';
import type { PageUi } from './ui/page-ui.js';

export type { HighlightOutcome };

/** `painted`: the text its range read when it was painted (a page change that leaves it so needs no re-anchoring). */
export type PlacedResult = AnchorResult & { start?: number; painted?: string };

export interface EditorHost {
  readonly painter: Painter;
  readonly ui: PageUi;
  /** The page's text index (page-index.ts), of which the editor needs only the index as the page is now. */
  readonly pageIndex: { now(): TextIndex };
  /** The page's highlights by key (replaced by setView). */
  readonly items: ReadonlyMap<string, PageHighlight>;
  readonly view: PageHighlightsView | null;
  setView(view: PageHighlightsView): void;
  /** A highlight the editor painted itself (a new one): recorded for the marks, status and hit tests. */
  placed(key: string, result: PlacedResult): void;
  paintAll(): Promise<void>;
  updateMarkers(): void;
  /** Runs `fn` (which changes the page) without taking its DOM changes for the page's own. */
  withoutObserving(fn: () => void): void;
}

export interface Editor {
  /** A selection ended (mouse up, Shift+key up), or a click (`e`) landed: offer the toolbar. */
  onSelectionEnd(e?: MouseEvent): void;
  /** THE handler for making a highlight (toolbar, context menu, keyboard command); `color` null: the last colour used. */
  highlightSelection(color: HighlightColor | null, withNote: boolean): Promise<HighlightOutcome>;
  /** The page view changed (colours in use). */
  setColors(colors: HighlightColor[]): void;
  hide(): void;
}

export type EditorFactory = (host: EditorHost) => Editor;
