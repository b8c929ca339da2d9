// A note box that grows with its text: it shows the whole text, from `minRows` up to `maxRows` lines,
// then scrolls, and never stops on part of a line. Its height is set from its scrollHeight when it is
// first shown, as the user types, when its text changes from elsewhere (another device, Undo, another
// bookmark opened) and when its width changes (the text wraps anew). One way in Chrome and Firefox
// (Firefox ESR 140 has no `field-sizing: content`). A box the user resized by hand keeps the height
// they gave it.
import type { JSX, RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

type Props = Omit<JSX.TextareaHTMLAttributes<HTMLTextAreaElement>, 'rows' | 'ref' | 'value'> & {
  value: string;
  minRows: number;
  maxRows: number;
  /** The textarea, for a parent that needs it (focus, "is the user typing here"). */
  field?: RefObject<HTMLTextAreaElement>;
};

export function GrowingTextarea({ minRows, maxRows, field, ...attributes }: Props) {
  const own = useRef<HTMLTextAreaElement>(null);
  const ref = field ?? own;
  /** The height this box last set itself (as the style reads it back), or `hand` once the user resized it. */
  const set = useRef<string | 'hand'>('');
  const rows = useRef({ minRows, maxRows });
  rows.current = { minRows, maxRows };
  /** The text and width it was last sized for: a keystroke is sized once (its input event, then the re-render). */
  const sizedFor = useRef({ text: '', width: -1 });
  const fit = () => {
    const el = ref.current;
    if (!el || (el.value === sizedFor.current.text && el.clientWidth === sizedFor.current.width)) return;
    set.current = fitToText(el, rows.current.minRows, rows.current.maxRows, set.current);
    if (set.current !== 'hand' && el.clientWidth) sizedFor.current = { text: el.value, width: el.clientWidth };
  };
  useLayoutEffect(fit, [attributes.value, minRows, maxRows]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Typing: sized in the same task as the keystroke, before the next frame (no flicker, no caret jump).
    el.addEventListener('input', fit);
    // A narrower or wider box wraps its text anew (the panel resized); its own height changes are ignored.
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      fit();
    });
    observer.observe(el);
    return () => {
      el.removeEventListener('input', fit);
      observer.disconnect();
    };
  }, []);
  return <textarea {...attributes} ref={ref} rows={minRows} />;
}

/** Sets `el`'s height to its text's, in whole lines between `minRows` and `maxRows`; returns the height set. */
function fitToText(el: HTMLTextAreaElement, minRows: number, maxRows: number, last: string): string {
  // Resized by hand (the resizer writes its own height): left as the user made it.
  if (last === 'hand' || (last && el.style.height !== last)) return 'hand';
  // Not laid out (hidden): sized when it gets a width.
  if (el.clientWidth === 0) return last;
  const s = getComputedStyle(el);
  const px = (v: string) => parseFloat(v) || 0;
  const line = px(s.lineHeight) || px(s.fontSize) * 1.2;
  const padding = px(s.paddingTop) + px(s.paddingBottom);
  const borders = s.boxSizing === 'border-box' ? px(s.borderTopWidth) + px(s.borderBottomWidth) : 0;
  // A box that scrolls ends on a line's end, not on its bottom padding (which would show the top of the next line).
  const height = (rows: number, scrolls = false) => rows * line + (scrolls ? px(s.paddingTop) : padding) + borders;
  // Measuring shrinks the box for a moment, which could pull a scrolled page or pane up: their places are kept.
  const scrolled: [Element, number][] = [];
  for (let p = el.parentElement; p; p = p.parentElement) if (p.scrollTop) scrolled.push([p, p.scrollTop]);
  const ownScroll = el.scrollTop;
  // Measured at the smallest height and with no scrollbar (which would narrow the text and wrap it more).
  el.style.overflowY = 'hidden';
  el.style.height = `${height(minRows)}px`;
  const rows = Math.round((el.scrollHeight - padding) / line);
  el.style.height = `${rows > maxRows ? height(maxRows, true) : height(Math.max(rows, minRows))}px`;
  el.style.overflowY = '';
  el.scrollTop = ownScroll;
  for (const [p, top] of scrolled) if (p.scrollTop !== top) p.scrollTop = top;
  return el.style.height;
}
