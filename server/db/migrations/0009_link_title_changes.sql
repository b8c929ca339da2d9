-- The links feed also reports a bookmark whose title changed: the extension's sync with the browser's
-- bookmarks (issue 37) pulls titles from it. Nothing else about the feed changes; the saved-page
-- index takes such an entry as an unchanged upsert.
DROP TRIGGER bookmarks_link_update;
CREATE TRIGGER bookmarks_link_update AFTER UPDATE OF link_key, collection_id, removed, user_id, title ON bookmarks
WHEN OLD.link_key IS NOT NEW.link_key OR OLD.collection_id IS NOT NEW.collection_id
  OR OLD.removed IS NOT NEW.removed OR OLD.user_id IS NOT NEW.user_id OR OLD.title IS NOT NEW.title
BEGIN
  DELETE FROM link_changes WHERE user_id = OLD.user_id AND bookmark_id = OLD.id;
  INSERT INTO link_changes (user_id, bookmark_id) VALUES (OLD.user_id, OLD.id);
  DELETE FROM link_changes WHERE user_id = NEW.user_id AND bookmark_id = NEW.id AND NEW.user_id <> OLD.user_id;
  INSERT INTO link_changes (user_id, bookmark_id) SELECT NEW.user_id, NEW.id WHERE NEW.user_id <> OLD.user_id;
END;
