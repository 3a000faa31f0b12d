-- A batch passed on a later batch's result rather than its own (skip_intermediate_results, issue
-- 26): its pull requests leave PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED when they merge, and the
-- status says intermediate_results_skipped.
ALTER TABLE merge_queue_batches ADD COLUMN intermediate_skipped boolean NOT NULL DEFAULT false;
