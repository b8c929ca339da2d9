-- Read caches of every instance (server/db/postgres/change-feed.ts) hear of changes to the tables
-- they hold values of: each write notifies the channel `tidemark_changes` with the table's name.
-- pg_notify runs in the writing transaction, so it is delivered at commit (never for a rollback),
-- and PostgreSQL sends one notification per distinct payload per transaction however many rows
-- changed.
CREATE FUNCTION tidemark_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tidemark_changes', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER tokens_notify AFTER INSERT OR UPDATE OR DELETE ON tokens FOR EACH ROW EXECUTE FUNCTION tidemark_notify_change();
CREATE TRIGGER bookmarks_notify AFTER INSERT OR UPDATE OR DELETE ON bookmarks FOR EACH ROW EXECUTE FUNCTION tidemark_notify_change();
CREATE TRIGGER highlights_notify AFTER INSERT OR UPDATE OR DELETE ON highlights FOR EACH ROW EXECUTE FUNCTION tidemark_notify_change();
CREATE TRIGGER files_notify AFTER INSERT OR UPDATE OR DELETE ON files FOR EACH ROW EXECUTE FUNCTION tidemark_notify_change();
CREATE TRIGGER bookmark_caches_notify AFTER INSERT OR UPDATE OR DELETE ON bookmark_caches FOR EACH ROW EXECUTE FUNCTION tidemark_notify_change();
CREATE TRIGGER collections_notify AFTER INSERT OR UPDATE OR DELETE ON collections FOR EACH ROW EXECUTE FUNCTION tidemark_notify_change();
CREATE TRIGGER collaborators_notify AFTER INSERT OR UPDATE OR DELETE ON collaborators FOR EACH ROW EXECUTE FUNCTION tidemark_notify_change();

-- Rate windows: how many counts the last update of a row handed out at once (an instance reserves
-- a block of counts while the limit is far; server/repositories/postgres/rate-windows.ts).
ALTER TABLE rate_windows ADD COLUMN granted integer NOT NULL DEFAULT 1;
