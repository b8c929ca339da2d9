/** The flash effect's timing, shared by both painters. */

const PULSES = 3;

/**
 * Calls `light(true)` and `light(false)` in turn: three pulses spread over `durationMs` (default 900),
 * ending with the effect off. Resolves when the last step has run.
 */
export function pulse(win: Pick<Window, 'setTimeout'>, light: (on: boolean) => void, durationMs = 900): Promise<void> {
  const steps = PULSES * 2;
  const step = durationMs / steps;
  return new Promise((resolve) => {
    let phase = 0;
    const tick = () => {
      light(phase % 2 === 0 && phase < steps);
      phase++;
      if (phase > steps) resolve();
      else win.setTimeout(tick, step);
    };
    tick();
  });
}
