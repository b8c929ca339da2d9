-- The links feed also reports a bookmark whose title changed: the extension's sync with the browser's
-- bookmarks (issue 37) pulls titles from it. Nothing else about the feed changes; the saved-page
-- index takes such an entry as an unchanged upsert.
CREATE OR REPLACE FUNCTION bookmarks_link_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO link_changes (user_id, bookmark_id) VALUES (NEW.user_id, NEW.id);
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM link_changes WHERE user_id = OLD.user_id AND bookmark_id = OLD.id;
    INSERT INTO link_changes (user_id, bookmark_id) VALUES (OLD.user_id, OLD.id);
  ELSIF OLD.link_key IS DISTINCT FROM NEW.link_key OR OLD.collection_id IS DISTINCT FROM NEW.collection_id
     OR OLD.removed IS DISTINCT FROM NEW.removed OR OLD.user_id IS DISTINCT FROM NEW.user_id
     OR OLD.title IS DISTINCT FROM NEW.title THEN
    DELETE FROM link_changes WHERE user_id = OLD.user_id AND bookmark_id = OLD.id;
    INSERT INTO link_changes (user_id, bookmark_id) VALUES (OLD.user_id, OLD.id);
    IF NEW.user_id <> OLD.user_id THEN
      DELETE FROM link_changes WHERE user_id = NEW.user_id AND bookmark_id = NEW.id;
      INSERT INTO link_changes (user_id, bookmark_id) VALUES (NEW.user_id, NEW.id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER bookmarks_link_changes ON bookmarks;
CREATE TRIGGER bookmarks_link_changes AFTER INSERT OR DELETE OR UPDATE OF link_key, collection_id, removed, user_id, title ON bookmarks
  FOR EACH ROW EXECUTE FUNCTION bookmarks_link_changes();
