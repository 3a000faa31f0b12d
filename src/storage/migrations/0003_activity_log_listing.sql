-- What the activity-log listing (docs/activity-log.md) adds. Only PostgreSQL 15 features.

-- Cursors are signed with HMAC-SHA256 under this key: random, made once by the database itself,
-- so every instance sharing the database accepts the cursors any of them issued, and a restart
-- does not break a client's walk. gen_random_uuid() draws from the server's strong random
-- source; two of them give 244 random bits.
CREATE TABLE cursor_signing_keys (
  name       text PRIMARY KEY,
  secret     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO cursor_signing_keys (name, secret)
  VALUES ('activity_log', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));

-- `trigger` is an exact-match filter (spec §2.4) whose values can be rare (one rule's name);
-- without an index of its own, such a filter reads the whole window to fill a page.
CREATE INDEX events_trigger_idx ON events (repository_id, trigger, received_at, id);
