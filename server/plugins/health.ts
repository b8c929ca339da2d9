import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

/**
 * Tidemark's version, from the package.json above this file: the repository's, from the sources
 * (server/plugins/) and from the compiled tree (dist/server/plugins/) alike.
 */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tidemark' && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

const Health = Type.Object({
  result: Type.Literal(true),
  status: Type.String({ description: '"ok" on /health, "ready" on /ready.' }),
  version: Type.String({ description: "Tidemark's version number." }),
});
const NotReady = Type.Object({
  result: Type.Literal(false),
  errorMessage: Type.String({ description: 'Why the server cannot serve requests now.' }),
});

/**
 * Probes for load balancers, orchestrators and uptime checks, at the root: GET /health answers 200
 * while the process runs; GET /ready answers 200 only when the database answers and its migrations
 * are applied, 503 with the reason otherwise (and while the server shuts down). No token, not
 * rate-limited (a probe every few seconds must never use up a client's allowance or be refused),
 * and left out of the request log (their routes log at warn), so probes do not fill it. They say nothing but a
 * version number: no paths, addresses or dependency versions.
 */
export function installHealth(app: FastifyInstance): void {
  const version = packageVersion();
  const probe = { config: { auth: 'none' as const, unmetered: true }, logLevel: 'warn' as const };
  app.get(
    '/health',
    { ...probe, schema: { summary: 'Liveness: 200 while the process runs', tags: ['operations'], security: [], response: { 200: Health } } },
    async () => ({ result: true as const, status: 'ok', version }),
  );
  app.get(
    '/ready',
    {
      ...probe,
      schema: {
        summary: 'Readiness: 200 when the database answers and is migrated, else 503 with the reason',
        tags: ['operations'],
        security: [],
        response: { 200: Health, 503: NotReady },
      },
    },
    async (_request, reply) => {
      const reason = await app.store.checkReady();
      if (reason) return reply.status(503).header('retry-after', '5').send({ result: false as const, errorMessage: `Not ready: ${reason}.` });
      return { result: true as const, status: 'ready', version };
    },
  );
}
