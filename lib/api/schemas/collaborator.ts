import { Type } from '@sinclair/typebox';
import { SHARE_ROLES } from '../constants.js';

export const ShareRoleSchema = Type.Union(SHARE_ROLES.map((r) => Type.Literal(r)));

export const Collaborator = Type.Object({
  _id: Type.Integer(),
  email: Type.String({ description: 'empty when the caller has read-only access' }),
  email_MD5: Type.String(),
  fullName: Type.String(),
  role: Type.Union([ShareRoleSchema, Type.Literal('owner')]),
});

export const ShareInvite = Type.Object({
  role: ShareRoleSchema,
  emails: Type.Array(Type.String({ maxLength: 320 })),
});

export const ShareRoleChange = Type.Object({ role: ShareRoleSchema });
export const JoinRequest = Type.Object({ token: Type.String({ minLength: 1, maxLength: 500 }) });
