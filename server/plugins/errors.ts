import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EMAIL_ADDRESS_PATTERN } from '../../lib/api/email.js';
import { ApiError } from '../errors.js';
import { installMethodNotAllowed } from './declared-errors.js';

function envelope(status: number, errorMessage: string, extra: Record<string, unknown> = {}) {
  return { result: false as const, status, errorMessage, ...extra };
}

/** Reads a validation error the way a person would say it: `body.link must be a string`. */
function describeValidation(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const where = err.validationContext ?? 'input';
  const path = first.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : '';
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  const field = [where, path, missing].filter(Boolean).join('.');
  if (missing) return `${field} is required`;
  if (first.keyword === 'pattern' && (first.params as { pattern?: string }).pattern === EMAIL_ADDRESS_PATTERN) {
    return `${field} must be an email address, like ann@example.com`;
  }
  const allowed = (first.params as { allowedValues?: unknown[] } | undefined)?.allowedValues;
  if (allowed) return `${field} must be one of ${allowed.join(', ')}`;
  return `${field} ${first.message ?? 'is invalid'}`;
}

/**
 * Whether the error is only the client going away mid-upload (its stream closed early): nothing
 * went wrong on the server, and nobody is left to answer.
 */
function clientWentAway(err: FastifyError, request: FastifyRequest): boolean {
  const cutOff = err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.message === 'Premature close' || err.message === 'Unexpected end of form';
  return cutOff && (request.raw.destroyed || request.raw.socket?.destroyed === true);
}

/** Seconds a client is asked to wait when the database is away. */
const DATABASE_RETRY_AFTER_S = 5;

/** Every failure answers `{result: false, status, errorMessage}` with the matching HTTP status. */
export function installErrorHandling(app: FastifyInstance): void {
  const methods = installMethodNotAllowed(app);
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) {
      if (err.status === 429 && err.extra.retryAfter) reply.header('retry-after', String(err.extra.retryAfter));
      const { retryAfter: _r, ...extra } = err.extra;
      return reply.status(err.status).send(envelope(err.status, err.message, extra));
    }
    if (err.validation) return reply.status(400).send(envelope(400, describeValidation(err)));
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send(envelope(413, 'The request body is too large. Send fewer or smaller items.'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send(envelope(415, `Unsupported Content-Type ${request.headers['content-type'] ?? ''}: send JSON.`));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply.status(400).send(envelope(400, 'The request body is not valid JSON.'));
    }
    if (err instanceof SyntaxError) return reply.status(400).send(envelope(400, 'The request body is not valid JSON.'));
    if (app.store.isUnavailable(err)) {
      // The database is away (restarting, network cut): nothing was done, the client may retry, and
      // the store reconnects by itself once it is back.
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return reply.status(503).send(envelope(503, 'The database is not reachable right now. Try again in a few seconds.'));
    }
    if (clientWentAway(err, request)) {
      request.log.info('the client went away before its request had arrived');
      return reply.status(400).send(envelope(400, 'The request was cut off before it was complete. Send it again.'));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send(envelope(500, 'Something went wrong on the server. Try again; if it keeps happening, check the server log.'));
    }
    return reply.status(status).send(envelope(status, err.message));
  });

  app.setNotFoundHandler(async (request, reply) => {
    // Unknown routes count against the caller's IP like any other answer (and carry the headers).
    try {
      await app.rateLimit(request, reply, `ip${request.ip}`, 'main');
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      reply.header('retry-after', String(err.extra.retryAfter));
      return reply.status(429).send(envelope(429, err.message));
    }
    const path = request.url.split('?')[0]!;
    const allowed = methods.allowedFor(path);
    if (allowed.length && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      return reply.status(405).send(envelope(405, `${request.method} is not supported on ${path}: use ${allowed.join(', ')}.`));
    }
    return reply.status(404).send(envelope(404, `Not found: no route ${request.method} ${path}`));
  });
}

/**
 * Requests the router itself refuses (a malformed URL, a path segment over maxParamLength) get the
 * error envelope and the rate-limit headers like every other answer (Fastify's `frameworkErrors`).
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
  const message =
    status === 414
      ? 'A part of the path is too long: ids are numbers, names at most 1000 characters.'
      : status === 400
        ? 'The URL is malformed: check its percent-encoding.'
        : 'The request could not be routed.';
  // Over the limit: the refusal below answers anyway (the headers are set). Anything else is logged.
  const noted = (err: unknown) => {
    if (!(err instanceof ApiError)) request.log.warn({ err }, 'rate limit count failed');
  };
  let counting: Promise<void> | undefined;
  try {
    counting = request.server.rateLimit(request, reply, `ip${request.ip}`, 'main');
  } catch (err) {
    noted(err);
  }
  void Promise.resolve(counting)
    .catch(noted)
    .then(() => reply.code(status).send(envelope(status, message)));
}
