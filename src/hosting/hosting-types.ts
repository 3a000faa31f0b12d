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
  /** '' when the pull request has no description */
  body: string;
  author: string;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  mergeCommitSha: string | null;
  labels: string[];
  assignees: string[];
  /** users by login, teams as `@org/slug` */
  requestedReviewers: string[];
  /** the milestone's title */
  milestone: string | null;
  locked: boolean;
  mergedBy: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  /** null when the head's repository is gone (a deleted fork) */
  headRepoFullName: string | null;
  baseRepoFullName: string;
  htmlUrl: string | null;
  /** only in a single read (lists leave them out) */
  additions?: number;
  deletions?: number;
  changedFiles?: number;
}

/** A file of a branch; `too_large` above 1 MiB, which the contents API does not hand out. */
export type FileContent = { kind: 'file'; sha: string; content: string } | { kind: 'missing' } | { kind: 'too_large'; size: number };

export interface RepositoryInfo {
  defaultBranch: string;
  fullName: string;
  private: boolean;
}

export interface PullRequestFile {
  path: string;
  status: 'added' | 'modified' | 'removed' | 'renamed';
  /** a renamed file's old path */
  previousPath?: string;
  additions: number;
  deletions: number;
}

export interface PullRequestCommit {
  sha: string;
  message: string;
  /** null when the commit's author is no platform user */
  authorLogin: string | null;
  parents: string[];
}

export interface Review {
  id: bigint;
  /** 'ghost' for a deleted account, as GitHub shows it */
  author: string;
  state: string;
  commitId: string | null;
  /** null while pending */
  submittedAt: string | null;
}

export interface IssueComment {
  id: bigint;
  author: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export type CheckRunConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'action_required';

/** A check run as this service wants it on a commit (upsertCheckRun). */
export interface CheckRunWrite {
  headSha: string;
  name: string;
  status: 'in_progress' | 'completed';
  conclusion?: CheckRunConclusion;
  title: string;
  summary: string;
  text?: string;
  externalId?: string;
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
  externalId: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
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
