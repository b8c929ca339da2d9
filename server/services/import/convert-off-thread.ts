import { Worker } from 'node:worker_threads';
import type { ConvertJobResult } from './convert-job.js';
import type { ImportLimits } from './types.js';

/** Conversions running at once; more wait their turn (each may hold a 50 MB file several times over). */
const MAX_CONCURRENT = 2;
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
 * Converts an uploaded bookmark export in a worker thread, so a large or hostile file never holds
 * up other requests: parsing a 50 MB file takes seconds of CPU, and the request thread keeps
 * answering meanwhile. The content is copied once into the worker; the result comes back as text.
 */
export async function convertOffThread(content: Buffer, filename: string | undefined, limits: Partial<ImportLimits>): Promise<ConvertJobResult> {
  const release = await turn();
  try {
    const copy = new Uint8Array(content.byteLength);
    copy.set(content);
    const worker = new Worker(new URL('./convert-worker.mjs', import.meta.url), {
      workerData: { content: copy, filename, limits },
      transferList: [copy.buffer],
      // A file that blows up in memory fails this conversion, not the server.
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
    return await new Promise<ConvertJobResult>((resolve, reject) => {
      let settled = false;
      worker.once('message', (result: ConvertJobResult) => {
        settled = true;
        resolve(result);
        void worker.terminate();
      });
      worker.once('error', (err) => {
        settled = true;
        reject(err);
      });
      worker.once('exit', (code) => {
        if (!settled) reject(new Error(`the import conversion worker stopped (exit code ${code}) before answering`));
      });
    });
  } finally {
    release();
  }
}
