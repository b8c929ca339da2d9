// Painting a highlight the user just made, as soon as the browser can show it: on the first-frame
// overlay when it can draw it (a small frame instead of the page's whole repaint, see
// lib/painting/first-frame-overlay.ts), then by the painter once that frame is rendered
// (rubbing the overlay out in the same task, so the two show in one frame). The editor's
// way of painting a new highlight, and bench/anchoring's.
import type { HighlightColor } from '../api/constants.js';
import type { FirstFrameOverlay } from '../painting/first-frame-overlay.js';
import type { Painter } from '../painting/types.js';
import { afterNextFrame } from './after-frame.js';

export interface NewPaint {
  /** True when the overlay drew it for the first frame. */
  readonly early: boolean;
  /** Resolves once the painter's paint is in (after the first frame when the overlay drew it); `beforePaint` runs in that task. */
  readonly painted: Promise<void>;
}

/**
 * Shows `range` in `color` under `key`: drawn on `overlay` now when it can be, painted by `painter` in a
 * task after the next frame (with `beforePaint`, page changes that would make the first frame the
 * page's whole repaint, such as hiding the toolbar); otherwise painted now, `beforePaint` first.
 */
export function paintNew(painter: Painter, overlay: FirstFrameOverlay | null, key: string, range: Range, color: HighlightColor, beforePaint: () => void = () => {}): NewPaint {
  const paint = () => {
    beforePaint();
    painter.paint(key, range, { color });
  };
  if (!overlay?.show(range, color)) {
    paint();
    return { early: false, painted: Promise.resolve() };
  }
  return {
    early: true,
    painted: afterNextFrame().then(() => {
      paint();
      overlay.clear();
    }),
  };
}
