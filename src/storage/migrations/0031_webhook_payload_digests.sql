-- The bodies of webhook deliveries already applied, by the SHA-256 of their raw bytes (issue 20,
-- item 8). The signature covers the body, not the delivery id, so a captured delivery could be
-- sent again under a new id: a body already seen is acknowledged and not applied again. Rows are
-- kept a week (or SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS and an hour, if longer), then removed by the
-- retention job: past that, pull request state is ordered by the platform's own times, and
-- command comments are recognised by their id (0032).
CREATE TABLE webhook_payloads (
  digest text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_payloads_received_at ON webhook_payloads (received_at);
