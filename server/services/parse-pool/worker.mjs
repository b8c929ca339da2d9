// Worker thread entry of the parse pool (see pool.ts). Plain JavaScript so the same file starts
// under tsx (serve), vitest, plain Node and a compiled build: the tasks are loaded from tasks.js
// when it sits beside this file (the compiled server), else from tasks.ts through tsx (about
// 0.85 s of CPU, once per worker). The worker says "ready" once loaded, then runs one task at a
// time; the pool ends it when a task runs too long, when the caller goes away, or when it idles.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';

const compiled = new URL('./tasks.js', import.meta.url);
const { runTask } = existsSync(fileURLToPath(compiled))
  ? await import(compiled.href)
  : await (await import('tsx/esm/api')).tsImport('./tasks.ts', import.meta.url);

/** The buffers of a result's top-level byte arrays move to the parent without a copy. */
function transferList(value) {
  if (!value || typeof value !== 'object') return [];
  return Object.values(value).filter((v) => v instanceof Uint8Array && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength).map((v) => v.buffer);
}

parentPort.on('message', async ({ task, input }) => {
  let answer;
  try {
    const value = await runTask(task, input);
    answer = { ok: true, value, heapUsed: getHeapStatistics().used_heap_size };
    parentPort.postMessage(answer, transferList(value));
  } catch (error) {
    const refusal = error?.name === 'ParseRefused' ? { code: error.code, message: error.message } : undefined;
    parentPort.postMessage({ ok: false, refusal, message: String(error?.message ?? error), stack: error?.stack, heapUsed: getHeapStatistics().used_heap_size });
  }
});
parentPort.postMessage({ ready: true });
