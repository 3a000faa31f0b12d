-- The merge queue's controls (DESIGN.md §9): its configuration, its pause and its scheduled
-- freezes, each per repository. Only PostgreSQL 15 features (PGlite runs 18).

-- The configuration as the planner reads it: the JSON of the full MergeQueueConfig, every default
-- filled in when it was stored. A repository without a row has the defaults (serial, one rule).
CREATE TABLE merge_queue_configurations (
  repository_id bigint PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  config        json NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

-- At most one pause per repository; no row: not paused.
CREATE TABLE merge_queue_pauses (
  repository_id bigint PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  reason        text NOT NULL,
  paused_at     timestamptz NOT NULL
);

-- start_at and end_at are instants; the API reads and writes them as local times of `timezone`.
-- The conditions are the JSON arrays the API took (base=NAME and base!=NAME only).
CREATE TABLE scheduled_freezes (
  id                  uuid PRIMARY KEY,
  repository_id       bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  reason              text NOT NULL,
  start_at            timestamptz NOT NULL,
  end_at              timestamptz,
  timezone            text NOT NULL,
  matching_conditions json NOT NULL,
  exclude_conditions  json NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT scheduled_freezes_end_after_start CHECK (end_at IS NULL OR end_at > start_at)
);
CREATE INDEX scheduled_freezes_repository_idx ON scheduled_freezes (repository_id, start_at, id);
