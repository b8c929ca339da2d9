-- Sharing: collaborators of collections and the invitations that make them.
--
-- A row in `collaborators` gives a user a role on a collection and, by inheritance, on all of its
-- descendants; where a user has rows on several collections of one chain, the nearest one wins.
-- The owner (collections.user_id) never has a row: ownership is not a share.
--
-- An invitation is pending while `accepted_at` is NULL and `expires_at` is in the future. Its secret
-- (the join link's token) is stored as SHA-256 hex only; a resend replaces it, so the newest mail's
-- link is the one that works. Accepted invitations are kept so a second use of a link can be told
-- apart from a wrong one. Cancelled ones (unshare, inviter removed) are deleted.

CREATE TABLE collaborators (
  collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role          TEXT NOT NULL CHECK (role IN ('member', 'viewer')),
  invited_by    INTEGER REFERENCES users(id) ON DELETE SET NULL,
  joined_at     INTEGER NOT NULL,                 -- epoch ms
  PRIMARY KEY (collection_id, user_id)
) WITHOUT ROWID;
CREATE INDEX collaborators_user ON collaborators(user_id, collection_id);

CREATE TABLE invitations (
  id            INTEGER PRIMARY KEY,
  collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  email         TEXT NOT NULL COLLATE NOCASE,
  role          TEXT NOT NULL CHECK (role IN ('member', 'viewer')),
  invited_by    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash    TEXT NOT NULL UNIQUE,
  created_at    INTEGER NOT NULL,                 -- epoch ms
  expires_at    INTEGER NOT NULL,
  sent_at       INTEGER,                          -- last time a mail was handed to the mail server (or outbox)
  send_attempts INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT,                             -- why the last send failed; NULL after a successful one
  accepted_at   INTEGER,
  accepted_by   INTEGER REFERENCES users(id) ON DELETE SET NULL
);
-- At most one open (not accepted) invitation per address and collection: inviting again resends it.
CREATE UNIQUE INDEX invitations_open ON invitations(collection_id, email) WHERE accepted_at IS NULL;
CREATE INDEX invitations_inviter_open ON invitations(invited_by, expires_at) WHERE accepted_at IS NULL;
