-- OAuth consent hand-offs: the consent form's answer is a 303 to /oauth/authorize/continue?id=...,
-- which sends the browser on to the app. Kept in the database (not in one process's memory) so the
-- continue request may reach any process or instance. The id is stored as SHA-256 hex only.
CREATE TABLE oauth_handoffs (
  id_hash    TEXT PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  location   TEXT NOT NULL,             -- where the browser goes next (the app's redirect with code or error)
  expires_at INTEGER NOT NULL           -- epoch ms
) WITHOUT ROWID;
CREATE INDEX oauth_handoffs_expires ON oauth_handoffs(expires_at);
