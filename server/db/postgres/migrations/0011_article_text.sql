-- A saved page's readable text: one row per bookmark (server/repositories/postgres/articles.ts),
-- equal in meaning to SQLite's 0010_article_text.sql. The text is stored as text, which TOAST
-- compresses, so that the GIN index can be built over its words (the 'tidemark' configuration of
-- bookmarks.search) without storing a tsvector beside it: a tsvector with positions takes as much
-- room as the text itself. The html is deflated with the text as dictionary (server/repositories/
-- article-codec.ts), so the words are not stored a second time.
CREATE TABLE article_texts (
  bookmark_id     bigint PRIMARY KEY REFERENCES bookmarks(id) ON DELETE CASCADE,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('indexed', 'pending', 'failed', 'none')),
  error           text NOT NULL DEFAULT '',
  title           text NOT NULL DEFAULT '',
  byline          text NOT NULL DEFAULT '',
  site_name       text NOT NULL DEFAULT '',
  html            bytea,
  text            text,
  length          integer NOT NULL DEFAULT 0,
  truncated       smallint NOT NULL DEFAULT 0,
  page_count      integer,
  source          text NOT NULL DEFAULT '' CHECK (source IN ('extension', 'server', '')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at bigint,
  locked_until    bigint,
  updated_at      text
);
CREATE INDEX article_texts_due ON article_texts(next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX article_texts_search ON article_texts USING gin (to_tsvector('tidemark', tidemark_words(text)));

-- Every bookmark gets its row when it is made, due for the server's job 15 s after it was created
-- (a page saved from the extension uploads its own text meanwhile); older bookmarks are due at once.
-- A `created` that is not a time (never from the API's schema) makes the row due at once.
CREATE FUNCTION tidemark_article_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due bigint := 0;
BEGIN
  IF NEW.created ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$' THEN
    due := (extract(epoch FROM NEW.created::timestamptz) * 1000)::bigint + 15000;
  END IF;
  INSERT INTO article_texts (bookmark_id, status, next_attempt_at) VALUES (NEW.id, 'pending', due);
  RETURN NULL;
END $$;
CREATE TRIGGER bookmarks_article_insert AFTER INSERT ON bookmarks FOR EACH ROW EXECUTE FUNCTION tidemark_article_insert();

INSERT INTO article_texts (bookmark_id, status, next_attempt_at) SELECT id, 'pending', 0 FROM bookmarks;
