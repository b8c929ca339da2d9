import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

/** What browsers may do across origins; only origins `isAllowedOrigin` accepts get any CORS header. */
interface CorsPolicy {
  isAllowedOrigin(origin: string): boolean;
  /** Response headers a page may read. */
  exposedHeaders: string[];
  /** Methods and request headers a preflight allows. */
  methods: string[];
  allowedHeaders: string[];
  /** Seconds a browser may keep a preflight's answer. */
  maxAgeS: number;
}

/**
 * CORS for the whole service, in one synchronous hook that costs a header or two per request (the
 * general-purpose plugin built an options object and a closure on every request, ~4 % of a GET's
 * CPU). Every answer varies by Origin; an allowed origin gets `Access-Control-Allow-Origin` and the
 * exposed headers; a preflight from an allowed origin is answered here (204), before authentication,
 * since browsers send no credentials with it. Requests without an Origin (not a browser) and from
 * other origins get no CORS header, and their preflights are answered as any other unsupported
 * method (405 with Allow, or 404 where there is no such resource).
 */
export function installCors(app: FastifyInstance, policy: CorsPolicy): void {
  const exposed = policy.exposedHeaders.join(', ');
  const methods = policy.methods.join(', ');
  const allowedHeaders = policy.allowedHeaders.join(', ');
  const maxAge = String(policy.maxAgeS);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (!origin || !policy.isAllowedOrigin(origin)) return done();
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', exposed);
    if (request.raw.method !== 'OPTIONS') return done();
    if (!request.headers['access-control-request-method']) {
      return done(new ApiError(400, 'An OPTIONS request from a browser page needs Access-Control-Request-Method: it is answered as a CORS preflight only.'));
    }
    reply.header('access-control-allow-methods', methods);
    reply.header('access-control-allow-headers', allowedHeaders);
    reply.header('access-control-max-age', maxAge);
    reply.code(204).header('content-length', '0').send();
  });

  // Preflights are answered by the hook; any other OPTIONS request finds no resource here.
  app.options('*', { schema: { hide: true } }, (_request, reply) => {
    reply.callNotFound();
  });
}
