-- The rules engine (DESIGN.md §13–14, issue 30).
--
-- The configuration file of each repository as last read. The last good file stays in force
-- when a newer one fails, so its text (and that of the repository it extends) is kept apart from
-- what the last read found; the parsed form is not stored, so a newer Switchyard re-reads the
-- same text with its own parser.
CREATE TABLE repository_configurations (
  repository_id   bigint PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  source_path     text,                  -- null: no configuration file on the default branch
  source_sha      text,                  -- blob sha of the file last read
  default_branch  text,
  valid           boolean NOT NULL,
  errors          json NOT NULL,         -- [{loc, msg}] of the file last read
  good_path       text,                  -- the file in force: path, blob sha, text
  good_sha        text,
  good_text       text,
  good_parent     text,                  -- the text of the file it extends, when it does
  read_at         timestamptz NOT NULL
);

-- Pull requests to evaluate, and when: a webhook asks for "in a second" (changes within it
-- coalesce), a time condition for the instant it can flip (a durable timer). One row per pull
-- request holds the earliest instant asked for.
CREATE TABLE rule_evaluations_due (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  number        bigint NOT NULL,
  due_at        timestamptz NOT NULL,
  PRIMARY KEY (repository_id, number)
);
CREATE INDEX rule_evaluations_due_at ON rule_evaluations_due (due_at);

-- Repositories whose configuration file is to be read again (a push touched it, or a refresh).
CREATE TABLE configuration_reads_due (
  repository_id bigint PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  due_at        timestamptz NOT NULL
);

-- Per pull request, the last evaluation: each rule's result (so actions that run on a change
-- run once per false→true edge, across restarts and processes) and what the Summary said.
CREATE TABLE pull_rule_states (
  repository_id  bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  number         bigint NOT NULL,
  head_sha       text NOT NULL,
  rules          json NOT NULL,          -- {"<section>/<rule name>": "true"|"false"|"pending"}
  summary        json NOT NULL,          -- the Summary's title and rule trees, as the API shows them
  evaluated_at   timestamptz NOT NULL,
  PRIMARY KEY (repository_id, number)
);

-- One process evaluates a repository at a time, as one drives a merge queue (DESIGN §10).
CREATE TABLE rules_engine_leases (
  repository_id bigint PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  holder        text NOT NULL,
  lease_until   timestamptz NOT NULL
);

-- The merge queue now runs only where its product is enabled (DESIGN §13). Repositories that used
-- it before this migration keep it running: the product is enabled where a queue or a queue
-- configuration exists. (No product.enabled event is written: nothing changed for them.)
UPDATE repositories SET products = array_append(products, 'merge_queue')
WHERE NOT ('merge_queue' = ANY (products))
  AND (EXISTS (SELECT 1 FROM merge_queues q WHERE q.repository_id = repositories.id)
       OR EXISTS (SELECT 1 FROM merge_queue_configurations c WHERE c.repository_id = repositories.id));
