// The executor's progress on one batch, kept on the batch's row (JSON) so a restarted process
// resumes where the last one stopped (DESIGN §10). Each field is written before the next step
// that depends on it, and every step can be repeated safely.
import type { QueueCheckRecord } from '../../domain/merge-queue/queue-events.ts';

export interface BatchRun {
  /** Check attempt this run is for (the batch's retries): a retry starts a new run. */
  attempt: number;
  /** The batch branch: `switchyard/merge-queue/{base}/{batch id}`. */
  branch: string;
  /** The base head the branch was created at; null until created. */
  baseSha: string | null;
  /** Entries whose heads are merged into the branch so far, in order. */
  merged: string[];
  /** The branch head once every head is merged: what the checks decide on. */
  headSha: string | null;
  /** The draft pull request checking the branch (number as decimal text). */
  checkPull: { number: string; inPlace: boolean } | null;
  /** Required checks seen on the head: how many passed, of how many. */
  checks: { passed: number; total: number };
  unsuccessfulChecks: QueueCheckRecord[];
  /** Merging a passed batch: entry id → the base head after its merge. */
  mergedEntries: Record<string, string>;
  /** Branches and check pull requests of earlier attempts (a retry), still to remove. */
  stale?: { branch: string; checkPull: string | null }[];
}

export function newBatchRun(attempt: number, branch: string): BatchRun {
  return { attempt, branch, baseSha: null, merged: [], headSha: null, checkPull: null, checks: { passed: 0, total: 0 }, unsuccessfulChecks: [], mergedEntries: {} };
}
