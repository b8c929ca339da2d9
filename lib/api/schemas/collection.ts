import { Type } from '@sinclair/typebox';
import { COLLECTION_SORTS } from '../constants.js';
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
});

export const CollectionCreate = Type.Object(
  {
    title: Title,
    view: Type.Optional(View),
    sort: Type.Optional(Type.Number()),
    public: Type.Optional(Type.Boolean()),
    expanded: Type.Optional(Type.Boolean()),
    color: Type.Optional(Color),
    parent: Type.Optional(ParentRef),
    cover: Type.Optional(CoverList),
  },
  { additionalProperties: true },
);

export const CollectionUpdate = Type.Partial(CollectionCreate, { additionalProperties: true });

export const CollectionsRemove = Type.Object({ ids: Type.Array(Type.Integer()) });
export const CollectionsReorder = Type.Object({
  sort: Type.Optional(Type.Union(COLLECTION_SORTS.map((s) => Type.Literal(s)))),
  expanded: Type.Optional(Type.Boolean()),
});
export const CollectionsMerge = Type.Object({ to: Type.Integer(), ids: Type.Array(Type.Integer()) });
