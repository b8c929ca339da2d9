// Web sign-in sessions.

export interface SessionRow {
  id: number;
  token_hash: string;
  user_id: number;
  user_agent: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Web sign-in sessions. The cookie carries a random secret; only its hash is stored. */
export interface SessionsRepository {
  create(input: {
    userId: number;
    ttlMs: number;
    userAgent?: string;
  }): Promise<{
    token: string;
    row: SessionRow;
  }>;
  /** The live session for a cookie secret, or undefined when unknown, ended or expired. */
  findValid(token: string): Promise<SessionRow | undefined>;
  revoke(id: number): Promise<void>;
  /** Ends every session of the user except `keepId`. Returns how many were ended. */
  revokeAllForUser(userId: number, keepId?: number): Promise<number>;
  /**
   * A random key the server generates once and keeps in the database (so it survives restarts and
   * is shared by every process on the same data), e.g. for signing CSRF tokens.
   */
  serverKey(name: string): Promise<string>;
}
