-- Core tables: users, API tokens, collections, bookmarks with their tags and highlights, and the
-- full-text index. Ids of system collections (-1 Unsorted, -99 Trash) never appear in `collections`.

CREATE TABLE users (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  email            TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash    TEXT,
  full_name        TEXT NOT NULL DEFAULT '',
  pro              INTEGER NOT NULL DEFAULT 0,
  pro_expire       TEXT,
  config           TEXT NOT NULL,               -- JSON, every UserConfig member present
  groups_json      TEXT NOT NULL DEFAULT '[]',  -- JSON array of UserGroup
  files_used       INTEGER NOT NULL DEFAULT 0,  -- bytes stored
  files_size       INTEGER NOT NULL DEFAULT 0,  -- quota in bytes
  files_checkpoint TEXT NOT NULL,
  dropbox_enabled  INTEGER NOT NULL DEFAULT 0,
  gdrive_enabled   INTEGER NOT NULL DEFAULT 0,
  registered       TEXT NOT NULL,
  changed_bookmarks_at TEXT
);

-- Bearer tokens, stored as SHA-256 hex of the secret. kind: 'test' (never expires) or 'access'.
CREATE TABLE tokens (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash  TEXT NOT NULL UNIQUE,
  kind        TEXT NOT NULL,
  client_id   TEXT,
  expires_at  INTEGER,          -- epoch ms; NULL = never
  revoked_at  INTEGER,
  created_at  INTEGER NOT NULL
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE collections (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  parent_id   INTEGER REFERENCES collections(id) ON DELETE CASCADE,
  title       TEXT NOT NULL,
  view        TEXT NOT NULL DEFAULT 'list',
  sort        REAL NOT NULL DEFAULT 0,
  public      INTEGER NOT NULL DEFAULT 0,
  expanded    INTEGER NOT NULL DEFAULT 1,
  color       TEXT,
  cover       TEXT NOT NULL DEFAULT '[]',       -- JSON array of URLs
  created     TEXT NOT NULL,
  last_update TEXT NOT NULL
);
CREATE INDEX collections_user_parent ON collections(user_id, parent_id);
CREATE INDEX collections_parent ON collections(parent_id);

-- user_id is the owner of the data (the owner of the collection the bookmark is in);
-- creator_id is who created it (differs for bookmarks a collaborator added).
CREATE TABLE bookmarks (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  creator_id    INTEGER NOT NULL,
  collection_id INTEGER NOT NULL,               -- -1 Unsorted, -99 Trash, else collections.id
  link          TEXT NOT NULL,
  link_key      TEXT NOT NULL,                  -- normalizeUrl(link), for duplicate checks
  domain        TEXT NOT NULL,
  title         TEXT NOT NULL DEFAULT '',
  excerpt       TEXT NOT NULL DEFAULT '',
  note          TEXT NOT NULL DEFAULT '',
  type          TEXT NOT NULL DEFAULT 'link',
  cover         TEXT NOT NULL DEFAULT '',
  media         TEXT NOT NULL DEFAULT '[]',     -- JSON array of {type, link}
  tags          TEXT NOT NULL DEFAULT '[]',     -- JSON array, order kept; bookmark_tags mirrors it
  important     INTEGER NOT NULL DEFAULT 0,
  sort_order    REAL NOT NULL DEFAULT 0,
  removed       INTEGER NOT NULL DEFAULT 0,
  broken        INTEGER NOT NULL DEFAULT 0,
  lang          TEXT,
  created       TEXT NOT NULL,
  last_update   TEXT NOT NULL
);
CREATE INDEX bookmarks_user_collection_created ON bookmarks(user_id, collection_id, created);
CREATE INDEX bookmarks_collection_order ON bookmarks(collection_id, sort_order);
CREATE INDEX bookmarks_user_collection_order ON bookmarks(user_id, collection_id, sort_order);
CREATE INDEX bookmarks_user_link_key ON bookmarks(user_id, link_key);
CREATE INDEX bookmarks_user_created ON bookmarks(user_id, created);
-- Narrow covering index: counting full-text matches per owner/collection without reading whole rows.
CREATE INDEX bookmarks_scope ON bookmarks(id, user_id, collection_id);
CREATE INDEX bookmarks_user_domain ON bookmarks(user_id, domain);
CREATE INDEX bookmarks_user_type ON bookmarks(user_id, type);

-- Index of bookmarks.tags for counts and filters. Written only together with bookmarks.tags.
CREATE TABLE bookmark_tags (
  bookmark_id INTEGER NOT NULL REFERENCES bookmarks(id) ON DELETE CASCADE,
  user_id     INTEGER NOT NULL,
  tag         TEXT NOT NULL,
  PRIMARY KEY (bookmark_id, tag)
) WITHOUT ROWID;
CREATE INDEX bookmark_tags_user_tag ON bookmark_tags(user_id, tag);

CREATE TABLE highlights (
  id          TEXT PRIMARY KEY,                 -- 24 hex digits
  bookmark_id INTEGER NOT NULL REFERENCES bookmarks(id) ON DELETE CASCADE,
  user_id     INTEGER NOT NULL,
  text        TEXT NOT NULL,
  note        TEXT NOT NULL DEFAULT '',
  color       TEXT NOT NULL DEFAULT 'yellow',
  position    INTEGER,
  prefix      TEXT,
  suffix      TEXT,
  created     TEXT NOT NULL,
  last_update TEXT NOT NULL
);
CREATE INDEX highlights_bookmark ON highlights(bookmark_id, created);
CREATE INDEX highlights_user_created ON highlights(user_id, created);

-- Full-text index of a bookmark's text; rowid = bookmarks.id. Maintained by repositories/fts.ts.
CREATE VIRTUAL TABLE bookmarks_fts USING fts5(
  title, excerpt, note, link, domain, tags, highlights,
  content='', contentless_delete=1,
  tokenize="unicode61 remove_diacritics 2",
  prefix='2 3'
);
