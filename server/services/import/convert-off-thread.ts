import { Worker } from 'node:worker_threads';
import type { ConvertJobResult } from './convert-job.js';
import type { ImportLimits } from './types.js';

/** Conversions running at once; more wait their turn (each may hold a 50 MB file several times over). */
const MAX_CONCURRENT = 2;
/** An idle worker is ended after this long without a file. */
const IDLE_MS = 10_000;
/** A worker that converted a file this large is ended at once: its heap may hold hundreds of MB of garbage. */
const KEEP_AFTER_BYTES_MAX = 4 * 1024 * 1024;
let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/**
 * Workers waiting for their next file. Starting one costs about 0.85 s of CPU (loading the
 * converter's TypeScript), more than converting a typical export, so a worker converts file after
 * file while they keep coming. Idle ones do not keep the process alive.
 */
const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

function takeWorker(): Worker {
  const parked = idle.pop();
  if (parked) {
    clearTimeout(parked.timer);
    parked.worker.ref();
    return parked.worker;
  }
  // A file that blows up in memory fails this conversion, not the server.
  const worker = new Worker(new URL('./convert-worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 2048 } });
  // A worker that ends while idle is never handed a file. (Its error, if any, is reported by the
  // conversion it was running; an idle worker runs nothing, so this listener only keeps an error
  // event without a conversion from crashing the server.)
  worker.on('exit', () => unpark(worker));
  worker.on('error', () => unpark(worker));
  return worker;
}

function unpark(worker: Worker): void {
  const i = idle.findIndex((entry) => entry.worker === worker);
  if (i < 0) return;
  clearTimeout(idle[i].timer);
  idle.splice(i, 1);
}

function park(worker: Worker): void {
  worker.unref();
  const timer = setTimeout(() => {
    unpark(worker);
    void worker.terminate();
  }, IDLE_MS).unref();
  idle.push({ worker, timer });
}

/**
 * Converts an uploaded bookmark export in a worker thread, so a large or hostile file never holds
 * up other requests: parsing a 50 MB file takes seconds of CPU, and the request thread keeps
 * answering meanwhile. The content is copied once into the worker; the result comes back as text.
 */
export async function convertOffThread(content: Buffer, filename: string | undefined, limits: Partial<ImportLimits>): Promise<ConvertJobResult> {
  const release = await turn();
  try {
    const copy = new Uint8Array(content.byteLength);
    copy.set(content);
    const worker = takeWorker();
    const result = await new Promise<ConvertJobResult>((resolve, reject) => {
      const stop = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (answer: ConvertJobResult) => {
        stop();
        resolve(answer);
      };
      // A worker that failed is not used again.
      const onError = (err: Error) => {
        stop();
        void worker.terminate();
        reject(err);
      };
      const onExit = (code: number) => {
        stop();
        reject(new Error(`the import conversion worker stopped (exit code ${code}) before answering`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ content: copy, filename, limits }, [copy.buffer]);
    });
    if (content.byteLength <= KEEP_AFTER_BYTES_MAX) park(worker);
    else void worker.terminate();
    return result;
  } finally {
    release();
  }
}
