/** Recording a Chromium trace of a page while a bench step runs (run.ts, paint-marks.ts). */
import type { Browser, Page } from 'playwright-core';
import type { TraceEvent } from './trace-event.js';

/** Runs `fn` while tracing `page` with `categories`; its value and the trace's events (none kept where `fn` throws). */
export async function traceWhile<T>(browser: Browser, page: Page, categories: string[], fn: () => Promise<T>): Promise<{ value: T; events: TraceEvent[] }> {
  await browser.startTracing(page, { categories });
  let value: T;
  try {
    value = await fn();
  } catch (err) {
    await browser.stopTracing();
    throw err;
  }
  const parsed = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return { value, events: Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []) };
}

/**
 * The outermost of `events` (tasks and top-level microtask checkpoints of one thread): a task recorded
 * inside another one (nested run loops) is left out, so that no CPU time is counted twice.
 */
export function outermostTasks<T extends { ts?: number; dur?: number }>(events: readonly T[]): T[] {
  const sorted = [...events].sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0) || (b.dur ?? 0) - (a.dur ?? 0));
  const out: T[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (!last || (e.ts ?? 0) >= (last.ts ?? 0) + (last.dur ?? 0)) out.push(e);
  }
  return out;
}

/** CPU ms of each requestIdleCallback callback (FireIdleCallback), in order. */
export function idleCallbackCpu(events: readonly TraceEvent[]): number[] {
  return events.filter((e) => e.name === 'FireIdleCallback' && e.ph === 'X' && typeof e.tdur === 'number').map((e) => e.tdur! / 1000);
}
