-- A new bookmark's id has never been used (AUTOINCREMENT), so it cannot have a change row yet:
-- the insert trigger only adds one, one index probe fewer for every bookmark created.
DROP TRIGGER bookmarks_link_insert;
CREATE TRIGGER bookmarks_link_insert AFTER INSERT ON bookmarks
BEGIN
  INSERT INTO link_changes (user_id, bookmark_id) VALUES (NEW.user_id, NEW.id);
END;
