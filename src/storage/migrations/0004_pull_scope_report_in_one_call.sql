-- A scope report by pull request number in one round trip instead of five (issue #8: BEGIN, the
-- pull request's lock, its state, the upsert, COMMIT). Only PostgreSQL 15 features.

-- The advisory lock that serialises everything touching one pull request (head moves, reports by
-- number), defined once for the application's transactions and for the function below.
CREATE FUNCTION lock_pull_request(repository_id bigint, number bigint) RETURNS void
LANGUAGE sql VOLATILE AS $$
  SELECT pg_advisory_xact_lock(727004, hashtext(repository_id::text || ':' || number::text))
$$;

-- Takes the lock, then reads the state with a snapshot taken after it (each statement of a
-- VOLATILE function takes its own), so a close or head move that committed while this call waited
-- is seen. False, with nothing written, when the pull request is known closed or merged; the
-- arrival number is taken under the lock, so it is in commit order for the pull request.
CREATE FUNCTION put_pull_scope_report(p_repository_id bigint, p_number bigint, p_scopes text[], p_all_scopes boolean)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM lock_pull_request(p_repository_id, p_number);
  IF EXISTS (SELECT 1 FROM pull_requests WHERE repository_id = p_repository_id AND number = p_number AND state <> 'open') THEN
    RETURN false;
  END IF;
  INSERT INTO pull_scope_reports AS r (repository_id, number, scopes, all_scopes, seq, reported_at)
    VALUES (p_repository_id, p_number, p_scopes, p_all_scopes, nextval('arrival_seq'), clock_timestamp())
    ON CONFLICT (repository_id, number) DO UPDATE
      SET scopes = excluded.scopes, all_scopes = excluded.all_scopes, seq = excluded.seq, reported_at = excluded.reported_at;
  RETURN true;
END
$$;

-- Many reports by number in one call (the service batches those arriving together): each is
-- put_pull_scope_report in turn, in the order given (the caller sorts them by pull request, so
-- two calls take the locks in the same order). Scopes come as JSON arrays of strings, since a
-- PostgreSQL array of arrays must be rectangular. One result per report.
CREATE FUNCTION put_pull_scope_reports(p_repository_ids bigint[], p_numbers bigint[], p_scopes text[], p_all_scopes boolean[])
RETURNS boolean[]
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  written boolean[] := '{}';
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_numbers, 1), 0) LOOP
    written := written || put_pull_scope_report(p_repository_ids[i], p_numbers[i],
      ARRAY(SELECT jsonb_array_elements_text(p_scopes[i]::jsonb)), p_all_scopes[i]);
  END LOOP;
  RETURN written;
END
$$;
