import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { DECIMAL_ID_PATTERN } from '../../lib/api/schemas/common.js';

/**
 * Two validators: query strings, params and headers are text on the wire, so they are coerced
 * ("5" -> 5); JSON bodies are not, so `{"title": 5}` is rejected instead of silently becoming "5".
 */
export function installValidators(app: FastifyInstance): void {
  const shared = { allErrors: false, useDefaults: true, removeAdditional: true as const, strict: false };
  const coercing = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  const strict = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const validate = (httpPart === 'body' ? strict : coercing).compile(boundIntegers(schema) as object) as Validate;
    return httpPart === 'params' ? strictPathIntegers(schema, validate) : validate;
  });
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * Path parameters are text; an integer one must be written in decimal (its schema's `pattern`,
 * else DECIMAL_ID_PATTERN) before it is coerced. Otherwise `0x10`, `+2`, `1e1` or `2\n` would be
 * read as numbers.
 */
function strictPathIntegers(schema: unknown, validate: Validate): Validate {
  const properties = (schema as { properties?: Record<string, { type?: unknown; pattern?: string }> }).properties ?? {};
  const checks = Object.entries(properties)
    .filter(([, p]) => p.type === 'integer')
    .map(([name, p]) => [name, new RegExp(p.pattern ?? DECIMAL_ID_PATTERN)] as const);
  if (checks.length === 0) return validate;
  const strict: Validate = (data) => {
    for (const [name, pattern] of checks) {
      const value = (data as Record<string, unknown> | null)?.[name];
      if (typeof value === 'string' && !pattern.test(value)) {
        strict.errors = [{ instancePath: `/${name}`, schemaPath: `#/properties/${name}/pattern`, keyword: 'pattern', params: { pattern: pattern.source }, message: 'must be a whole number written in decimal digits' }];
        return false;
      }
    }
    const ok = validate(data);
    strict.errors = validate.errors;
    return ok;
  };
  return strict;
}

/**
 * A copy of `schema` where every integer without bounds of its own is kept to what a JavaScript
 * number holds exactly (and so what SQLite stores as an integer): `1e30` or a 20-digit id is a 400
 * naming the field, never a float that fails deeper down or comes back rounded.
 */
function boundIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    // `properties` maps names to schemas, `const`/`enum`/`default`/`examples` hold values: only schemas are walked.
    out[key] = key === 'const' || key === 'enum' || key === 'default' || key === 'examples' ? value : boundIntegers(value);
  }
  const type = out.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = Number.MAX_SAFE_INTEGER;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = -Number.MAX_SAFE_INTEGER;
  }
  return out;
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
