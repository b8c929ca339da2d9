// API bearer tokens.

export type TokenKind = 'test' | 'access';

export interface TokenRow {
  id: number;
  user_id: number;
  token_hash: string;
  kind: TokenKind;
  client_id: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

/** Bearer tokens for the API. Only hashes are stored; the secret is returned once, at creation. */
export interface TokensRepository {
  create(input: {
    userId: number;
    kind: TokenKind;
    clientId?: string | null;
    expiresAt?: number | null;
  }): Promise<{
    token: string;
    row: TokenRow;
  }>;
  /**
   * The live token row for a secret, or undefined when unknown, revoked or expired. Answered at once
   * (not a promise) when it is known without asking the database: every API call asks this.
   */
  findValid(token: string): TokenRow | undefined | Promise<TokenRow | undefined>;
  revoke(id: number): Promise<void>;
  listForUser(userId: number): Promise<TokenRow[]>;
}
