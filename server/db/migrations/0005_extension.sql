-- Beyond the spec, for the browser extension (issue 4):
--
-- 1. `link_changes`: a change log behind GET /rest/v1/links?since=<cursor>, the compact saved-link
--    index the extension's saved-page badge syncs incrementally. Triggers on `bookmarks` keep it, so
--    no repository that writes bookmarks has to know about it. One row per (user, bookmark): a newer
--    change replaces the older row and takes a new, larger `seq`. The cursor is a `seq`.
-- 2. `idempotency_keys`: the first answer to a write sent with an `Idempotency-Key` header, replayed
--    when the same key comes again (exactly-once creates for the extension's offline queue).

CREATE TABLE link_changes (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL,
  bookmark_id INTEGER NOT NULL
);
CREATE UNIQUE INDEX link_changes_user_bookmark ON link_changes(user_id, bookmark_id);
CREATE INDEX link_changes_user_seq ON link_changes(user_id, seq);

-- Bookmarks that exist before this migration count as changed once, so a cursor of 0 sees them.
INSERT INTO link_changes (user_id, bookmark_id) SELECT user_id, id FROM bookmarks ORDER BY id;

CREATE TRIGGER bookmarks_link_insert AFTER INSERT ON bookmarks
BEGIN
  DELETE FROM link_changes WHERE user_id = NEW.user_id AND bookmark_id = NEW.id;
  INSERT INTO link_changes (user_id, bookmark_id) VALUES (NEW.user_id, NEW.id);
END;

-- Only what the index holds counts: the link key, the collection, Trash, and the owner. A move to
-- another owner's collection is a removal for the old owner and an addition for the new one.
CREATE TRIGGER bookmarks_link_update AFTER UPDATE OF link_key, collection_id, removed, user_id ON bookmarks
WHEN OLD.link_key IS NOT NEW.link_key OR OLD.collection_id IS NOT NEW.collection_id
  OR OLD.removed IS NOT NEW.removed OR OLD.user_id IS NOT NEW.user_id
BEGIN
  DELETE FROM link_changes WHERE user_id = OLD.user_id AND bookmark_id = OLD.id;
  INSERT INTO link_changes (user_id, bookmark_id) VALUES (OLD.user_id, OLD.id);
  DELETE FROM link_changes WHERE user_id = NEW.user_id AND bookmark_id = NEW.id AND NEW.user_id <> OLD.user_id;
  INSERT INTO link_changes (user_id, bookmark_id) SELECT NEW.user_id, NEW.id WHERE NEW.user_id <> OLD.user_id;
END;

-- A permanent delete leaves a tombstone: the row stays, the bookmark is gone, readers report it removed.
CREATE TRIGGER bookmarks_link_delete AFTER DELETE ON bookmarks
BEGIN
  DELETE FROM link_changes WHERE user_id = OLD.user_id AND bookmark_id = OLD.id;
  INSERT INTO link_changes (user_id, bookmark_id) VALUES (OLD.user_id, OLD.id);
END;

CREATE TRIGGER users_link_changes_delete AFTER DELETE ON users
BEGIN
  DELETE FROM link_changes WHERE user_id = OLD.id;
END;

CREATE TABLE idempotency_keys (
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key         TEXT NOT NULL,
  fingerprint TEXT NOT NULL,           -- SHA-256 of method, path and body: a key names one request
  state       TEXT NOT NULL,           -- 'pending' while the first request runs, then 'done'
  status      INTEGER,                 -- HTTP status of the stored answer
  body        TEXT,                    -- the stored answer (JSON text)
  created_at  INTEGER NOT NULL,        -- epoch ms
  PRIMARY KEY (user_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
