/** A Chromium trace event as the anchoring bench's scripts read them (timeline.ts, frame-costs.ts). */
export interface TraceEvent {
  name: string;
  ph?: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs. */
  tdur?: number;
  tid?: number;
  pid?: number;
  args?: Record<string, unknown> & { name?: string; src_func?: string; data?: { functionName?: string }; elementCount?: number; beginData?: { elementCount?: number } };
}
