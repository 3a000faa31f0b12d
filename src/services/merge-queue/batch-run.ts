// The executor's progress on one batch, kept on the batch's row (JSON) so a restarted process
// resumes where the last one stopped (DESIGN §10). Each field is written before the next step
// that depends on it, and every step can be repeated safely.
import type { QueueCheckRecord } from '../../domain/merge-queue/queue-events.ts';

/**
 * A ref and check pull request a run may have left on the platform. `unsure`: the run never
 * recorded creating the ref (a process may have been killed just after): it is looked for before
 * it is deleted, so a batch ended early costs reads, not writes.
 */
export interface Leftover {
  branch: string;
  checkPull: string | null;
  unsure?: boolean;
}

/** A commit a batch built: its sha, and the queued entries whose heads it holds. */
export interface BuiltCommit {
  sha: string;
  entryIds: readonly string[];
}

export interface BatchRun {
  /** Check attempt this run is for (the batch's retries): a retry starts a new run. */
  attempt: number;
  /** The batch branch: `switchyard/merge-queue/{base}/{batch id}`; empty when checked in place. */
  branch: string;
  /**
   * Checked in place (DESIGN §10): on the pull request itself, updated with its base when
   * behind; no branch of the queue's, and `checkPull` is that pull request, which is never closed.
   */
  inPlace?: boolean;
  /**
   * Where the commit is built before it is published on `branch`: a ref outside the branches CI
   * runs on (batch-build.ts), null once deleted. Absent on runs of older versions, which built
   * on `branch` itself.
   */
  scratch?: string | null;
  /** `branch` was created at the finished commit (`headSha`): CI runs on it from then on. */
  published?: boolean;
  /** The commit the build started at (the base's head, or a parent batch's commit); null until it begins. */
  baseSha: string | null;
  /** Entries whose heads the commit holds so far (from a parent's commit, or merged), in order. */
  merged: string[];
  /** Other parent batches' commits still to merge in (batch-closure.ts buildStart). */
  merges?: BuiltCommit[];
  /** Built from the base, head by head: merging a parent's commit conflicted, so the culprit is found. */
  fromBase?: boolean;
  /** The commit built so far; once every head is merged (in place: the pull request's head), what the checks decide on. */
  headSha: string | null;
  /** The pull request checking the head (number as decimal text): the draft, or the pull request itself in place. */
  checkPull: { number: string; inPlace: boolean } | null;
  /** Required checks seen on the head: how many passed, of how many. */
  checks: { passed: number; total: number };
  unsuccessfulChecks: QueueCheckRecord[];
  /** Merging a passed batch: entry id → the base head after its merge. */
  mergedEntries: Record<string, string>;
  /**
   * When the executor began merging (ms), written before its first merge call: from then on the
   * batch merges whatever pause or freeze comes (Batch.mergeStarted), and a dequeue by hand is
   * refused, since the platform may already be merging.
   */
  mergingSince?: number;
  /** The queue rule's merge method when merging began: the whole batch merges with it. */
  mergeMethod?: 'merge' | 'squash' | 'rebase' | 'fast-forward';
  /** Branches and check pull requests of earlier attempts (a retry), still to remove. */
  stale?: Leftover[];
}

export function newBatchRun(attempt: number, branch: string, scratch: string): BatchRun {
  return { ...emptyRun(attempt, branch), scratch, published: false };
}

/** A run checking a batch of one pull request on that pull request (queue-rule.ts checksInPlace). */
export function newInPlaceRun(attempt: number): BatchRun {
  return { ...emptyRun(attempt, ''), inPlace: true };
}

function emptyRun(attempt: number, branch: string): BatchRun {
  return { attempt, branch, baseSha: null, merged: [], headSha: null, checkPull: null, checks: { passed: 0, total: 0 }, unsuccessfulChecks: [], mergedEntries: {} };
}
