// The platform's JSON answers turned into hosting-types values, every field checked
// (answer-fields.ts): what is not in GitHub's shape is an invalid answer, not a crash later.
import { countOf, int64Of, invalid, loginOf, nullableStringOf, objectOf, oneOf, shaOf, stringOf } from './answer-fields.ts';
import type { CheckRun, CombinedStatus, CommitStatus, Comparison, PullRequest } from './hosting-types.ts';

function side(value: unknown, what: string): { ref: string; sha: string } {
  const object = objectOf(value, what);
  return { ref: stringOf(object.ref, `${what} ref`), sha: shaOf(object.sha, `${what} sha`) };
}

export function readPullRequest(value: unknown): PullRequest {
  const pr = objectOf(value, 'pull request');
  return {
    number: int64Of(pr.number, 'pull request number'),
    id: int64Of(pr.id, 'pull request id'),
    state: oneOf(pr.state, ['open', 'closed'] as const, 'pull request state'),
    draft: pr.draft === true,
    // Lists carry merged_at only; a single pull request carries both.
    merged: pr.merged === true || (pr.merged_at !== null && pr.merged_at !== undefined),
    mergeable: typeof pr.mergeable === 'boolean' ? pr.mergeable : null,
    mergeableState: nullableStringOf(pr.mergeable_state, 'mergeable state'),
    title: stringOf(pr.title, 'pull request title'),
    author: loginOf(objectOf(pr.user, 'pull request author').login, 'pull request author'),
    head: side(pr.head, 'pull request head'),
    base: side(pr.base, 'pull request base'),
    mergeCommitSha: pr.merge_commit_sha ? shaOf(pr.merge_commit_sha, 'merge commit sha') : null,
    updatedAt: stringOf(pr.updated_at, 'pull request update time'),
  };
}

export function readComparison(value: unknown): Comparison {
  const comparison = objectOf(value, 'comparison');
  return {
    status: oneOf(comparison.status, ['ahead', 'behind', 'diverged', 'identical'] as const, 'comparison status'),
    aheadBy: countOf(comparison.ahead_by, 'ahead_by'),
    behindBy: countOf(comparison.behind_by, 'behind_by'),
    mergeBaseSha: shaOf(objectOf(comparison.merge_base_commit, 'merge base').sha, 'merge base sha'),
  };
}

export function readCheckRun(value: unknown): CheckRun {
  const run = objectOf(value, 'check run');
  const app = run.app === null || run.app === undefined ? null : objectOf(run.app, 'check run app');
  return {
    id: int64Of(run.id, 'check run id'),
    name: stringOf(run.name, 'check run name'),
    headSha: shaOf(run.head_sha, 'check run head sha'),
    status: stringOf(run.status, 'check run status'),
    conclusion: nullableStringOf(run.conclusion, 'check run conclusion'),
    app: app ? stringOf(app.slug, 'check run app') : null,
    detailsUrl: nullableStringOf(run.details_url, 'check run details url'),
    startedAt: nullableStringOf(run.started_at, 'check run start'),
    completedAt: nullableStringOf(run.completed_at, 'check run completion'),
  };
}

function readStatus(value: unknown): CommitStatus {
  const status = objectOf(value, 'commit status');
  return {
    id: int64Of(status.id, 'status id'),
    context: stringOf(status.context, 'status context'),
    state: oneOf(status.state, ['error', 'failure', 'pending', 'success'] as const, 'status state'),
    description: nullableStringOf(status.description, 'status description'),
    targetUrl: nullableStringOf(status.target_url, 'status target url'),
  };
}

export function readCombinedStatus(value: unknown): CombinedStatus {
  const combined = objectOf(value, 'combined status');
  const statuses = combined.statuses;
  if (!Array.isArray(statuses)) throw invalid('combined status');
  return {
    sha: shaOf(combined.sha, 'combined status sha'),
    state: oneOf(combined.state, ['failure', 'pending', 'success'] as const, 'combined status state'),
    statuses: statuses.map(readStatus),
  };
}
