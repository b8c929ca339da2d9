-- Rate-limit counters are written on every counted request. They need no crash safety (a lost
-- window only restarts a caller's count) nor a copy on read replicas, so they skip the write-ahead
-- log: no WAL flush per request.
ALTER TABLE rate_windows SET UNLOGGED;
