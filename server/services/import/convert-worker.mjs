// Worker thread entry for import conversion (see convert-off-thread.ts). Plain JavaScript so it
// starts the same way under tsx (serve), vitest, plain Node and the compiled server (dist/, built by
// scripts/build-server.ts, where convert-job.js sits next to this file). From the sources the
// TypeScript job is loaded through tsx's import API, once per worker (about 0.85 s of CPU); tsx is
// then a development dependency, so it is imported only there. A worker converts one file at a
// time and then waits for the next; the parent ends it when it has been idle a while, after a large
// file, or when a conversion fails.
import { existsSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const compiled = new URL('./convert-job.js', import.meta.url);
const { runConvertJob } = existsSync(compiled)
  ? await import(compiled.href)
  : await (await import('tsx/esm/api')).tsImport('./convert-job.ts', import.meta.url);
parentPort.on('message', ({ content, filename, limits }) => {
  const result = runConvertJob(content, filename, limits);
  // The bytes move to the parent without a copy.
  parentPort.postMessage(result, result.kind === 'converted' ? [result.answerHead.buffer, result.linkKeys.buffer] : []);
});
