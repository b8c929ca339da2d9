-- GET /links?since=<cursor> must never skip a change. A sequence number taken when a row is written
-- does not follow commit order: a transaction that took seq 10 can commit after one that took 11,
-- and a reader who already moved its cursor past 11 would never see 10. So a change row is numbered
-- again when its transaction commits (a deferred constraint trigger), under a transaction-level
-- advisory lock held until the commit is visible: numbers become visible in increasing order.
-- Until then `tx` names the writing transaction; readers never see uncommitted rows.
ALTER TABLE link_changes ADD COLUMN tx xid8 DEFAULT pg_current_xact_id();
CREATE INDEX link_changes_tx ON link_changes(tx) WHERE tx IS NOT NULL;

CREATE FUNCTION link_changes_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301914);
  UPDATE link_changes SET seq = nextval(pg_get_serial_sequence('link_changes', 'seq')), tx = NULL
   WHERE tx = pg_current_xact_id();
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER link_changes_number AFTER INSERT ON link_changes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION link_changes_number();
