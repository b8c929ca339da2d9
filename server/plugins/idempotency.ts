import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/** How long a stored answer is replayed. The extension's offline queue retries well within this. */
const IDEMPOTENCY_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A claimed key whose request has not answered after this long is considered abandoned (crash). */
const IDEMPOTENCY_STALE_MS = 60_000;

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);

interface Claim {
  userId: number;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claim | null;
  }
}

function fingerprint(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

/**
 * Exactly-once writes for clients that retry (the extension's offline queue). BEYOND THE SPEC.
 *
 * A POST, PUT or DELETE under /rest/v1 that carries an `Idempotency-Key` header (1-200 visible ASCII
 * characters, unique per intended write; the extension sends a UUID) is run once per (user, key):
 * - the first request runs and its answer (status and body) is stored, unless it failed in a way
 *   worth retrying (5xx, 429), in which case the key is released;
 * - a repeat with the same method, path and body gets the stored answer again, with the header
 *   `Idempotent-Replayed: true`, and changes nothing (no second bookmark, no second delete, which
 *   would remove a bookmark from Trash for good);
 * - a repeat while the first is still running gets 409; the same key on a different request gets 422.
 * Stored answers are kept for 30 days. Requests without the header are not affected.
 */
export function installIdempotency(app: FastifyInstance): void {
  const repo = app.repos.idempotency;
  let lastPrune = 0;

  app.decorateRequest('idempotency', null);

  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || request.userId === null) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(400, 'The Idempotency-Key header must be 1 to 200 visible ASCII characters (a UUID works).');
    }
    const now = app.config.clock.now();
    if (now - lastPrune > 60 * 60 * 1000) {
      lastPrune = now;
      await repo.prune(now - IDEMPOTENCY_TTL_MS);
    }
    const start = await repo.start(request.userId, key, fingerprint(request), now, IDEMPOTENCY_STALE_MS);
    switch (start.kind) {
      case 'run':
        request.idempotency = { userId: request.userId, key };
        return;
      case 'replay':
        reply.code(start.status).header('content-type', 'application/json; charset=utf-8').header('idempotent-replayed', 'true');
        return reply.send(start.body);
      case 'in-progress':
        throw new ApiError(409, 'A request with this Idempotency-Key is still being processed. Retry in a moment.');
      case 'mismatch':
        throw new ApiError(422, 'This Idempotency-Key was already used for a different request. Use a new key for a new write.');
    }
  };

  const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    const status = reply.statusCode;
    if (status >= 500 || status === 429 || typeof payload !== 'string') await repo.abandon(claim.userId, claim.key);
    else await repo.finish(claim.userId, claim.key, status, payload);
    return payload;
  };

  // Only writes take part; reads (the bulk of the traffic) carry no idempotency hooks at all.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => WRITE_METHODS.has(m))) return;
    route.preHandler = [claim, ...(route.preHandler ? [route.preHandler].flat() : [])];
    route.onSend = [settle, ...(route.onSend ? [route.onSend].flat() : [])];
  });
}
