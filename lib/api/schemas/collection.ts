import { Type } from '@sinclair/typebox';
import { COLLECTION_SORTS, type CollectionSort } from '../constants.js';
import { Timestamp } from './common.js';

const Title = Type.String({ minLength: 1, maxLength: 500 });
const Color = Type.String({ pattern: '^#?[0-9a-fA-F]{3,8}$', description: 'hex colour' });
const View = Type.String({ minLength: 1, maxLength: 20, description: 'display mode, e.g. list, simple, grid, masonry' });
const CoverList = Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 10 });
/** `parent: {$id}`; null or an empty object makes the collection a root one. */
const ParentRef = Type.Union([Type.Object({ $id: Type.Optional(Type.Integer({ minimum: 1 })) }), Type.Null()]);

export const Collection = Type.Object({
  _id: Type.Integer(),
  access: Type.Object({ level: Type.Integer(), draggable: Type.Boolean() }),
  collaborators: Type.Optional(Type.Object({ $id: Type.String() })),
  color: Type.Optional(Type.String()),
  count: Type.Integer(),
  cover: Type.Array(Type.String()),
  created: Timestamp,
  expanded: Type.Boolean(),
  lastUpdate: Timestamp,
  public: Type.Boolean(),
  sort: Type.Number(),
  title: Type.String(),
  user: Type.Object({ $id: Type.Integer() }),
  view: Type.String(),
  parent: Type.Optional(Type.Object({ $id: Type.Integer() })),
  /** Beyond the spec: present only while the collection is public. */
  publicUrl: Type.Optional(
    Type.String({ description: 'Beyond the spec: the address of the read-only web page of this collection, present only while it is public.' }),
  ),
});

export const CollectionCreate = Type.Object(
  {
    title: Title,
    view: Type.Optional(View),
    sort: Type.Optional(Type.Number()),
    public: Type.Optional(Type.Boolean()),
    expanded: Type.Optional(Type.Boolean()),
    color: Type.Optional(Type.Union([Color, Type.Null()], { description: 'hex colour; null clears it' })),
    parent: Type.Optional(ParentRef),
    cover: Type.Optional(CoverList),
  },
  { additionalProperties: true },
);

export const CollectionUpdate = Type.Partial(CollectionCreate, { additionalProperties: true });

/** DELETE /collections. 1..100 ids (checked by the route: outside that range is a 413). */
export const CollectionsRemove = Type.Object({ ids: Type.Array(Type.Integer()) });
/** PUT /collections body: reorder all (`sort`) and/or expand or collapse all (`expanded`). */
export const CollectionsReorder = Type.Object({
  // A plain enum (not a union of literals) so a wrong value is reported with the allowed ones.
  sort: Type.Optional(Type.Unsafe<CollectionSort>({ type: 'string', enum: [...COLLECTION_SORTS] })),
  expanded: Type.Optional(Type.Boolean()),
});
/** PUT /collections query: `expanded` may come as a parameter instead of in the body. */
export const CollectionsReorderQuery = Type.Object({ expanded: Type.Optional(Type.Boolean()) });
/** PUT /collections/merge: `to` is a collection id or -1 (Unsorted); 1..100 ids, `to` not among them. */
export const CollectionsMerge = Type.Object({ to: Type.Integer(), ids: Type.Array(Type.Integer()) });
/** PUT /collections/clean answer: how many empty collections were removed. */
export const CollectionsCleanResult = Type.Object({ result: Type.Literal(true), count: Type.Integer() });
