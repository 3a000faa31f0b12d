// What the hosting platform answers, as plain values: ids and pull request numbers as bigint
// (64-bit, never rounded), shas in lower case, outcomes the caller must handle as union values
// rather than exceptions (a conflict is an answer, not a failure).

export interface RepositoryRef {
  owner: string;
  repo: string;
}

export interface PullRequest {
  number: bigint;
  id: bigint;
  state: 'open' | 'closed';
  draft: boolean;
  merged: boolean;
  /** null while the platform has not computed it, and in lists */
  mergeable: boolean | null;
  mergeableState: string | null;
  title: string;
  author: string;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  mergeCommitSha: string | null;
  updatedAt: string;
}

export type BranchCreation = { kind: 'created'; sha: string } | { kind: 'exists' };

export type RefMove = { kind: 'moved'; sha: string } | { kind: 'not_fast_forward' } | { kind: 'missing' };

/** POST /merges: a merge commit, nothing to merge (the head is in already), or a conflict. */
export type BranchMerge = { kind: 'merged'; sha: string } | { kind: 'nothing_to_merge' } | { kind: 'conflict' };

/** PUT /pulls/{n}/merge: merged, the head moved since the sha the caller pinned, or refused. */
export type PullMerge = { kind: 'merged'; sha: string } | { kind: 'head_moved' } | { kind: 'not_mergeable'; reason: string };

export type PullBranchUpdate = { kind: 'updating' } | { kind: 'head_moved' } | { kind: 'up_to_date' } | { kind: 'conflict' };

export interface Comparison {
  status: 'ahead' | 'behind' | 'diverged' | 'identical';
  aheadBy: number;
  behindBy: number;
  mergeBaseSha: string;
}

export interface CheckRun {
  id: bigint;
  name: string;
  headSha: string;
  status: string;
  /** null until completed */
  conclusion: string | null;
  app: string | null;
  detailsUrl: string | null;
  startedAt: string | null;
  completedAt: string | null;
}

export interface CommitStatus {
  id: bigint;
  context: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  description: string | null;
  targetUrl: string | null;
}

export interface CombinedStatus {
  sha: string;
  state: 'failure' | 'pending' | 'success';
  statuses: CommitStatus[];
}

/** A collaborator's permission, as GitHub sums it up. */
export type CollaboratorPermission = 'admin' | 'write' | 'read' | 'none';

/** How the platform merges one pull request (the queue's fast-forward moves the base ref instead). */
export type PlatformMergeMethod = 'merge' | 'squash' | 'rebase';
