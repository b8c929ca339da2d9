// What a finger can tap on a phone screen, and how big it is: every visible control on top (not
// under a drawer or a full-screen pane), measured by the box a tap lands on. A checkbox counts as
// its label's box, or its row's (a tap anywhere on a row picks it in Select mode).
import type { Page } from '@playwright/test';

export interface SmallTarget {
  control: string;
  width: number;
  height: number;
}

/** The controls in view smaller than `min` CSS pixels either way (none, when every one is big enough). */
export function smallTargets(page: Page, min = 44): Promise<SmallTarget[]> {
  return page.evaluate((min) => {
    const controls = [...document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, summary, [role=button], [role=option]')];
    return controls.flatMap((el) => {
      if (getComputedStyle(el).pointerEvents === 'none') return [];
      const box = (el.matches('input[type=checkbox], input[type=radio]') ? (el.closest('label, .bookmark') ?? el) : el) as HTMLElement;
      const r = box.getBoundingClientRect();
      if (!(r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth)) return [];
      const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      // Covered by something else (the drawer, the detail pane, a dialog): not tappable now.
      if (!hit || !(box.contains(hit) || hit.contains(el))) return [];
      if (r.width >= min - 0.01 && r.height >= min - 0.01) return [];
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return [{ control: `${el.tagName.toLowerCase()} "${name}"`, width: Math.round(r.width), height: Math.round(r.height) }];
    });
  }, min);
}

/** How far the page scrolls sideways (0 when it fits the screen). */
export function sideScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
}
