-- The version of the URL keys in bookmarks.link_key (lib/api/url.ts URL_KEY_VERSION). Every key so
-- far was made by version 1. After the migrations, server/db/postgres/rekey-links.ts re-keys every
-- bookmark when the code's version differs, and records the new one here.
CREATE TABLE link_key_version (
  id      integer PRIMARY KEY CHECK (id = 1),
  version integer NOT NULL
);
INSERT INTO link_key_version (id, version) VALUES (1, 1);
