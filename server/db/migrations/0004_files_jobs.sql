-- Files, permanent copies, background jobs and resumable imports (issue 7).
--
-- Stored bytes live on disk under <dataDir>/files/; these tables say whose they are and what they
-- are. Quota bookkeeping (users.files_used) and the removal of bytes from disk follow the rows by
-- triggers, so no code path (permanent delete, cascade from a user or collection) can forget them.

-- An uploaded file: a bookmark's file (PUT /bookmark/file) or a cover (bookmark or collection).
-- `id` is the random name it is served under: /rest/v1/files/<id>/<name>.
CREATE TABLE files (
  id            TEXT PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,   -- whose quota it counts against
  kind          TEXT NOT NULL,                                             -- 'file' | 'cover'
  bookmark_id   INTEGER REFERENCES bookmarks(id) ON DELETE CASCADE,
  collection_id INTEGER REFERENCES collections(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,                                             -- the uploaded file name, cleaned
  mime          TEXT NOT NULL,                                             -- from the content (magic bytes), not the name
  size          INTEGER NOT NULL,
  sha256        TEXT NOT NULL,
  path          TEXT NOT NULL,                                             -- relative to <dataDir>/files/
  created       TEXT NOT NULL
);
CREATE INDEX files_bookmark ON files(bookmark_id) WHERE bookmark_id IS NOT NULL;
CREATE INDEX files_collection ON files(collection_id) WHERE collection_id IS NOT NULL;
CREATE INDEX files_user ON files(user_id);

-- The permanent copy of a bookmark's page: one per bookmark, replaced when made again.
-- source 'server' (fetched by the job runner) or 'upload' (captured by the extension).
CREATE TABLE bookmark_caches (
  bookmark_id INTEGER PRIMARY KEY REFERENCES bookmarks(id) ON DELETE CASCADE,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source      TEXT NOT NULL,
  size        INTEGER NOT NULL,
  sha256      TEXT NOT NULL,
  path        TEXT NOT NULL,                                               -- relative to <dataDir>/files/
  page_url    TEXT NOT NULL,                                               -- the address the copy was made from
  created     TEXT NOT NULL
);

-- Paths whose rows are gone; the job runner deletes them from disk and then from here.
CREATE TABLE file_garbage (
  path TEXT PRIMARY KEY
) WITHOUT ROWID;

CREATE TRIGGER files_insert_usage AFTER INSERT ON files
BEGIN
  UPDATE users SET files_used = files_used + NEW.size WHERE id = NEW.user_id;
END;

CREATE TRIGGER files_delete_usage AFTER DELETE ON files
BEGIN
  UPDATE users SET files_used = max(0, files_used - OLD.size) WHERE id = OLD.user_id;
  INSERT OR IGNORE INTO file_garbage (path) VALUES (OLD.path);
END;

CREATE TRIGGER bookmark_caches_delete AFTER DELETE ON bookmark_caches
BEGIN
  INSERT OR IGNORE INTO file_garbage (path) VALUES (OLD.path);
END;

CREATE TRIGGER bookmark_caches_replace AFTER UPDATE OF path ON bookmark_caches
WHEN OLD.path <> NEW.path
BEGIN
  INSERT OR IGNORE INTO file_garbage (path) VALUES (OLD.path);
END;

-- Durable background work. kind 'page': read a bookmark's page (payload {bookmarkId, parse, on});
-- it fills empty fields when `parse` is set and stores the permanent copy for pro owners.
-- state: queued -> running -> done | failed; a failure before the last attempt goes back to
-- queued with next_run_at moved out (exponential backoff). A running job whose lease ran out
-- (its process died) is taken up again.
CREATE TABLE jobs (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind         TEXT NOT NULL,
  payload      TEXT NOT NULL DEFAULT '{}',   -- JSON
  dedupe_key   TEXT,                         -- at most one queued job per key ('page:<bookmarkId>')
  state        TEXT NOT NULL DEFAULT 'queued',
  attempts     INTEGER NOT NULL DEFAULT 0,
  next_run_at  INTEGER NOT NULL DEFAULT 0,   -- epoch ms
  locked_until INTEGER,                      -- epoch ms; the lease of a running job
  last_error   TEXT,                         -- why the last attempt failed
  outcome      TEXT,                         -- what a finished job did, in words
  created_at   INTEGER NOT NULL,             -- epoch ms
  finished_at  INTEGER
);
CREATE INDEX jobs_due ON jobs(state, next_run_at);
CREATE UNIQUE INDEX jobs_queued_key ON jobs(dedupe_key) WHERE state = 'queued';

-- A pro owner's new bookmark gets a permanent copy: queue it in the same transaction as the insert,
-- whichever write path created it. pleaseParse later merges into this job (see jobs.ts).
CREATE TRIGGER bookmarks_copy_job AFTER INSERT ON bookmarks
WHEN NEW.removed = 0 AND (SELECT pro FROM users WHERE id = NEW.user_id) = 1
BEGIN
  INSERT OR IGNORE INTO jobs (kind, payload, dedupe_key, state, next_run_at, created_at)
  VALUES ('page', json_object('bookmarkId', NEW.id, 'parse', json('false'), 'on', 'create'), 'page:' || NEW.id,
          'queued', 0, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

-- The import command's progress, so an interrupted import continues where it stopped.
-- One run per (user, file content, target collection).
CREATE TABLE import_runs (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id        INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  file_sha256    TEXT NOT NULL,
  file_name      TEXT NOT NULL,
  target         INTEGER NOT NULL,            -- collection id the folders go under; 0 = top level
  state          TEXT NOT NULL,               -- 'running' | 'done'
  next_index     INTEGER NOT NULL DEFAULT 0,  -- bookmarks (in file order) already handled
  total          INTEGER NOT NULL,
  created_count  INTEGER NOT NULL DEFAULT 0,
  duplicates     INTEGER NOT NULL DEFAULT 0,
  failed         INTEGER NOT NULL DEFAULT 0,
  started_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE UNIQUE INDEX import_runs_key ON import_runs(user_id, file_sha256, target);

-- Collections an import run made for the file's folders, by folder path ("0/2/1").
CREATE TABLE import_run_folders (
  run_id        INTEGER NOT NULL REFERENCES import_runs(id) ON DELETE CASCADE,
  folder_path   TEXT NOT NULL,
  collection_id INTEGER NOT NULL,
  PRIMARY KEY (run_id, folder_path)
) WITHOUT ROWID;
