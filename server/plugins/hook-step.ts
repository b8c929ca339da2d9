/**
 * Ends a callback-style Fastify hook with a step that answers at once (undefined) when it can and
 * returns a promise only when it must wait: `done()` is called synchronously on the fast path, so a
 * request passes the hook without a promise; a thrown or rejected error goes to `done(err)`.
 */
export function finishWith(step: () => Promise<void> | undefined, done: (err?: Error) => void): void {
  let waiting: Promise<void> | undefined;
  try {
    waiting = step();
  } catch (err) {
    return done(err as Error);
  }
  if (waiting) waiting.then(() => done(), done);
  else done();
}
