-- Scope reports by pull request number in one round trip instead of five (issue #8: BEGIN, the
-- pull request's lock, its state, the upsert, COMMIT), and many of them at once. Only PostgreSQL
-- 15 features.

-- The advisory lock that serialises everything touching one pull request (head moves, reports by
-- number), defined once for the application's transactions and for the function below.
CREATE FUNCTION lock_pull_request(repository_id bigint, number bigint) RETURNS void
LANGUAGE sql VOLATILE AS $$
  SELECT pg_advisory_xact_lock(727004, hashtext(repository_id::text || ':' || number::text))
$$;

-- Many reports by number in one call (the service batches those arriving together), for distinct
-- pull requests sorted by the caller, so two calls take the locks in the same order. First every
-- lock; then, in a statement whose snapshot is taken after them (each statement of a VOLATILE
-- function takes its own), so that a close or head move committed while this call waited is seen,
-- the states and one upsert of the reports of open (or unknown) pull requests, arrival numbers
-- taken in the order given. Scopes come as JSON arrays of strings, since a PostgreSQL array of
-- arrays must be rectangular. One result per report: false for a closed or merged pull request,
-- whose report is not written.
CREATE FUNCTION put_pull_scope_reports(p_repository_ids bigint[], p_numbers bigint[], p_scopes text[], p_all_scopes boolean[])
RETURNS boolean[]
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  written boolean[];
BEGIN
  PERFORM lock_pull_request(u.r, u.n) FROM unnest(p_repository_ids, p_numbers) WITH ORDINALITY AS u(r, n, i) ORDER BY u.i;
  WITH input AS (
    SELECT u.r, u.n, u.s, u.a, u.i, NOT EXISTS (
      SELECT 1 FROM pull_requests p WHERE p.repository_id = u.r AND p.number = u.n AND p.state <> 'open') AS open
    FROM unnest(p_repository_ids, p_numbers, p_scopes, p_all_scopes) WITH ORDINALITY AS u(r, n, s, a, i)
  ), put AS (
    INSERT INTO pull_scope_reports AS x (repository_id, number, scopes, all_scopes, seq, reported_at)
      SELECT r, n, ARRAY(SELECT jsonb_array_elements_text(s::jsonb)), a, nextval('arrival_seq'), clock_timestamp()
      FROM input WHERE open ORDER BY i
      ON CONFLICT (repository_id, number) DO UPDATE
        SET scopes = excluded.scopes, all_scopes = excluded.all_scopes, seq = excluded.seq, reported_at = excluded.reported_at
  )
  SELECT array_agg(open ORDER BY i) INTO written FROM input;
  RETURN coalesce(written, '{}');
END
$$;
