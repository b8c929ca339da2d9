// Reads one service-worker wake from a browser-wide trace (bench/extension/worker-wake.ts): where the
// worker's own thread spends the time before its listeners exist. Only enabled-by-default categories:
// V8's detailed compile categories slowed the traced script several times over.

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; cacheKind?: string; consumedCacheSize?: number }; fileName?: string };
}

export const TRACE_CATEGORIES = ['devtools.timeline', 'v8', 'ServiceWorker', 'blink.worker'];

export interface ScriptShare {
  /** The worker thread's set-up (isolate, global scope) before the script is asked for, ms. */
  threadSetupMs: number;
  /** The script's compile (from V8's code cache when `fromCache`), ms. */
  compileMs: number;
  /** Its top-level evaluation: every module's set-up and the listeners' registration, ms. */
  evaluateMs: number;
  /** Worker thread start -> the top-level script evaluated (its listeners registered), ms. */
  startToListenersMs: number;
  fromCache: boolean;
}

/** The wake of the worker running `url`, or null when the trace holds no evaluation of it. */
export function scriptShare(events: TraceEvent[], url: string): ScriptShare | null {
  const evaluation = events.find((e) => e.name === 'EvaluateScript' && e.args?.data?.url === url);
  if (!evaluation) return null;
  const mine = events.filter((e) => e.pid === evaluation.pid && e.tid === evaluation.tid);
  const one = (name: string) => mine.find((e) => e.name === name);
  const init = one('WorkerThread::InitializeWorkerContext');
  const compile = mine.find((e) => e.name === 'v8.compile' && e.args?.data?.url === url);
  const run = mine.find((e) => e.name === 'v8.run' && e.args?.fileName === url);
  const evaluated = one('ServiceWorkerGlobalScopeProxy::DidEvaluateTopLevelScript');
  if (!init || !compile || !run || !evaluated) return null;
  return {
    threadSetupMs: (init.dur ?? 0) / 1000,
    compileMs: (compile.dur ?? 0) / 1000,
    evaluateMs: (run.dur ?? 0) / 1000,
    startToListenersMs: (evaluated.ts - init.ts) / 1000,
    fromCache: (compile.args?.data?.consumedCacheSize ?? 0) > 0,
  };
}
