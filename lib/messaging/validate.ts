// Small runtime checks for message payloads. A check returns null when the value is fine, or says
// what is wrong. No schema library: these run in the background bundle.

export type Check = (value: unknown, path: string) => string | null;

export const int =
  (min = -(2 ** 31), max = 2 ** 31 - 1): Check =>
  (v, p) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? null : `${p} must be a whole number from ${min} to ${max}`;

export const str =
  (max: number, min = 0): Check =>
  (v, p) =>
    typeof v === 'string' && v.length <= max && v.length >= min ? null : `${p} must be text of ${min} to ${max} characters`;

export const bool: Check = (v, p) => (typeof v === 'boolean' ? null : `${p} must be true or false`);

export const nothing: Check = (v, p) => (v === undefined || v === null ? null : `${p} must be empty`);

export const oneOf =
  (...values: readonly unknown[]): Check =>
  (v, p) =>
    values.includes(v) ? null : `${p} must be one of ${values.join(', ')}`;

export const nullable =
  (check: Check): Check =>
  (v, p) =>
    v === null ? null : check(v, p);

export const optional =
  (check: Check): Check =>
  (v, p) =>
    v === undefined ? null : check(v, p);

export const array =
  (item: Check, maxItems: number): Check =>
  (v, p) => {
    if (!Array.isArray(v)) return `${p} must be a list`;
    if (v.length > maxItems) return `${p} must have at most ${maxItems} items`;
    for (let i = 0; i < v.length; i++) {
      const e = item(v[i], `${p}[${i}]`);
      if (e) return e;
    }
    return null;
  };

/** An object with exactly these fields (unknown fields are refused). */
export const object =
  (shape: Record<string, Check>): Check =>
  (v, p) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return `${p} must be an object`;
    for (const key of Object.keys(v)) if (!(key in shape)) return `${p}.${key} is not expected`;
    for (const [key, check] of Object.entries(shape)) {
      const e = check((v as Record<string, unknown>)[key], `${p}.${key}`);
      if (e) return e;
    }
    return null;
  };

/** A bookmark reference: `b:<positive id>` or `l:<local id>`. */
export const bookmarkRef: Check = (v, p) =>
  typeof v === 'string' && (/^b:[1-9]\d{0,15}$/.test(v) || /^l:[\w-]{1,64}$/.test(v)) ? null : `${p} must be a bookmark reference`;

/** An http(s) URL of at most 2048 characters. */
export const httpUrl: Check = (v, p) => {
  if (typeof v !== 'string' || v.length > 2048) return `${p} must be a URL`;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? null : `${p} must start with http:// or https://`;
  } catch {
    return `${p} must be a URL`;
  }
};

/** One of several object shapes told apart by the value of `field` (e.g. `kind`). */
export const tagged =
  (field: string, variants: Record<string, Check>): Check =>
  (v, p) => {
    const tag = v && typeof v === 'object' ? (v as Record<string, unknown>)[field] : undefined;
    if (typeof tag !== 'string' || !Object.hasOwn(variants, tag)) return `${p}.${field} must be one of ${Object.keys(variants).join(', ')}`;
    return variants[tag]!(v, p);
  };
