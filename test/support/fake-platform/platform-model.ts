// The records the fake platform keeps in memory beside its git repositories. Ids and numbers
// are bigint, so tests can put them above 2^53 and see whether a client keeps them exact.
import type { KeyObject } from 'node:crypto';
import type { GitRepository } from './git-repository.ts';

export interface Account {
  id: bigint;
  login: string;
  type: 'User' | 'Organization' | 'Bot';
}

export type Permission = 'read' | 'triage' | 'write' | 'maintain' | 'admin';
export const PERMISSION_ORDER: readonly (Permission | 'none')[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin'];

export interface Membership {
  role: 'admin' | 'member';
  state: 'active' | 'pending';
}

export interface FakeApp {
  id: bigint;
  slug: string;
  owner: Account;
  bot: Account;
  publicKey: KeyObject | undefined;
  /** PEM (PKCS#1, as the platform hands it out); empty for an app that never authenticates */
  privateKey: string;
}

export interface Installation {
  id: bigint;
  app: FakeApp;
  account: Account;
  /** lower-case full names, or every repository of the account */
  repositories: 'all' | Set<string>;
}

/** Who a request acts as. */
export type Caller =
  | { kind: 'user'; account: Account }
  | { kind: 'installation'; account: Account; installation: Installation }
  | { kind: 'app'; app: FakeApp };

export interface LabelRecord {
  id: bigint;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

export interface MilestoneRecord {
  id: bigint;
  number: bigint;
  title: string;
  state: 'open' | 'closed';
  creator: Account;
  createdAt: Date;
}

export interface TeamRecord {
  id: bigint;
  organisation: Account;
  slug: string;
  name: string;
  /** lower-case login → the member and their role in the team */
  members: Map<string, { account: Account; role: 'member' | 'maintainer' }>;
}

export type ReviewState = 'PENDING' | 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';

export interface ReviewRecord {
  id: bigint;
  user: Account;
  body: string;
  state: ReviewState;
  /** the head the review was made on */
  commitId: string;
  /** null while pending */
  submittedAt: Date | null;
}

export interface PullRecord {
  id: bigint;
  number: bigint;
  title: string;
  body: string;
  user: Account;
  /** where the head branch lives: the repository itself, or a fork of it */
  headRepo: RepositoryRecord;
  headRef: string;
  /** the head branch's tip while open; kept as it was when closed */
  headSha: string;
  baseRef: string;
  /** the base branch's tip when the pull request was closed */
  closedBaseSha: string | null;
  state: 'open' | 'closed';
  draft: boolean;
  merged: boolean;
  mergedBy: Account | null;
  mergeCommitSha: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  mergedAt: Date | null;
  /** the base's tip just before the pull request landed: what its files are compared with once merged */
  landedOnto: string | null;
  labels: LabelRecord[];
  assignees: Account[];
  requestedReviewers: Account[];
  requestedTeams: TeamRecord[];
  milestone: MilestoneRecord | null;
  locked: boolean;
  reviews: ReviewRecord[];
}

export type CheckStatus = 'queued' | 'in_progress' | 'completed';
export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | 'stale';

export interface CheckRunRecord {
  id: bigint;
  name: string;
  headSha: string;
  app: FakeApp;
  suiteId: bigint;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  startedAt: Date;
  completedAt: Date | null;
  detailsUrl: string | null;
  externalId: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
}

export interface CheckSuiteRecord {
  id: bigint;
  app: FakeApp;
  headSha: string;
  headBranch: string | null;
  createdAt: Date;
}

export type StatusState = 'error' | 'failure' | 'pending' | 'success';

export interface StatusRecord {
  id: bigint;
  sha: string;
  state: StatusState;
  context: string;
  description: string | null;
  targetUrl: string | null;
  creator: Account;
  createdAt: Date;
}

export interface CommentRecord {
  id: bigint;
  issueNumber: bigint;
  body: string;
  user: Account;
  createdAt: Date;
  updatedAt: Date;
}

export interface RepositoryRecord {
  id: bigint;
  owner: Account;
  name: string;
  defaultBranch: string;
  private: boolean;
  /** the repository this one is a fork of (null: not a fork) */
  parent: RepositoryRecord | null;
  createdAt: Date;
  git: GitRepository;
  collaborators: Map<string, Permission>;
  pulls: Map<bigint, PullRecord>;
  nextNumber: bigint;
  checkRuns: Map<bigint, CheckRunRecord>;
  checkSuites: Map<string, CheckSuiteRecord>;
  statuses: StatusRecord[];
  comments: CommentRecord[];
  /** lower-case name → label */
  labels: Map<string, LabelRecord>;
  milestones: Map<bigint, MilestoneRecord>;
  /** Mutations of one repository run one at a time, as the platform serialises ref updates. */
  lock: <T>(work: () => Promise<T>) => Promise<T>;
}

export function fullName(repo: RepositoryRecord): string {
  return `${repo.owner.login}/${repo.name}`;
}

/** A mutex as a function: work passed to it runs after all work passed before. */
export function serialiser(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
