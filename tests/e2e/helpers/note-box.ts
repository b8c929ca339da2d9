// A note box as a user sees it, for `locator.evaluate(noteBox)`: its scrollHeight beside its clientHeight,
// and how many lines of text it shows at rest, to a tenth (a part of a line shows as a fraction).
export function noteBox(el: HTMLTextAreaElement): { scrollHeight: number; clientHeight: number; lines: number } {
  const s = getComputedStyle(el);
  // Lines in view at rest: below the top padding, down to the bottom padding (or the box's edge when it scrolls).
  const inside = el.clientHeight - parseFloat(s.paddingTop) - (el.scrollHeight > el.clientHeight ? 0 : parseFloat(s.paddingBottom));
  return { scrollHeight: el.scrollHeight, clientHeight: el.clientHeight, lines: Math.round((inside / parseFloat(s.lineHeight)) * 10) / 10 };
}
