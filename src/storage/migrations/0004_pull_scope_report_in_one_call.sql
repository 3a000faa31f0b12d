-- Scope reports by pull request number in one round trip instead of five (issue #8: BEGIN, the
-- pull request's lock, its state, the upsert, COMMIT), and many of them at once. Only PostgreSQL
-- 15 features.

-- The advisory lock that serialises everything touching one pull request (head moves, reports by
-- number), defined once for the application's transactions and for the function below.
CREATE FUNCTION pull_request_lock_key(repository_id bigint, number bigint) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtext(repository_id::text || ':' || number::text)
$$;

CREATE FUNCTION lock_pull_request(repository_id bigint, number bigint) RETURNS void
LANGUAGE sql VOLATILE SET search_path FROM CURRENT AS $$
  SELECT pg_advisory_xact_lock(727004, pull_request_lock_key(repository_id, number))
$$;

-- Many reports by number in one call (the service batches those arriving together), for distinct
-- pull requests. Without p_wait, a lock another transaction holds is not waited for, and that
-- report comes back NULL, not written, so one busy pull request never holds up the others of the
-- batch; the service then writes it again alone, with p_wait, waiting for that one lock (one
-- lock cannot close a cycle with head moves, which take one each). Then, in a statement whose snapshot is taken after the locks (each statement
-- of a VOLATILE function takes its own), so that a close or head move committed while this call
-- waited is seen: the states, and one upsert of the reports of open (or unknown) pull requests,
-- arrival numbers taken in the order given. Scopes come as JSON arrays of strings, since a
-- PostgreSQL array of arrays must be rectangular. One result per report: true written, false
-- refused (closed or merged), NULL busy.
CREATE FUNCTION put_pull_scope_reports(p_repository_ids bigint[], p_numbers bigint[], p_scopes text[], p_all_scopes boolean[], p_wait boolean)
RETURNS boolean[]
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
DECLARE
  v_locked boolean[];
  v_written boolean[];
BEGIN
  IF p_wait THEN
    PERFORM lock_pull_request(u.r, u.n) FROM unnest(p_repository_ids, p_numbers) WITH ORDINALITY AS u(r, n, i) ORDER BY u.i;
    v_locked := array_fill(true, ARRAY[coalesce(array_length(p_numbers, 1), 0)]);
  ELSE
    SELECT array_agg(pg_try_advisory_xact_lock(727004, pull_request_lock_key(u.r, u.n)) ORDER BY u.i) INTO v_locked
      FROM unnest(p_repository_ids, p_numbers) WITH ORDINALITY AS u(r, n, i);
  END IF;
  WITH input AS (
    SELECT u.r, u.n, u.s, u.a, u.i, v_locked[u.i] AS locked, NOT EXISTS (
      SELECT 1 FROM pull_requests p WHERE p.repository_id = u.r AND p.number = u.n AND p.state <> 'open') AS open
    FROM unnest(p_repository_ids, p_numbers, p_scopes, p_all_scopes) WITH ORDINALITY AS u(r, n, s, a, i)
  ), put AS (
    INSERT INTO pull_scope_reports AS x (repository_id, number, scopes, all_scopes, seq, reported_at)
      SELECT r, n, ARRAY(SELECT jsonb_array_elements_text(s::jsonb)), a, nextval('arrival_seq'), clock_timestamp()
      FROM input WHERE locked AND open ORDER BY i
      ON CONFLICT (repository_id, number) DO UPDATE
        SET scopes = excluded.scopes, all_scopes = excluded.all_scopes, seq = excluded.seq, reported_at = excluded.reported_at
  )
  SELECT array_agg(CASE WHEN locked THEN open END ORDER BY i) INTO v_written FROM input;
  RETURN coalesce(v_written, '{}');
END
$$;
