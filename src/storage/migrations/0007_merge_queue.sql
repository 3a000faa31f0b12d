-- The merge queue (DESIGN.md §9–10): one queue per repository and base branch, the stays of pull
-- requests in it (entries), and the batches checked on the hosting platform. The plan itself is
-- never stored: it is computed from these rows and the clock. Finished entries and batches stay
-- (left_at, finished_at) for estimates and so the executor can clean up after them.

-- What the platform says of a pull request beyond its state: the queue refuses drafts and shows
-- titles, authors and labels.
ALTER TABLE pull_requests ADD COLUMN draft boolean NOT NULL DEFAULT false;
ALTER TABLE pull_requests ADD COLUMN title text;
ALTER TABLE pull_requests ADD COLUMN author_login text;
ALTER TABLE pull_requests ADD COLUMN author_id bigint;
ALTER TABLE pull_requests ADD COLUMN labels text[] NOT NULL DEFAULT '{}';

CREATE TABLE merge_queues (
  id            uuid PRIMARY KEY,
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  base_ref      text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  -- The process driving the queue on the hosting platform, until lease_until (DESIGN §10).
  lease_holder  text,
  lease_until   timestamptz,
  -- When the plan next changes by the clock alone; the executor wakes then.
  wake_at       timestamptz,
  -- Bumped by every change that may need the executor (an entry, a result, a webhook).
  version       bigint NOT NULL DEFAULT 0,
  -- The base head the queue last saw, to tell its own merges from pushes from outside.
  base_sha      text,
  CONSTRAINT merge_queues_branch_unique UNIQUE (repository_id, base_ref)
);

CREATE TABLE merge_queue_entries (
  id                   uuid PRIMARY KEY,            -- one per stay: the events' session_id
  queue_id             uuid NOT NULL REFERENCES merge_queues (id) ON DELETE CASCADE,
  repository_id        bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  number               bigint NOT NULL CHECK (number >= 0),
  head_sha             text NOT NULL,
  queue_rule           text NOT NULL,
  priority             text NOT NULL CHECK (priority IN ('high', 'medium', 'low')),
  priority_rule_name   text,
  entered_at           timestamptz NOT NULL,
  scopes_awaited_since timestamptz NOT NULL,
  embark_count         integer NOT NULL DEFAULT 0,
  left_at              timestamptz,
  leave_code           text,
  leave_batch_id       uuid
);
-- A pull request is queued at most once at a time, in whichever queue of its repository.
CREATE UNIQUE INDEX merge_queue_entries_active_idx ON merge_queue_entries (repository_id, number) WHERE left_at IS NULL;
CREATE INDEX merge_queue_entries_queue_idx ON merge_queue_entries (queue_id) WHERE left_at IS NULL;

CREATE TABLE merge_queue_batches (
  id                uuid PRIMARY KEY,
  queue_id          uuid NOT NULL REFERENCES merge_queues (id) ON DELETE CASCADE,
  name              text NOT NULL,
  queue_rule        text NOT NULL,
  entry_ids         uuid[] NOT NULL,
  parent_ids        uuid[] NOT NULL,
  scopes            text[] NOT NULL,
  all_scopes        boolean NOT NULL,
  phase             text NOT NULL CHECK (phase IN ('pending', 'preparing', 'running', 'passed', 'parked', 'bisecting', 'failed', 'merged', 'aborted')),
  started_at        timestamptz NOT NULL,
  checks_started_at timestamptz,
  checks_ended_at   timestamptz,
  retries           integer NOT NULL DEFAULT 0,
  bisection_of      uuid,
  bisection_depth   integer,
  culprit_entry_ids uuid[] NOT NULL DEFAULT '{}',
  finished_at       timestamptz,
  -- How long a passed batch was held by a freeze (seconds_waiting_for_freeze), and since when.
  frozen_since      timestamptz,
  frozen_ms         bigint NOT NULL DEFAULT 0,
  -- The executor's progress on the hosting platform (JSON text): branch, merged heads, check
  -- pull request, checks seen, merges done. Null until it starts.
  run               text,
  -- The branch and check pull request are gone (or never existed).
  cleaned           boolean NOT NULL DEFAULT false
);
CREATE INDEX merge_queue_batches_unfinished_idx ON merge_queue_batches (queue_id) WHERE finished_at IS NULL;
CREATE INDEX merge_queue_batches_cleanup_idx ON merge_queue_batches (queue_id) WHERE finished_at IS NOT NULL AND NOT cleaned;
CREATE INDEX merge_queue_batches_recent_idx ON merge_queue_batches (queue_id, checks_ended_at DESC) WHERE checks_ended_at IS NOT NULL;
