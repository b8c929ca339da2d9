import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { finishWith } from './hook-step.js';
import type { RateWindowCount } from '../repositories/index.js';

const WINDOW_MS = 60_000;

/** Which count a request goes to. */
type RateBucket = 'main' | 'small';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request was counted already (so it is counted once, and its headers are set once). */
    rateCounted?: boolean;
  }
  interface FastifyInstance {
    /**
     * Counts a request (see installRateLimit) and throws the 429 when over the limit. Answers at once
     * (undefined) when the count is known without asking the database, else a promise (rejected
     * with the 429 when over).
     */
    rateLimit(request: FastifyRequest, reply: FastifyReply, key: string, bucket: RateBucket): Promise<void> | undefined;
  }
}

/**
 * Fixed one-minute windows per caller and bucket, on every answer the service gives:
 * - API calls with a valid token count per user;
 * - everything else counts per IP address: anonymous API calls, calls with a missing, malformed
 *   or unknown token (their 401s count in the small bucket, so guessing tokens is slow),
 *   unknown routes (404), unsupported methods (405), pages, and POST /oauth/access_token (small
 *   bucket).
 * Every answer carries x-ratelimit-limit / -remaining / -reset (epoch seconds), 401 and 404 included;
 * a 429 adds Retry-After.
 */
export function installRateLimit(app: FastifyInstance): void {
  // Counted by the repository: in this process on SQLite, in the database (shared by every
  // instance) on PostgreSQL.
  const windows = app.repos.rateWindows;

  const answer = (reply: FastifyReply, limit: number, w: RateWindowCount): void => {
    const resetMs = w.start + WINDOW_MS;
    reply.header('x-ratelimit-limit', String(limit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit - w.count)));
    reply.header('x-ratelimit-reset', String(Math.ceil(resetMs / 1000)));
    if (w.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((resetMs - app.config.clock.now()) / 1000));
      throw new ApiError(429, `Too many requests: the limit is ${limit} a minute. Wait ${retryAfter} s and try again.`, { retryAfter });
    }
  };
  app.decorate('rateLimit', (request: FastifyRequest, reply: FastifyReply, who: string, bucket: RateBucket) => {
    if (request.rateCounted) return undefined;
    request.rateCounted = true;
    const limit = bucket === 'small' ? app.config.rateLimit.smallPerMinute : app.config.rateLimit.perMinute;
    const w = windows.hit(`${who}:${bucket}`, WINDOW_MS, limit);
    if (w instanceof Promise) return w.then((counted) => answer(reply, limit, counted));
    answer(reply, limit, w);
    return undefined;
  });

  // Requests no API route counts: pages, the OAuth endpoints, unknown routes, the documents. Root
  // hooks run for every request (the API's own hook, after authentication, runs later and counts
  // those per user); this one counts the rest per IP. The 404 handler counts unknown routes.
  // A callback hook, so the API's requests pass it without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions;
    if (route.config?.apiRoute || route.config?.unmetered || !route.url) return done();
    finishWith(() => app.rateLimit(request, reply, `ip${request.ip}`, route.config?.bucket ?? 'main'), done);
  });
}

/**
 * The API scope's part: routes are marked as API routes, and the returned step (run by app.ts right
 * after authentication, in the same hook) counts each call per user (per IP without a token). A
 * failed authentication is counted per IP in the small bucket before its 401 is sent (so bad-token
 * floods reach 429 quickly). Like rateLimit, the step throws or answers at once when it can, and
 * returns a promise only when it must wait.
 */
export function installApiRateLimit(scope: FastifyInstance): (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), apiRoute: true };
  });
  return (request, reply) => {
    const failure = request.authFailure;
    if (failure) {
      const counting = scope.rateLimit(request, reply, `ip${request.ip}:auth`, 'small');
      if (counting)
        return counting.then(() => {
          throw failure;
        });
      throw failure;
    }
    const who = request.userId !== null ? `u${request.userId}` : `ip${request.ip}`;
    return scope.rateLimit(request, reply, who, request.routeOptions.config?.bucket ?? 'main');
  };
}
