import { Type } from '@sinclair/typebox';

export const Tag = Type.Object({ _id: Type.String(), count: Type.Integer() });

/** Rename (one tag) or merge (several) into `replace`. Older clients send `tag` for a rename. */
export const TagsRename = Type.Object({
  replace: Type.String({ minLength: 1, maxLength: 200 }),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000 })),
  tag: Type.Optional(Type.String({ minLength: 1 })),
});

export const TagsRemove = Type.Object({
  tags: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000 }),
});

/** An item of `GET /tags/suggest/{bookmarkId}`: one of the user's existing tags. */
export const TagSuggestion = Type.Object({ _id: Type.String() });
