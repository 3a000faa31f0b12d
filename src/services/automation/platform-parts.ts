// The platform's answers reduced to what conditions compare (pull-snapshot.ts): check runs and
// statuses to one state per name, reviews to each reviewer's standing, files and commits.
import type { CheckRun, CommitStatus } from '../../hosting/hosting-types.ts';
import type { CheckSnapshot, CheckState, FileSnapshot, ReviewSnapshot } from '../../domain/rules/pull-snapshot.ts';
import { isOwnCheck } from '../../domain/rules/own-checks.ts';

const CONCLUSIONS: Record<string, CheckState> = {
  success: 'success',
  failure: 'failure',
  neutral: 'neutral',
  skipped: 'skipped',
  timed_out: 'timed_out',
  cancelled: 'cancelled',
  stale: 'stale',
  action_required: 'action_required',
  startup_failure: 'failure',
};

function runState(run: CheckRun): CheckState {
  if (run.status !== 'completed' || run.conclusion === null) return 'pending';
  return CONCLUSIONS[run.conclusion] ?? 'neutral';
}

function statusState(status: CommitStatus): CheckState {
  if (status.state === 'error') return 'failure';
  return status.state;
}

/** One state per name; a check run and a status of the same name: the check run. */
export function checkSnapshots(runs: readonly CheckRun[], statuses: readonly CommitStatus[]): CheckSnapshot[] {
  const byName = new Map<string, CheckState>();
  for (const status of statuses) if (!isOwnCheck(status.context)) byName.set(status.context, statusState(status));
  for (const run of runs) if (!isOwnCheck(run.name)) byName.set(run.name, runState(run));
  return [...byName].map(([name, state]) => ({ name, state }));
}

interface PlatformReview {
  author: string;
  state: string;
}

/**
 * Each reviewer's standing, as the platform shows it: the latest approval, change request or
 * dismissal counts; a comment counts only for a reviewer who gave nothing else.
 */
export function reviewSnapshots(reviews: readonly PlatformReview[]): ReviewSnapshot[] {
  const standing = new Map<string, ReviewSnapshot>();
  for (const review of reviews) {
    const key = review.author.toLowerCase();
    const state = review.state.toUpperCase();
    if (state === 'APPROVED' || state === 'CHANGES_REQUESTED' || state === 'DISMISSED') standing.set(key, { author: review.author, state });
    else if (state === 'COMMENTED' && !standing.has(key)) standing.set(key, { author: review.author, state: 'COMMENTED' });
  }
  return [...standing.values()];
}

interface PlatformFile {
  path: string;
  status: FileSnapshot['status'];
  previousPath?: string;
  additions: number;
  deletions: number;
}

export function fileSnapshots(files: readonly PlatformFile[] | null): { files: FileSnapshot[] | null; added: number | null; deleted: number | null } {
  if (files === null) return { files: null, added: null, deleted: null };
  return {
    files: files.map((file) => ({ path: file.path, status: file.status, ...(file.previousPath === undefined ? {} : { previousPath: file.previousPath }) })),
    added: files.reduce((sum, file) => sum + file.additions, 0),
    deleted: files.reduce((sum, file) => sum + file.deletions, 0),
  };
}

interface PlatformCommit {
  message: string;
  authorLogin: string | null;
  parents: string[];
}

const CO_AUTHORED = /^Co-authored-by:\s*([^<\n]+?)\s*<[^>\n]*>\s*$/gim;

/** Authors of the commits other than the pull request's, and `Co-authored-by` names; no merge commit counts. */
export function coAuthorsOf(commits: readonly PlatformCommit[], author: string): { coAuthors: string[]; linear: boolean } {
  const names = new Set<string>();
  for (const commit of commits) {
    if (commit.parents.length > 1) continue;
    if (commit.authorLogin && commit.authorLogin.toLowerCase() !== author.toLowerCase()) names.add(commit.authorLogin);
    for (const match of commit.message.matchAll(CO_AUTHORED)) names.add(match[1]!);
  }
  return { coAuthors: [...names].slice(0, 100), linear: commits.every((commit) => commit.parents.length <= 1) };
}
