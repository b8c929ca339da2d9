-- Rate-limit windows shared by every instance (one row per caller and bucket; count within the
-- window that began at `start`, epoch ms). Ended windows are deleted now and then by the repository.
CREATE TABLE rate_windows (
  key   text PRIMARY KEY,
  start bigint NOT NULL,
  count integer NOT NULL
);
CREATE INDEX rate_windows_start ON rate_windows(start);
