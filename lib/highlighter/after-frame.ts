// Waiting for the frame that shows what was just painted, so that work which can come after it
// (describing a new highlight, on a long page after a change also bringing the kept index up to date)
// does not hold that frame back.

/** A hidden tab renders no frames: past this, the work goes ahead without one. */
const NO_FRAME_MS = 100;

/**
 * Resolves in a task after the browser's next rendering (requestAnimationFrame callbacks run before
 * the frame's style, layout and paint; the task they post runs once the frame is done), or after
 * `noFrameMs` when no frame comes.
 */
export function afterNextFrame(win: Pick<Window, 'requestAnimationFrame' | 'setTimeout' | 'clearTimeout'> = window, noFrameMs = NO_FRAME_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = win.setTimeout(resolve, noFrameMs);
    win.requestAnimationFrame(() =>
      win.setTimeout(() => {
        win.clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}
