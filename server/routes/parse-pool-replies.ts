// What the routes that hand untrusted input to the parse pool share: a signal that says the client
// went away (so its parse stops), and the answer a refused parse gets.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { ParseRefused } from '../services/parse-pool/index.js';

/** Aborts when the connection closes before the answer was sent: the client has gone, its work may stop. */
export function clientGone(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', () => controller.abort());
  return controller.signal;
}

/** A refused parse as the API answers it (422 too deep or too slow, 413 too much memory, 503 closing); other errors unchanged. */
export function refusalAsApiError(error: unknown): unknown {
  if (!(error instanceof ParseRefused)) return error;
  return new ApiError(error.status, error.message, { error: error.code });
}
