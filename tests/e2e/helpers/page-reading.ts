// What the browser tests read from a web page and how they drag the mouse over it, written once for
// both drivers: the functions ending in InPage run inside the page (Playwright's and Puppeteer's
// evaluate both send them), dragAcross takes either driver's mouse. Used by highlighting.ts (Chromium)
// and the Firefox lane (tests/e2e-firefox).

/** Runs in the page (any driver's evaluate): what `painted` answers. */
export function paintedInPage(withNotes: boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const registry = (CSS as unknown as { highlights?: Map<string, Set<AbstractRange>> }).highlights;
  for (const [name, h] of registry ?? []) {
    if (!name.startsWith('tidemark-') || name === 'tidemark-flash' || (name === 'tidemark-note' && !withNotes)) continue;
    const texts = [...h].map((r) => {
      const range = document.createRange();
      range.setStart(r.startContainer, r.startOffset);
      range.setEnd(r.endContainer, r.endOffset);
      return range.toString().replace(/\s+/g, ' ');
    });
    if (texts.length) out[name.slice('tidemark-'.length)] = texts.sort();
  }
  return out;
}

export interface PhraseBox {
  /** Viewport points at the first and last character (their inner edges). */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** The centre of a character in the middle of the phrase (inside it even when it wraps). */
  middle: { x: number; y: number };
  /** The first character's top in the document. */
  docTop: number;
}

/** Runs in the page (any driver's evaluate): what `phraseBox` answers. */
export function phraseBoxInPage(text: string): PhraseBox {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const i = (n.nodeValue ?? '').indexOf(text);
    if (i < 0) continue;
    const charBox = (at: number) => {
      const r = document.createRange();
      r.setStart(n!, at);
      r.setEnd(n!, at + 1);
      return r.getBoundingClientRect();
    };
    const first = charBox(i);
    const last = charBox(i + text.length - 1);
    let m = Math.floor(text.length / 2);
    while (m < text.length - 1 && /\s/.test(text[m])) m++;
    const mid = charBox(i + m);
    return {
      x1: first.left + 1,
      y1: first.top + first.height / 2,
      x2: last.right - 1,
      y2: last.top + last.height / 2,
      middle: { x: mid.left + mid.width / 2, y: mid.top + mid.height / 2 },
      docTop: first.top + window.scrollY,
    };
  }
  throw new Error(`"${text}" is not on the page`);
}

/** Runs in the page (any driver's evaluate): scrolls `text` into the middle of the view. */
export function scrollToPhraseInPage(text: string): void {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if ((n.nodeValue ?? '').includes(text)) {
      n.parentElement!.scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior });
      return;
    }
  }
  throw new Error(`"${text}" is not on the page`);
}

/** A frame as watchFramesInPage saw it as it started. */
export interface WatchedFrame {
  /** Whether a Highlight in CSS.highlights has a range reading the text. */
  api: boolean;
}

/**
 * Runs in the page: from the next frame on, records at each frame's start (requestAnimationFrame)
 * whether the Highlight API paints `text`, until framesWatchedInPage() stops it.
 */
export function watchFramesInPage({ text }: { text: string }): void {
  const w = window as unknown as { watchedFrames: WatchedFrame[]; watchingFrames: boolean };
  w.watchedFrames = [];
  w.watchingFrames = true;
  const look = () => {
    if (!w.watchingFrames) return;
    const registry = (CSS as unknown as { highlights: Map<string, Set<AbstractRange>> }).highlights;
    const api = [...registry.values()].some((h) =>
      [...h].some((r) => {
        const range = document.createRange();
        range.setStart(r.startContainer, r.startOffset);
        range.setEnd(r.endContainer, r.endOffset);
        return range.toString() === text;
      }),
    );
    w.watchedFrames.push({ api });
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/** Runs in the page: how many frames watchFramesInPage has recorded so far (wait for one before acting, so the first is from before). */
export function framesSeenInPage(): number {
  return (window as unknown as { watchedFrames?: WatchedFrame[] }).watchedFrames?.length ?? 0;
}

/**
 * What a new highlight's frames show, as a test expects them (Node side): the frame before the command
 * shows nothing; once a frame shows the highlight, every later one does (it does not go away while it
 * is saved and takes its key).
 */
export function firstFrames(frames: readonly WatchedFrame[]): { blankBefore: boolean; paintedFromThenOn: boolean } {
  const first = frames.findIndex((f) => f.api);
  return {
    blankBefore: frames.length > 0 && !frames[0].api,
    paintedFromThenOn: first > 0 && frames.slice(first).every((f) => f.api),
  };
}

/** Runs in the page: stops watchFramesInPage and answers what it recorded. */
export function framesWatchedInPage(): WatchedFrame[] {
  const w = window as unknown as { watchedFrames: WatchedFrame[]; watchingFrames: boolean };
  w.watchingFrames = false;
  return w.watchedFrames;
}

/** What `dragAcross` needs of a mouse: Playwright's and Puppeteer's both have it. */
export interface DraggingMouse {
  move(x: number, y: number, options?: { steps?: number }): Promise<void>;
  down(): Promise<void>;
  up(): Promise<void>;
}

/** A real mouse drag from the first to the last character of a phrase's box. */
export async function dragAcross(mouse: DraggingMouse, box: PhraseBox): Promise<void> {
  await mouse.move(box.x1, box.y1);
  await mouse.down();
  await mouse.move((box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2, { steps: 4 });
  await mouse.move(box.x2, box.y2, { steps: 4 });
  await mouse.up();
}

/**
 * Runs in the page: drags `source` onto `target` with one DataTransfer through the page's own drag
 * handlers (dragstart on the source, dragenter/dragover/drop on the target, dragend), the events a
 * browser sends for a mouse drag (neither driver's mouse gives the page a whole HTML5 drag session:
 * Playwright's drop never arrives in Chromium, and in headless Firefox the session never ends).
 * Answers whether the target accepted the drag (its dragover cancelled the default); only then is the
 * drop sent, as a browser would. A source that cancels dragstart drags nothing (false).
 */
export function dropInPage([source, target]: readonly [Element | null, Element | null]): boolean {
  if (!source || !target) throw new Error('dropInPage: the source or the target is missing');
  const data = new DataTransfer();
  const fire = (el: Element, type: string) => {
    const e = new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: data });
    el.dispatchEvent(e);
    return e.defaultPrevented;
  };
  if (fire(source, 'dragstart')) return false;
  fire(target, 'dragenter');
  const accepted = fire(target, 'dragover');
  if (accepted) fire(target, 'drop');
  fire(source, 'dragend');
  return accepted;
}
