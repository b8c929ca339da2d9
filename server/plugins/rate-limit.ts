import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

interface Window {
  start: number;
  count: number;
}

/**
 * Fixed one-minute windows per caller (user id, or IP for anonymous calls) and bucket. Every response
 * carries x-ratelimit-limit / -remaining / -reset (epoch seconds); a 429 adds Retry-After.
 */
export function installRateLimit(app: FastifyInstance): void {
  const windows = new Map<string, Window>();
  const WINDOW_MS = 60_000;

  // Forget finished windows now and then so the map cannot grow without bound.
  const sweep = setInterval(() => {
    const now = app.config.clock.now();
    for (const [key, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(key);
  }, WINDOW_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  app.addHook('onRequest', (request, reply, done) => {
    const bucket = request.routeOptions.config?.bucket ?? 'main';
    const limit = bucket === 'small' ? app.config.rateLimit.smallPerMinute : app.config.rateLimit.perMinute;
    const who = request.userId !== null ? `u${request.userId}` : `ip${request.ip}`;
    const key = `${who}:${bucket}`;
    const now = app.config.clock.now();
    let w = windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { start: now, count: 0 };
      windows.set(key, w);
    }
    w.count += 1;
    const resetMs = w.start + WINDOW_MS;
    reply.header('x-ratelimit-limit', String(limit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit - w.count)));
    reply.header('x-ratelimit-reset', String(Math.ceil(resetMs / 1000)));
    if (w.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((resetMs - now) / 1000));
      done(
        new ApiError(429, `Too many requests: the limit is ${limit} a minute. Wait ${retryAfter} s and try again.`, {
          retryAfter,
        }),
      );
      return;
    }
    done();
  });
}
