import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

const WINDOW_MS = 60_000;

/** Which count a request goes to. */
export type RateBucket = 'main' | 'small';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request was counted already (so it is counted once, and its headers are set once). */
    rateCounted?: boolean;
  }
  interface FastifyInstance {
    /** Counts a request (see installRateLimit); rejects with the 429 when over the limit. */
    rateLimit(request: FastifyRequest, reply: FastifyReply, key: string, bucket: RateBucket): Promise<void>;
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

  app.decorate('rateLimit', async (request: FastifyRequest, reply: FastifyReply, who: string, bucket: RateBucket) => {
    if (request.rateCounted) return;
    request.rateCounted = true;
    const limit = bucket === 'small' ? app.config.rateLimit.smallPerMinute : app.config.rateLimit.perMinute;
    const w = await windows.hit(`${who}:${bucket}`, WINDOW_MS, limit);
    const resetMs = w.start + WINDOW_MS;
    reply.header('x-ratelimit-limit', String(limit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit - w.count)));
    reply.header('x-ratelimit-reset', String(Math.ceil(resetMs / 1000)));
    if (w.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((resetMs - app.config.clock.now()) / 1000));
      throw new ApiError(429, `Too many requests: the limit is ${limit} a minute. Wait ${retryAfter} s and try again.`, { retryAfter });
    }
  });

  // Requests no API route counts: pages, the OAuth endpoints, unknown routes, the documents. Root
  // hooks run for every request (the API's own hook, after authentication, runs later and counts
  // those per user); this one counts the rest per IP. The 404 handler counts unknown routes.
  // A callback hook, so the API's requests pass it without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config?.apiRoute || !request.routeOptions.url) return done();
    app.rateLimit(request, reply, `ip${request.ip}`, request.routeOptions.config?.bucket ?? 'main').then(() => done(), done);
  });
}

/**
 * The API scope's part: routes are marked as API routes, and the returned step (run by app.ts right
 * after authentication, in the same hook) counts each call per user (per IP without a token). A
 * failed authentication is counted per IP in the small bucket before its 401 is sent (so bad-token
 * floods reach 429 quickly).
 */
export function installApiRateLimit(scope: FastifyInstance): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), apiRoute: true };
  });
  return async (request, reply) => {
    if (request.authFailure) {
      await scope.rateLimit(request, reply, `ip${request.ip}:auth`, 'small');
      throw request.authFailure;
    }
    const who = request.userId !== null ? `u${request.userId}` : `ip${request.ip}`;
    await scope.rateLimit(request, reply, who, request.routeOptions.config?.bucket ?? 'main');
  };
}
