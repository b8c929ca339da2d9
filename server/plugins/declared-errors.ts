import type { FastifyInstance, RouteOptions } from 'fastify';

const ERROR_REPLY = { $ref: 'ErrorEnvelope#' } as const;

/**
 * Makes the OpenAPI document say every status an API route can answer, so clients (and the fuzz
 * test) can rely on it: each failure the shared plumbing produces is declared with the error
 * envelope on every route under /rest/v1, next to the statuses the route declares itself.
 * - 400 bad input (validation, JSON, nesting depth); 413 body too large; 414 path part too long; 415 not JSON;
 * - 401 no or bad token (public routes too: a bad token is refused); 403 no right; 404 no such object;
 * - 409 / 422 Idempotency-Key conflicts on writes; 429 rate limit; 500 / 503 server trouble.
 * Routes whose auth is optional say so (`security: [{}, {bearer: []}]`), and 'none' routes need no token.
 */
export function installDeclaredErrors(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    if (schema.hide) return;
    const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
    const methods = [route.method].flat();
    const writes = methods.some((m) => m === 'POST' || m === 'PUT' || m === 'DELETE' || m === 'PATCH');
    const statuses = [400, 401, 403, 404, 414, 429, 500, 503, ...(writes ? [409, 413, 415, 422] : [])];
    for (const status of statuses) if (!(status in response) && !(String(status) in response)) response[status] = ERROR_REPLY;
    const auth = route.config?.auth ?? 'required';
    const security = auth === 'optional' ? [{}, { bearer: [] }] : auth === 'none' ? [] : undefined;
    route.schema = { ...schema, response, ...(security && !schema.security ? { security } : {}) } as RouteOptions['schema'];
  });
}

/**
 * A known path asked with a method it does not take answers 405 with the envelope and an `Allow`
 * header naming the methods it does take (instead of "no route"). Patterns are learnt from the
 * routes as they are added.
 */
export function installMethodNotAllowed(app: FastifyInstance): { allowedFor(path: string): string[] } {
  const patterns: { re: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url === '*' || route.url.endsWith('*')) return;
    const re = new RegExp(`^${route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
    for (const method of [route.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') patterns.push({ re, method });
  });
  return {
    allowedFor(path: string) {
      const methods = new Set<string>();
      for (const p of patterns) if (p.re.test(path)) methods.add(p.method);
      if (methods.has('GET')) methods.add('HEAD');
      return [...methods].sort();
    },
  };
}
