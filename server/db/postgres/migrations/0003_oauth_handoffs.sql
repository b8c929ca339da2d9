-- OAuth consent hand-offs in the database, so /oauth/authorize/continue may reach any instance
-- (SQLite migration 0007). The id is stored as SHA-256 hex only.
CREATE TABLE oauth_handoffs (
  id_hash    text PRIMARY KEY,
  user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  location   text NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX oauth_handoffs_expires ON oauth_handoffs(expires_at);
