-- Event counts kept per time slot, so an unfiltered aggregate of a long window (issue #7) reads
-- tens of thousands of rows instead of every event in it (docs/activity-log.md, "Aggregate").
-- Only PostgreSQL 15 features.
--
-- event_counts: per repository, 600-second slot, type, outcome and trigger. Every histogram step
--   the aggregate uses on this path (600 s and up) is a multiple of 600, and buckets are aligned
--   on the epoch like the slots, so a slot lies in exactly one bucket.
-- event_number_counts: per repository, facet ('pull_request', or 'batch_pull_request' for the
--   speculative_check_pull_request.number of checks_start / checks_end), hour and number; the
--   facets need no histogram.
-- Counts are integer: one slot of one repository would need more than two billion events to
-- overflow, which fails the write loudly. Functions resolve tables in the schema they were
-- created in (SET search_path FROM CURRENT), whatever the search_path of the session that fires
-- them.
CREATE TABLE event_counts (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  slot_start    bigint NOT NULL,
  type          text NOT NULL,
  outcome       text NOT NULL,
  trigger       text NOT NULL,
  n             integer NOT NULL,
  PRIMARY KEY (repository_id, slot_start, type, outcome, trigger)
);

CREATE TABLE event_number_counts (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  facet         text NOT NULL CHECK (facet IN ('pull_request', 'batch_pull_request')),
  slot_start    bigint NOT NULL,
  number        bigint NOT NULL,
  n             integer NOT NULL,
  PRIMARY KEY (repository_id, facet, slot_start, number)
);

-- The start, in seconds since the epoch, of the `width`-second slot holding an instant, computed
-- from the instant truncated to the second: whole seconds are exact as a double, microseconds
-- past year 2106 are not and could round an instant into the next slot. (A plain SQL function:
-- the planner inlines it.)
CREATE FUNCTION event_slot(at timestamptz, width integer) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT floor(date_part('epoch', date_trunc('second', at)) / width)::bigint * width
$$;

-- Statement-level triggers see every row a statement inserted or deleted at once (transition
-- tables), whoever wrote it: ingestion, product changes, retention, a bulk load, a test. Both
-- name their rows `changed`; the events are added with sign +1 (inserted) or -1 (deleted).
-- Rows are written in key order, so two statements counting into the same rows lock them in the
-- same order and cannot deadlock (a deletion is an upsert of a negative count, so counts carry
-- no CHECK (n >= 0): the proposed row is checked before its conflict is found); a count that
-- falls to zero is removed. The repository check skips events deleted because their repository
-- was (its counts go by the same cascade).
CREATE FUNCTION count_changed_events() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO event_counts AS c (repository_id, slot_start, type, outcome, trigger, n)
    SELECT e.repository_id, event_slot(e.received_at, 600), e.type, e.outcome, e.trigger, sign * count(*)
    FROM changed e WHERE EXISTS (SELECT 1 FROM repositories r WHERE r.id = e.repository_id)
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (repository_id, slot_start, type, outcome, trigger) DO UPDATE SET n = c.n + excluded.n;
  INSERT INTO event_number_counts AS c (repository_id, facet, slot_start, number, n)
    SELECT e.repository_id, f.facet, event_slot(e.received_at, 3600), f.number, sign * count(*)
    FROM changed e
    CROSS JOIN LATERAL (VALUES ('pull_request', e.pull_request), ('batch_pull_request', e.batch_pull_request)) AS f (facet, number)
    WHERE f.number IS NOT NULL AND EXISTS (SELECT 1 FROM repositories r WHERE r.id = e.repository_id)
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (repository_id, facet, slot_start, number) DO UPDATE SET n = c.n + excluded.n;
  IF sign < 0 THEN
    DELETE FROM event_counts WHERE n = 0 AND (repository_id, slot_start) IN
      (SELECT DISTINCT repository_id, event_slot(received_at, 600) FROM changed);
    DELETE FROM event_number_counts WHERE n = 0 AND (repository_id, slot_start) IN
      (SELECT DISTINCT repository_id, event_slot(received_at, 3600) FROM changed);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER events_counted_on_insert AFTER INSERT ON events
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_events();
CREATE TRIGGER events_counted_on_delete AFTER DELETE ON events
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_events();
-- Events are never updated; an UPDATE would leave the counts behind, so none is allowed.
CREATE FUNCTION refuse_event_update() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only: the counts of migration 0005 would go stale';
END
$$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_event_update();

-- The events stored before this migration.
INSERT INTO event_counts (repository_id, slot_start, type, outcome, trigger, n)
  SELECT repository_id, event_slot(received_at, 600), type, outcome, trigger, count(*)
  FROM events GROUP BY 1, 2, 3, 4, 5;
INSERT INTO event_number_counts (repository_id, facet, slot_start, number, n)
  SELECT e.repository_id, f.facet, event_slot(e.received_at, 3600), f.number, count(*)
  FROM events e
  CROSS JOIN LATERAL (VALUES ('pull_request', e.pull_request), ('batch_pull_request', e.batch_pull_request)) AS f (facet, number)
  WHERE f.number IS NOT NULL GROUP BY 1, 2, 3, 4;
