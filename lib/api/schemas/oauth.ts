import { Type } from '@sinclair/typebox';

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires: Type.Integer({ description: 'milliseconds; deprecated' }),
  expires_in: Type.Integer({ description: 'seconds' }),
  token_type: Type.Literal('Bearer'),
});
