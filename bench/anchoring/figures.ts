/** How the anchoring bench scripts summarise and print their samples. */

/** The median (the upper one of an even count); NaN for no samples. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A figure in ms to one decimal, '-' where there is none. */
export const fmt = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '-');
