import { Type, type TSchema } from '@sinclair/typebox';
import { LIMITS } from '../constants.js';

/** `{ $id: number }` reference used for collection, parent and user links. */
export const Ref = Type.Object({ $id: Type.Integer() }, { additionalProperties: true });

/** ISO 8601 timestamp text. */
export const Timestamp = Type.String({ format: 'date-time' });

/** Error envelope every failure answers with. */
export const ErrorEnvelope = Type.Object(
  {
    result: Type.Literal(false),
    status: Type.Integer(),
    errorMessage: Type.String(),
    error: Type.Optional(Type.String()),
  },
  // Some failures add fields (`unsent` on a 502 of sharing, OAuth `error` codes): they pass through.
  { $id: 'ErrorEnvelope', additionalProperties: true },
);

/** `{ result: true, item }` */
export const ItemEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({ result: Type.Literal(true), item });

/** `{ result: true, items }` */
export const ItemsEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({ result: Type.Literal(true), items: Type.Array(item) });

/** `{ result: true }` */
export const OkEnvelope = Type.Object({ result: Type.Literal(true) });

/** `{ result: true, modified }` answered by bulk update and bulk remove. */
export const ModifiedEnvelope = Type.Object({ result: Type.Literal(true), modified: Type.Integer() });

/** Paging query shared by list routes. Miscased variants are normalised before validation. */
export const PagingQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.pageMax, description: 'zero-based page' })),
  perpage: Type.Optional(Type.Integer({ minimum: 1, description: 'items per page, at most 50' })),
});

/**
 * How an id is written in a path: decimal digits, an optional minus for the system collections,
 * no leading zeros, no `+`, hex, exponent or whitespace (`/bookmark/0x10` is not bookmark 16).
 */
export const DECIMAL_ID_PATTERN = '^(0|-?[1-9][0-9]{0,15})$';

/** An id in a path (`{id}`, `{collectionId}`, `{userId}`), written as DECIMAL_ID_PATTERN says. */
export const PathId = (options: { minimum?: number; description?: string } = {}) =>
  Type.Integer({ ...options, pattern: DECIMAL_ID_PATTERN, maximum: Number.MAX_SAFE_INTEGER });

export const IdParam = Type.Object({ id: PathId() });
/** `{collectionId}` in a path: a collection's id, or 0 / -1 / -99 for all, Unsorted and Trash. */
export const CollectionIdParam = Type.Object({ collectionId: PathId() });
export const IdList = Type.Array(Type.Integer(), { description: 'ids, at most 100' });
