import { Type } from '@sinclair/typebox';
import { HIGHLIGHT_COLORS, type HighlightColor as HighlightColorName } from '../constants.js';
import { Timestamp } from './common.js';

// A plain string enum (not a union of literals) so a wrong colour is reported as
// "must be one of blue, brown, ..." instead of a dozen "must be equal to constant" errors.
export const HighlightColor = Type.Unsafe<HighlightColorName>({
  type: 'string',
  enum: [...HIGHLIGHT_COLORS],
  description: `one of ${HIGHLIGHT_COLORS.join(', ')}`,
});

/**
 * Anchoring context. `position` is which occurrence of `text` on the page is meant (0-based);
 * `prefix`/`suffix` hold about 32 characters of the page's normalised text either side.
 */
const AnchorFields = {
  position: Type.Optional(Type.Integer({ minimum: 0 })),
  prefix: Type.Optional(Type.String({ maxLength: 200 })),
  suffix: Type.Optional(Type.String({ maxLength: 200 })),
};

/** A highlight as stored inside its bookmark. */
export const Highlight = Type.Object({
  _id: Type.String({ pattern: '^[0-9a-f]{24}$' }),
  text: Type.String(),
  note: Type.String(),
  color: HighlightColor,
  created: Timestamp,
  lastUpdate: Timestamp,
  ...AnchorFields,
});

/** An item of `GET /highlights`. */
export const HighlightListItem = Type.Object({
  ...Highlight.properties,
  tags: Type.Array(Type.String()),
  link: Type.String(),
  title: Type.String(),
  bookmarkRef: Type.Integer(),
});

/**
 * One entry of `highlights` on `PUT /bookmark/{id}`: without `_id` it adds, with `_id` it updates the
 * fields sent, with `_id` and `text: ""` it removes.
 */
export const HighlightChange = Type.Object(
  {
    _id: Type.Optional(Type.String({ pattern: '^[0-9a-f]{24}$' })),
    text: Type.Optional(Type.String({ maxLength: 10_000 })),
    note: Type.Optional(Type.String({ maxLength: 10_000 })),
    color: Type.Optional(HighlightColor),
    ...AnchorFields,
  },
  { additionalProperties: true },
);
