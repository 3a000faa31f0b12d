-- The hourly counts by pull request and batch number (0030) are dropped (issue 16). They answered
-- only an unfiltered facet by number, which the columnar copy of the events (src/storage/columnar/)
-- now answers faster, and they cost 41 bytes per event that the storage budget, with the copy's
-- 23, no longer had (bench/RESULTS.md). Storage alone (the copy off, or not yet built) reads the
-- window's events for those facets, as it already did under any filter. The trigger keeps the
-- counts by type, outcome, trigger and base ref as before.
CREATE OR REPLACE FUNCTION count_changed_events() RETURNS trigger
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
  IF sign < 0 THEN
    DELETE FROM event_counts WHERE n = 0 AND (repository_id, width, slot_start) IN
      (SELECT DISTINCT e.repository_id, w.width, event_slot(e.received_at, w.width) FROM changed e CROSS JOIN (VALUES (600), (14400), (86400)) AS w (width));
  END IF;
  RETURN NULL;
END
$$;

DROP TABLE event_pull_counts;
DROP TABLE event_batch_counts;
