-- Accounts and OAuth 2.0: web sign-in sessions, registered applications (OAuth clients) with their
-- exact redirect URIs, authorization codes, grants (one per code exchange) with their rotating
-- refresh tokens, connections to outside providers, and the server's own keys.
-- Every secret (session id, client secret, code, refresh token) is stored as SHA-256 hex only.
-- Access tokens live in `tokens` (kind 'access', client_id = oauth_clients.client_id).

CREATE TABLE sessions (
  id           INTEGER PRIMARY KEY,
  token_hash   TEXT NOT NULL UNIQUE,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  user_agent   TEXT NOT NULL DEFAULT '',
  created_at   INTEGER NOT NULL,               -- epoch ms
  expires_at   INTEGER NOT NULL,
  revoked_at   INTEGER
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE oauth_clients (
  id          INTEGER PRIMARY KEY,
  client_id   TEXT NOT NULL UNIQUE,           -- public identifier
  owner_id    INTEGER REFERENCES users(id) ON DELETE CASCADE,  -- NULL: the service itself (bundled extension)
  name        TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('confidential', 'public')),
  secret_hash TEXT,                           -- NULL for public clients
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  max_tokens  INTEGER,                        -- NULL: the server's default limit
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX oauth_clients_owner ON oauth_clients(owner_id);

-- The exact redirect URIs an application may receive codes at (authorize compares strings exactly).
CREATE TABLE oauth_redirect_uris (
  client_pk INTEGER NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  uri       TEXT NOT NULL,
  position  INTEGER NOT NULL,
  PRIMARY KEY (client_pk, uri)
) WITHOUT ROWID;

CREATE TABLE oauth_codes (
  id             INTEGER PRIMARY KEY,
  code_hash      TEXT NOT NULL UNIQUE,
  client_pk      INTEGER NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id        INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT,                        -- PKCE S256 challenge, when the app sent one
  expires_at     INTEGER NOT NULL,
  used_at        INTEGER,
  created_at     INTEGER NOT NULL
);

-- What a user authorized: one grant per exchanged code. Its refresh tokens rotate; revoking the
-- grant revokes every access and refresh token issued under it.
CREATE TABLE oauth_grants (
  id         INTEGER PRIMARY KEY,
  client_pk  INTEGER NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_id    INTEGER REFERENCES oauth_codes(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX oauth_grants_user ON oauth_grants(user_id, client_pk);
CREATE INDEX oauth_grants_code ON oauth_grants(code_id);

CREATE TABLE oauth_refresh_tokens (
  id              INTEGER PRIMARY KEY,
  grant_id        INTEGER NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  token_hash      TEXT NOT NULL UNIQUE,
  access_token_id INTEGER REFERENCES tokens(id) ON DELETE SET NULL,  -- the access token issued with it
  created_at      INTEGER NOT NULL,
  rotated_at      INTEGER,                    -- set when exchanged for a new pair
  revoked_at      INTEGER
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens(grant_id);

-- Outside accounts connected as sign-in options or storage (dropbox, gdrive, ...).
CREATE TABLE user_connections (
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider     TEXT NOT NULL,
  account_id   TEXT NOT NULL DEFAULT '',
  connected_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, provider)
) WITHOUT ROWID;

-- Keys the server generates once and keeps (e.g. the CSRF signing key).
CREATE TABLE server_keys (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
