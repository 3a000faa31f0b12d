// What the conditions of DESIGN.md §14 read: one pull request as the service assembled it from
// webhooks and platform reads, plus what only the service knows (queue, scopes, team members).
// The evaluator is a pure function of this snapshot, the configuration and the clock; a field
// the service could not learn is `null`, and a condition on it is pending, never false.

/** A check run or commit status on the head, reduced to the states conditions distinguish. */
export type CheckState = 'success' | 'failure' | 'neutral' | 'skipped' | 'pending' | 'timed_out' | 'cancelled' | 'stale' | 'action_required';

export interface CheckSnapshot {
  name: string;
  state: CheckState;
}

/** A reviewer's latest review that counts (a later COMMENTED does not replace an approval). */
export interface ReviewSnapshot {
  author: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
}

export interface FileSnapshot {
  path: string;
  status: 'added' | 'modified' | 'removed' | 'renamed';
  /** A renamed file's old path. */
  previousPath?: string;
}

export interface QueueSnapshot {
  name: string;
  /** 0 for the first pull request of its queue. */
  position: number;
  queuedAt: Date;
}

export interface PullRequestSnapshot {
  number: bigint;
  title: string;
  /** The description without Markdown/HTML comments (`body`); `bodyRaw` as written. */
  body: string;
  bodyRaw: string;
  base: string;
  head: string;
  headRepoFullName: string;
  fromFork: boolean;
  author: string;
  mergedBy: string | null;
  milestone: string | null;
  assignees: readonly string[];
  labels: readonly string[];
  draft: boolean;
  closed: boolean;
  merged: boolean;
  locked: boolean;
  /** null while the platform has not computed mergeability. */
  conflict: boolean | null;
  linearHistory: boolean | null;
  repositoryName: string;
  repositoryFullName: string;
  /** Users by login and teams as `@org/team`. */
  reviewRequested: readonly string[];
  reviews: readonly ReviewSnapshot[];
  checks: readonly CheckSnapshot[];
  /** null when the files were not read (too many, or the read failed). */
  files: readonly FileSnapshot[] | null;
  addedLines: number | null;
  deletedLines: number | null;
  commitsBehind: number | null;
  coAuthors: readonly string[];
  /** `owner/repo#N` of each Depends-On reference in the body. */
  dependsOn: readonly string[];
  /** The effective scopes (DESIGN §5); null when no report arrived. */
  scopes: readonly string[] | null;
  queue: QueueSnapshot | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  mergedAt: Date | null;
  /** Whether the pull request changes the configuration file. */
  configurationChanged: boolean;
  /** Commands only: who typed it and their permission on the repository. */
  sender?: string;
  senderPermission?: 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
  /**
   * Members of the teams the configuration names, by `org/team` (lower case); a team absent from
   * the map was not read, a team the platform does not know maps to null.
   */
  teamMembers: ReadonlyMap<string, readonly string[] | null>;
}
