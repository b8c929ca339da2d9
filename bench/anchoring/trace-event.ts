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

/**
 * Marks a page script leaves in the trace (console.timeStamp) around the work a figure measures, so that
 * tasks before it (the wait for idle, where Chromium does its own idle-time work) are not counted.
 */
export const MEASURED_FROM = 'tidemark:measured-from';
export const MEASURED_TO = 'tidemark:measured-to';
