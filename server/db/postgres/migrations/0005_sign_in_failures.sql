-- Failed password checks per account and per address (the sign-in throttle), shared by every
-- instance. Old rows of a key are deleted when it fails again.
CREATE TABLE sign_in_failures (
  key text NOT NULL,
  at  bigint NOT NULL
);
CREATE INDEX sign_in_failures_key_at ON sign_in_failures(key, at);
