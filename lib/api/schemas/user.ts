import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { EMAIL_ADDRESS_PATTERN, EMAIL_MAX_LENGTH } from '../email.js';

/** An email address (lib/api/email.ts: the same rule as web sign-up). */
export const EmailAddress = Type.String({ pattern: EMAIL_ADDRESS_PATTERN, maxLength: EMAIL_MAX_LENGTH, description: 'an email address' });

export const UserConfig = Type.Object({
  broken_level: Type.String(),
  font_color: Type.String(),
  font_size: Type.Number(),
  lang: Type.String(),
  last_collection: Type.Integer(),
  bookmarks_sort: Type.String(),
  bookmarks_view: Type.String(),
});

export const UserGroup = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  hidden: Type.Boolean(),
  sort: Type.Number(),
  collections: Type.Array(Type.Integer()),
});

export const UserFiles = Type.Object({
  used: Type.Number(),
  size: Type.Number(),
  lastCheckPoint: Timestamp,
});

export const User = Type.Object({
  _id: Type.Integer(),
  config: UserConfig,
  dropbox: Type.Object({ enabled: Type.Boolean() }),
  email: Type.String(),
  email_MD5: Type.String(),
  files: UserFiles,
  fullName: Type.String(),
  gdrive: Type.Object({ enabled: Type.Boolean() }),
  groups: Type.Array(UserGroup),
  password: Type.Boolean(),
  pro: Type.Boolean(),
  proExpire: Type.Optional(Timestamp),
  registered: Timestamp,
});

/**
 * What any signed-in user may see of another: the name. Nothing that identifies an email (an
 * unsalted hash of one is looked up in seconds), nor the plan or the date of sign-up.
 */
export const PublicUser = Type.Object({
  _id: Type.Integer(),
  fullName: Type.String(),
});

/** Answer of GET/PUT /user. */
export const UserEnvelope = Type.Object({ result: Type.Literal(true), user: User });
/** Answer of GET /user/{id}. */
export const PublicUserEnvelope = Type.Object({ result: Type.Literal(true), user: PublicUser });

export const UserUpdate = Type.Object(
  {
    groups: Type.Optional(Type.Array(UserGroup, { maxItems: 1000 })),
    config: Type.Optional(Type.Partial(UserConfig)),
    fullName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(EmailAddress),
    newpassword: Type.Optional(Type.String({ minLength: 8, maxLength: 1000 })),
    oldpassword: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

export const SystemCount = Type.Object({ _id: Type.Integer(), count: Type.Integer() });

export const UserStats = Type.Object({
  result: Type.Literal(true),
  items: Type.Array(SystemCount),
  meta: Type.Object({
    _id: Type.Integer(),
    changedBookmarksDate: Type.Optional(Timestamp),
    pro: Type.Boolean(),
    duplicates: Type.Object({ count: Type.Integer() }),
    broken: Type.Object({ count: Type.Integer() }),
  }),
});
