// Checks a value against a TypeBox schema by reading the schema's JSON (the keywords lib/messaging/
// schemas.ts uses), instead of bundling TypeBox's compiler (~15 KB gzipped) into the background.
// Returns null when the value fits, else what is wrong, naming the field (`data.changes.tags[1]`).
// A keyword this does not know fails the check, so a schema cannot silently check less than it says.

import type { TSchema } from '@sinclair/typebox';

/** The JSON Schema keywords of a TypeBox schema that this reads. */
interface SchemaJson {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
  anyOf?: SchemaJson[];
  const?: unknown;
  enum?: readonly unknown[];
  properties?: Record<string, SchemaJson>;
  required?: string[];
  additionalProperties?: boolean;
  items?: SchemaJson;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** What a value of the pattern is, in words ("a bookmark reference"). */
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function check(schema: TSchema, v: unknown, p: string): string | null {
  return checkJson(schema as SchemaJson, v, p);
}

function checkJson(schema: SchemaJson, v: unknown, p: string): string | null {
  if (schema.anyOf) return checkUnion(schema.anyOf, v, p);
  if ('const' in schema) return v === schema.const ? null : `${p} must be ${show(schema.const)}`;
  if (schema.enum) return schema.enum.includes(v) ? null : `${p} must be one of ${schema.enum.map(show).join(', ')}`;
  switch (schema.type) {
    case 'null':
      return v === null ? null : `${p} must be empty`;
    case 'boolean':
      return typeof v === 'boolean' ? null : `${p} must be true or false`;
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -(2 ** 31);
      const max = schema.maximum ?? 2 ** 31 - 1;
      const whole = schema.type === 'integer';
      const ok = typeof v === 'number' && (whole ? Number.isInteger(v) : Number.isFinite(v)) && v >= min && v <= max;
      return ok ? null : `${p} must be a ${whole ? 'whole ' : ''}number from ${min} to ${max}`;
    }
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? Infinity;
      if (typeof v !== 'string' || v.length < min || v.length > max) return `${p} must be text of ${min} to ${max} characters`;
      if (schema.format === 'http-url') return httpUrl(v, p);
      if (schema.format !== undefined) return `${p}: unknown format ${schema.format}`;
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(v)) return `${p} must be ${schema.description ?? 'in the expected form'}`;
      return null;
    }
    case 'array': {
      if (!Array.isArray(v)) return `${p} must be a list`;
      if (v.length > (schema.maxItems ?? Infinity)) return `${p} must have at most ${schema.maxItems} items`;
      if (v.length < (schema.minItems ?? 0)) return `${p} must have at least ${schema.minItems} items`;
      for (let i = 0; i < v.length; i++) {
        const e = checkJson(schema.items!, v[i], `${p}[${i}]`);
        if (e) return e;
      }
      return null;
    }
    case 'object': {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return `${p} must be an object`;
      const shape = schema.properties ?? {};
      if (schema.additionalProperties !== false) return `${p}: the schema must list every field (additionalProperties: false)`;
      for (const key of Object.keys(v)) if (!Object.hasOwn(shape, key)) return `${p}.${key} is not expected`;
      for (const [key, s] of Object.entries(shape)) {
        const value = (v as Record<string, unknown>)[key];
        if (value === undefined) {
          if (schema.required?.includes(key)) return `${p}.${key} is missing`;
          continue;
        }
        const e = checkJson(s, value, `${p}.${key}`);
        if (e) return e;
      }
      return null;
    }
    default:
      return `${p}: the schema has no type this check knows`;
  }
}

/**
 * One of several schemas. Objects told apart by a field every variant fixes (`kind`, `op`) are
 * checked against the variant that field names, so the error is about that variant.
 */
function checkUnion(variants: SchemaJson[], v: unknown, p: string): string | null {
  const tag = Object.keys(variants[0]?.properties ?? {}).find((k) => variants.every((s) => s.properties?.[k] && 'const' in s.properties[k]));
  if (tag !== undefined) {
    const value = v && typeof v === 'object' ? (v as Record<string, unknown>)[tag] : undefined;
    const chosen = variants.find((s) => s.properties![tag].const === value);
    if (!chosen) return `${p}.${tag} must be one of ${variants.map((s) => show(s.properties![tag].const)).join(', ')}`;
    return checkJson(chosen, v, p);
  }
  if (variants.every((s) => 'const' in s)) return variants.some((s) => s.const === v) ? null : `${p} must be one of ${variants.map((s) => show(s.const)).join(', ')}`;
  const errors = variants.map((s) => checkJson(s, v, p));
  return errors.includes(null) ? null : errors.join(', or ');
}

/** An http(s) URL of at most 2048 characters. */
function httpUrl(v: string, p: string): string | null {
  if (v.length > 2048) return `${p} must be a URL`;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? null : `${p} must start with http:// or https://`;
  } catch {
    return `${p} must be a URL`;
  }
}
