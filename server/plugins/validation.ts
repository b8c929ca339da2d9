import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Two validators: query strings, params and headers are text on the wire, so they are coerced
 * ("5" -> 5); JSON bodies are not, so `{"title": 5}` is rejected instead of silently becoming "5".
 */
export function installValidators(app: FastifyInstance): void {
  const shared = { allErrors: false, useDefaults: true, removeAdditional: true as const, strict: false };
  const coercing = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  const strict = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}

/** Query keys clients send in other spellings, mapped to the canonical one. */
const QUERY_ALIASES: Record<string, string> = { perpage: 'perpage', pagesize: 'perpage', per_page: 'perpage' };

/**
 * Tolerates what real clients send: empty parameters (`sort=&search=`) are dropped and miscased
 * ones (`perPage`, `pagesize`) are mapped, before validation sees them.
 */
export function normaliseQuery(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === '' || value === undefined) continue;
    const alias = QUERY_ALIASES[key.toLowerCase()] ?? (key.toLowerCase() in KNOWN_LOWER ? key.toLowerCase() : key);
    out[alias] = value;
  }
  return out;
}

const KNOWN_LOWER: Record<string, true> = { page: true, sort: true, search: true, nested: true, url: true };
