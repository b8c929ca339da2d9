-- A saved page's readable text: one row per bookmark (server/repositories/sqlite/articles.ts).
-- The sanitised html and the text are packed in one brotli stream (server/repositories/
-- article-codec.ts: the text adds little to the html's size there), kept in `article_content` in
-- parts of under 1 KB: a 4 KB page holds only one whole packed article of 2-3 KB and would stay
-- 40 % empty, but holds four parts. The words are indexed in `article_fts`, a contentless FTS5
-- table (rowid = bookmark id) without prefix indexes, so the text and its index together take
-- less room than the raw text.
--
-- status: indexed (text stored and searchable), pending (the server's text job will fetch it),
-- failed (error says why; next_attempt_at set while a retry is due), none (no text: image, binary).
-- next_attempt_at (epoch ms) is set only while the job has work to do on the row; locked_until is
-- the lease of the job instance that claimed it.
CREATE TABLE article_texts (
  bookmark_id     INTEGER PRIMARY KEY REFERENCES bookmarks(id) ON DELETE CASCADE,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('indexed', 'pending', 'failed', 'none')),
  error           TEXT NOT NULL DEFAULT '',
  title           TEXT NOT NULL DEFAULT '',
  byline          TEXT NOT NULL DEFAULT '',
  site_name       TEXT NOT NULL DEFAULT '',
  length          INTEGER NOT NULL DEFAULT 0,
  truncated       INTEGER NOT NULL DEFAULT 0,
  page_count      INTEGER,
  source          TEXT NOT NULL DEFAULT '' CHECK (source IN ('extension', 'server', '')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  locked_until    INTEGER,
  updated_at      TEXT
);
CREATE INDEX article_texts_due ON article_texts(next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- WITHOUT ROWID keeps each part in its primary key's b-tree (no second index for the key).
CREATE TABLE article_content (
  bookmark_id INTEGER NOT NULL REFERENCES article_texts(bookmark_id) ON DELETE CASCADE,
  part        INTEGER NOT NULL,
  data        BLOB NOT NULL,
  PRIMARY KEY (bookmark_id, part)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE article_fts USING fts5(
  text,
  content='', contentless_delete=1,
  tokenize="unicode61 remove_diacritics 2"
);

-- Every bookmark gets its row when it is made, due for the server's job a little after it was
-- created: a page saved from the extension uploads its own text meanwhile, and the job's fetch is
-- then skipped. Bookmarks saved before this version are due at once (the backfill).
CREATE TRIGGER bookmarks_article_insert AFTER INSERT ON bookmarks
BEGIN
  INSERT INTO article_texts (bookmark_id, status, next_attempt_at)
  VALUES (NEW.id, 'pending', coalesce(CAST((julianday(NEW.created) - 2440587.5) * 86400000 AS INTEGER), 0) + 15000);
END;

CREATE TRIGGER article_texts_delete AFTER DELETE ON article_texts
BEGIN
  DELETE FROM article_fts WHERE rowid = OLD.bookmark_id;
END;

INSERT INTO article_texts (bookmark_id, status, next_attempt_at) SELECT id, 'pending', 0 FROM bookmarks;
