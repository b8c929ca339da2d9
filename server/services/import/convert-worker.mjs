// Worker thread entry for import conversion (see convert-off-thread.ts). Plain JavaScript so it
// starts the same way under tsx (serve), vitest and plain Node: the TypeScript job is loaded
// through tsx's import API, once per worker (about 0.85 s of CPU). A worker converts one file at a
// time and then waits for the next; the parent ends it when it has been idle a while, after a large
// file, or when a conversion fails.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { runConvertJob } = await tsImport('./convert-job.ts', import.meta.url);
parentPort.on('message', ({ content, filename, limits }) => {
  const result = runConvertJob(content, filename, limits);
  // The bytes move to the parent without a copy.
  parentPort.postMessage(result, result.kind === 'converted' ? [result.answerHead.buffer, result.linkKeys.buffer] : []);
});
