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

export interface PullRecord {
  id: bigint;
  number: bigint;
  title: string;
  body: string;
  user: Account;
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
  output: { title: string | null; summary: string | null };
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
}

export interface RepositoryRecord {
  id: bigint;
  owner: Account;
  name: string;
  defaultBranch: string;
  private: boolean;
  git: GitRepository;
  collaborators: Map<string, Permission>;
  pulls: Map<bigint, PullRecord>;
  nextNumber: bigint;
  checkRuns: Map<bigint, CheckRunRecord>;
  checkSuites: Map<string, CheckSuiteRecord>;
  statuses: StatusRecord[];
  comments: CommentRecord[];
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
