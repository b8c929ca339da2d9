import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * This server's own origin as browsers see it: the configured public URL's origin, or the scheme and
 * Host of the request (behind a proxy, `--trust-proxy` makes these the forwarded ones).
 */
export function ownOrigin(app: FastifyInstance, request: FastifyRequest): string {
  const configured = app.config.publicUrl;
  if (configured) {
    try {
      return new URL(configured).origin;
    } catch {
      /* a malformed setting falls back to the request's own origin */
    }
  }
  return `${request.protocol}://${request.host}`;
}
