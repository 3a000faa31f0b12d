-- Switchyard's first schema: everything the API needs. Only PostgreSQL 15 features (PGlite runs 18).
-- Names are matched without regard to case (DESIGN.md §1): *_key columns hold lower(name).

CREATE SEQUENCE arrival_seq;

CREATE TABLE repositories (
  id          bigserial PRIMARY KEY,
  owner       text NOT NULL,
  name        text NOT NULL,
  owner_key   text NOT NULL,
  name_key    text NOT NULL,
  products    text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT repositories_name_unique UNIQUE (owner_key, name_key)
);

CREATE TABLE application_keys (
  id          uuid PRIMARY KEY,
  owner       text NOT NULL,
  owner_key   text NOT NULL,
  scope       text NOT NULL CHECK (scope IN ('admin', 'ci')),
  name        text NOT NULL,
  secret_hash text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  CONSTRAINT application_keys_secret_unique UNIQUE (secret_hash)
);
CREATE INDEX application_keys_owner_idx ON application_keys (owner_key, created_at);

CREATE TABLE default_products (
  owner_key   text PRIMARY KEY,
  owner       text NOT NULL,
  products    text[] NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Pull request state as the hosting platform last told it; head_seq orders head moves against
-- scope reports (arrival_seq), so "latest to arrive" is exact even within one millisecond.
CREATE TABLE pull_requests (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  number        bigint NOT NULL CHECK (number >= 0),
  state         text NOT NULL CHECK (state IN ('open', 'closed', 'merged')),
  head_sha      text,
  base_ref      text,
  head_seq      bigint NOT NULL DEFAULT nextval('arrival_seq'),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository_id, number)
);
CREATE INDEX pull_requests_head_idx ON pull_requests (repository_id, head_sha) WHERE state = 'open';

CREATE TABLE commit_scope_reports (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  sha           text NOT NULL,
  scopes        text[] NOT NULL,
  all_scopes    boolean NOT NULL,
  seq           bigint NOT NULL,
  reported_at   timestamptz NOT NULL,
  PRIMARY KEY (repository_id, sha)
);

CREATE TABLE pull_scope_reports (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  number        bigint NOT NULL,
  scopes        text[] NOT NULL,
  all_scopes    boolean NOT NULL,
  seq           bigint NOT NULL,
  reported_at   timestamptz NOT NULL,
  PRIMARY KEY (repository_id, number)
);

CREATE TABLE webhook_deliveries (
  delivery_id text PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The activity log. metadata keeps the event as sent (json, not jsonb: key order and exact
-- integers survive); the columns beside it are what the filters and facets read.
CREATE TABLE events (
  id                 bigserial PRIMARY KEY,
  repository_id      bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  received_at        timestamptz NOT NULL,
  type               text NOT NULL,
  outcome            text NOT NULL,
  trigger            text NOT NULL,
  pull_request       bigint,
  base_ref           text,
  batch_pull_request bigint,
  batch_id           uuid,
  idempotency_key    text,
  metadata           json NOT NULL
);
-- The window scan of listing and aggregation reads only this index (covering).
CREATE INDEX events_window_idx ON events (repository_id, received_at, id)
  INCLUDE (type, outcome, trigger, pull_request, batch_pull_request, batch_id);
CREATE INDEX events_pull_request_idx ON events (repository_id, pull_request, received_at, id);
CREATE INDEX events_type_idx ON events (repository_id, type, received_at, id);
CREATE INDEX events_base_ref_idx ON events (repository_id, base_ref, received_at, id);
CREATE INDEX events_batch_pull_idx ON events (repository_id, batch_pull_request) WHERE batch_pull_request IS NOT NULL;
CREATE INDEX events_batch_id_idx ON events (repository_id, batch_id) WHERE batch_id IS NOT NULL;
CREATE UNIQUE INDEX events_idempotency_idx ON events (repository_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
