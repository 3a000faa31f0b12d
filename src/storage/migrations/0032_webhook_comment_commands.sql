-- The comments whose merge-queue commands were carried out, by the platform's comment id (issue
-- 20, item 8). A captured issue_comment delivery sent again under a new delivery id is caught by
-- its body's digest while that is kept (webhook_payloads, a week); a command must never act twice,
-- so the ids of command comments are kept for good: one small row per command.
CREATE TABLE webhook_comment_commands (
  comment_id bigint PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now()
);
