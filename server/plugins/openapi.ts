import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The spec's `{$id: n}` references put a property literally named `$id` into our schemas. Schema
 * resolvers read any `$id` key as a schema identifier, so for the generated document only such a
 * property is described as `additionalProperties` with a note, instead of a property named `$id`.
 */
function describeDollarIdProperties(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(describeDollarIdProperties);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'properties' && value && typeof value === 'object' && '$id' in (value as object)) {
      const { $id: idSchema, ...rest } = value as Record<string, unknown>;
      out.properties = describeDollarIdProperties(rest);
      out.additionalProperties = describeDollarIdProperties(idSchema);
      out.description = [(node as { description?: string }).description, 'Holds one member named `$id`.']
        .filter(Boolean)
        .join(' ');
      continue;
    }
    if (key === 'required' && Array.isArray(value)) {
      out.required = value.filter((name) => name !== '$id');
      if ((out.required as unknown[]).length === 0) delete out.required;
      continue;
    }
    if (!(key in out)) out[key] = describeDollarIdProperties(value);
  }
  return out;
}

/** Serves the OpenAPI document built from the route schemas, and a docs page that renders it. */
export async function installOpenApi(app: FastifyInstance, prefix: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Tidemark bookmark service', version: '1.0.0', description: `The REST API under ${prefix}.` },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'tidemark_session',
            description:
              "The web app's sign-in cookie. Accepted only on requests from this site's own pages (Sec-Fetch-Site: same-origin, or a matching Origin); " +
              'from another origin a change is refused with 403 and a read counts as not signed in. A bearer token, when sent, is used instead.',
          },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform: ({ schema, url }) => ({ schema: describeDollarIdProperties(schema) as typeof schema, url }),
  });
  await app.register(swaggerUi, {
    routePrefix: `${prefix}/docs`,
    // The docs page and its scripts come from here alone, and no other site may frame it (a signed-in
    // person's "Try it out" could be clickjacked). No call to the public validator, and no upgrade
    // to https, which a server on plain http (a local one) could not answer.
    staticCSP: true,
    transformStaticCSP: (header: string) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(' validator.swagger.io', '')
        // Swagger UI sets style attributes as it renders; styles run nothing.
        .replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'")
        .replace(/\s*upgrade-insecure-requests;?/, ''),
    uiConfig: { validatorUrl: null },
  });
  app.get(`${prefix}/openapi.json`, { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
}
