-- Where each repository's activity log stands (issue 16), for the columnar copy of the events
-- (src/storage/columnar/): a process copies the narrow event columns into an embedded column
-- store and must know, within one snapshot, what the copy has to hold.
--
-- last_id: the highest event id of the repository. Kept by a statement trigger, so every writer
--   (ingestion, the merge queue, a bulk load, a test) moves it. Event writers take a lock per
--   repository before they draw ids (EventQueries.insertBatch), so a repository's events commit in
--   id order: a snapshot that sees last_id sees every event of that repository with a lower id.
-- purged_at, purged_id: the last (received_at, id) retention removed. Retention removes a
--   repository's events in that order and moves this in the same statement, so every event it
--   ever removed sorts at or before it.
CREATE TABLE event_positions (
  repository_id bigint PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  last_id       bigint NOT NULL,
  purged_id     bigint,
  purged_at     timestamptz,
  CHECK ((purged_id IS NULL) = (purged_at IS NULL))
);

INSERT INTO event_positions (repository_id, last_id)
  SELECT repository_id, max(id) FROM events GROUP BY repository_id;

CREATE FUNCTION move_event_positions() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO event_positions AS p (repository_id, last_id)
    SELECT e.repository_id, max(e.id) FROM changed e
    WHERE EXISTS (SELECT 1 FROM repositories r WHERE r.id = e.repository_id)
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (repository_id) DO UPDATE SET last_id = greatest(p.last_id, excluded.last_id);
  RETURN NULL;
END
$$;

CREATE TRIGGER events_positioned_on_insert AFTER INSERT ON events
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION move_event_positions();
