// Worker thread entry for import conversion (see convert-off-thread.ts). Plain JavaScript so it
// starts the same way under tsx (serve), vitest and plain Node: the TypeScript job is loaded
// through tsx's import API. One job per worker; the parent ends the worker after the answer.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { runConvertJob } = await tsImport('./convert-job.ts', import.meta.url);
const { content, filename, limits } = workerData;
const result = runConvertJob(content, filename, limits);
// The bytes move to the parent without a copy.
parentPort.postMessage(result, result.kind === 'converted' ? [result.answerHead.buffer, result.linkKeys.buffer] : []);
