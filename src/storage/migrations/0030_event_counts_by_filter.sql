-- Event counts that answer filtered aggregates of long windows (issue 16). Migration 0005 kept
-- counts per 600-second slot and type, outcome and trigger, and per hour and number: they answered
-- only unfiltered aggregates, and a 93-day window summed 13,392 slots of them. This replaces both
-- tables (same names, same triggers' role):
--
-- event_counts: per repository, slot width (600, 14400 or 86400 seconds), slot, type, outcome,
--   trigger and base_ref: the filter dimensions with few values, so any filter on them (and the
--   histogram, by_event_type, by_outcome and by_trigger) is answered from the counts. A window is
--   summed from its whole days, then the whole 4-hour and 600-second slots at its ends; every
--   histogram step the counts serve (600 s and up) is a multiple of the widths it reads.
-- event_number_counts: per repository, facet, hour and number, for the unfiltered facets by pull
--   request and by batch, as in 0005 but with the facet as one character ('p' or 'b'): the table
--   holds about one row per three events, so its width counts in the storage per event. (Counts
--   per day were tried: the benchmark's pull requests live less than a day, so they added a
--   third to the table for little speed; docs/activity-log.md.)
--
-- base_ref may be NULL (an event of no pull request): the keys treat NULL as one value (NULLS NOT
-- DISTINCT, PostgreSQL 15). Only PostgreSQL 15 features. Counts and triggers follow 0005's rules:
-- statement-level, rows written in key order, a count that falls to zero is removed.
DROP TRIGGER events_counted_on_insert ON events;
DROP TRIGGER events_counted_on_delete ON events;
DROP FUNCTION count_changed_events();
DROP TABLE event_counts;
DROP TABLE event_number_counts;

CREATE TABLE event_counts (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  width         integer NOT NULL CHECK (width IN (600, 14400, 86400)),
  slot_start    bigint NOT NULL,
  type          text NOT NULL,
  outcome       text NOT NULL,
  trigger       text NOT NULL,
  base_ref      text,
  n             integer NOT NULL,
  CONSTRAINT event_counts_key UNIQUE NULLS NOT DISTINCT (repository_id, width, slot_start, type, outcome, trigger, base_ref)
);

CREATE TABLE event_number_counts (
  repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  facet         "char" NOT NULL CHECK (facet IN ('p', 'b')),
  slot_start    bigint NOT NULL,
  number        bigint NOT NULL,
  n             integer NOT NULL,
  PRIMARY KEY (repository_id, facet, slot_start, number)
);

CREATE FUNCTION count_changed_events() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO event_counts AS c (repository_id, width, slot_start, type, outcome, trigger, base_ref, n)
    SELECT e.repository_id, w.width, event_slot(e.received_at, w.width), e.type, e.outcome, e.trigger, e.base_ref, sign * count(*)
    FROM changed e CROSS JOIN (VALUES (600), (14400), (86400)) AS w (width)
    WHERE EXISTS (SELECT 1 FROM repositories r WHERE r.id = e.repository_id)
    GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ON CONSTRAINT event_counts_key DO UPDATE SET n = c.n + excluded.n;
  INSERT INTO event_number_counts AS c (repository_id, facet, slot_start, number, n)
    SELECT e.repository_id, f.facet, event_slot(e.received_at, 3600), f.number, sign * count(*)
    FROM changed e
    CROSS JOIN LATERAL (VALUES ('p'::"char", e.pull_request), ('b'::"char", e.batch_pull_request)) AS f (facet, number)
    WHERE f.number IS NOT NULL AND EXISTS (SELECT 1 FROM repositories r WHERE r.id = e.repository_id)
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (repository_id, facet, slot_start, number) DO UPDATE SET n = c.n + excluded.n;
  IF sign < 0 THEN
    DELETE FROM event_counts WHERE n = 0 AND (repository_id, width, slot_start) IN
      (SELECT DISTINCT e.repository_id, w.width, event_slot(e.received_at, w.width) FROM changed e CROSS JOIN (VALUES (600), (14400), (86400)) AS w (width));
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

-- The events stored before this migration.
INSERT INTO event_counts (repository_id, width, slot_start, type, outcome, trigger, base_ref, n)
  SELECT e.repository_id, w.width, event_slot(e.received_at, w.width), e.type, e.outcome, e.trigger, e.base_ref, count(*)
  FROM events e CROSS JOIN (VALUES (600), (14400), (86400)) AS w (width)
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO event_number_counts (repository_id, facet, slot_start, number, n)
  SELECT e.repository_id, f.facet, event_slot(e.received_at, 3600), f.number, count(*)
  FROM events e
  CROSS JOIN LATERAL (VALUES ('p'::"char", e.pull_request), ('b'::"char", e.batch_pull_request)) AS f (facet, number)
  WHERE f.number IS NOT NULL GROUP BY 1, 2, 3, 4;
