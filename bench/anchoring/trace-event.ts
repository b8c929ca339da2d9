/** A Chromium trace event as the bench scripts read them (timeline.ts, frame-costs.ts, bench/extension/long-page-load.ts). */
export interface TraceEvent {
  name: string;
  ph?: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs. */
  tdur?: number;
  tid?: number;
  pid?: number;
  args?: Record<string, unknown> & {
    name?: string;
    src_func?: string;
    /** functionName: a FunctionCall's; message: a TimeStamp's (console.timeStamp); url: a script's. */
    data?: { functionName?: string; message?: string; url?: string };
    elementCount?: number;
    /** url: a ParseHTML's document. */
    beginData?: { elementCount?: number; url?: string };
  };
}

/**
 * Marks a page script leaves in the trace (console.timeStamp) around the work a figure measures, so that
 * tasks before it (the wait for idle, where Chromium does its own idle-time work) are not counted.
 */
export const MEASURED_FROM = 'tidemark:measured-from';
export const MEASURED_TO = 'tidemark:measured-to';
