// What a hosting-platform webhook asks of Switchyard: record a pull request's state, register
// repositories, or nothing.

export interface RepositoryName {
  owner: string;
  name: string;
}

export interface PullRequestChange {
  kind: 'pull_request';
  repository: RepositoryName;
  number: bigint;
  state: 'open' | 'closed' | 'merged';
  headSha: string;
  baseRef: string;
  /** pull_request.updated_at, when the payload has it: orders deliveries that arrive out of order. */
  updatedAt: Date | undefined;
  /** What the merge queue shows and checks, when the payload has it. */
  details?: PullRequestDetails;
}

export interface PullRequestDetails {
  draft: boolean;
  title: string;
  author: { login: string; id: bigint };
  labels: string[];
  /** Its page on the platform (pull_request.html_url), when the payload has an http(s) one. */
  url?: string;
}

export interface HostingAccount {
  login: string;
  id: bigint;
  type: 'User' | 'Bot' | 'Organization' | null;
}

/** A comment on a pull request: it may hold a merge-queue command (`@switchyard queue`). */
export interface PullRequestComment {
  kind: 'comment';
  repository: RepositoryName;
  number: bigint;
  body: string;
  author: HostingAccount;
  commentId: bigint;
  url: string | null;
  /** comment.created_at, when the payload has it: how old the command is. */
  createdAt: Date | undefined;
}

/** A check result or commit status changed on a commit (check_run, check_suite, status). */
export interface ChecksChanged {
  kind: 'checks';
  repository: RepositoryName;
  sha: string;
}

/** A branch moved (push). */
export interface BranchPushed {
  kind: 'push';
  repository: RepositoryName;
  branch: string;
  after: string;
}

export interface RepositoryRegistration {
  kind: 'register';
  repositories: RepositoryName[];
}

export type HostingEvent = PullRequestChange | RepositoryRegistration | PullRequestComment | ChecksChanged | BranchPushed | { kind: 'ignored' };

export const IGNORED: HostingEvent = { kind: 'ignored' };
