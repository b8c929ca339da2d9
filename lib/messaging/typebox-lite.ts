// The few TypeBox builders the message schemas use, giving exactly the schema TypeBox's own builders
// give (same JSON, same Kind and Optional symbols, same TypeBox types, so `Static` and TypeBox's
// `Value.Check` work on them; tests/extension/messaging.test.ts compares them with TypeBox's).
// TypeBox's builders would carry its clone-and-freeze machinery into the background, whose byte budget
// is nearly full (bench/README.md); these are a few hundred bytes.
import type {
  SchemaOptions,
  Static,
  TArray,
  TBoolean,
  TInteger,
  TLiteral,
  TLiteralValue,
  TNull,
  TObject,
  TOptional,
  TProperties,
  TSchema,
  TString,
  TUnion,
  TUnsafe,
  ArrayOptions,
  IntegerOptions,
  StringOptions,
} from '@sinclair/typebox';

const Kind = Symbol.for('TypeBox.Kind');
const OptionalKind = Symbol.for('TypeBox.Optional');

const make = <T>(kind: string, schema: object, options?: object): T => ({ ...options, [Kind]: kind, ...schema }) as T;

export const Str = (options?: StringOptions): TString => make('String', { type: 'string' }, options);
export const Integer = (options?: IntegerOptions): TInteger => make('Integer', { type: 'integer' }, options);
export const Bool = (): TBoolean => make('Boolean', { type: 'boolean' });
export const Null = (): TNull => make('Null', { type: 'null' });
export const Literal = <T extends TLiteralValue>(value: T): TLiteral<T> => make('Literal', { const: value, type: typeof value });
export const List = <T extends TSchema>(items: T, options?: ArrayOptions): TArray<T> => make('Array', { type: 'array', items }, options);
export const Union = <T extends TSchema[]>(anyOf: [...T]): TUnion<T> => make('Union', { anyOf });
export const Optional = <T extends TSchema>(schema: T): TOptional<T> => ({ ...schema, [OptionalKind]: 'Optional' }) as TOptional<T>;
/** `schema` with the static type `T` (a template-literal string); it keeps its kind, so it is checked as what it is. */
export const Unsafe = <T>(schema: SchemaOptions): TUnsafe<T> => make((schema as Record<symbol, string>)[Kind] ?? 'Unsafe', {}, schema);

/** `Type.Object(properties, { additionalProperties: false })`: exactly these fields. */
export function Obj<P extends TProperties>(properties: P): TObject<P> {
  const required = Object.keys(properties).filter((k) => !(OptionalKind in properties[k]));
  const options = { additionalProperties: false };
  return make('Object', required.length ? { type: 'object', required, properties } : { type: 'object', properties }, options);
}

export type { Static, TSchema };
