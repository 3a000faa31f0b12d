// The platform's JSON answers turned into hosting-types values, every field checked
// (answer-fields.ts): what is not in GitHub's shape is an invalid answer, not a crash later.
import { countOf, int64Of, invalid, loginOf, nullableStringOf, objectOf, oneOf, shaOf, stringOf } from './answer-fields.ts';
import type { CheckRun, CombinedStatus, CommitStatus, Comparison, FileContent, IssueComment, PullRequest, PullRequestCommit, PullRequestFile, RepositoryInfo, Review } from './hosting-types.ts';

/** Files above this size come without content from the contents API. */
export const CONTENT_LIMIT = 1024 * 1024;

function side(value: unknown, what: string): { ref: string; sha: string } {
  const object = objectOf(value, what);
  return { ref: stringOf(object.ref, `${what} ref`), sha: shaOf(object.sha, `${what} sha`) };
}

export function readPullRequest(value: unknown): PullRequest {
  const pr = objectOf(value, 'pull request');
  const base = objectOf(pr.base, 'pull request base');
  const baseRepo = objectOf(base.repo, 'pull request base repository');
  const headRepo = pr.head !== null && typeof pr.head === 'object' ? (pr.head as Record<string, unknown>).repo : null;
  const milestone = pr.milestone === null || pr.milestone === undefined ? null : objectOf(pr.milestone, 'milestone');
  const mergedBy = pr.merged_by === null || pr.merged_by === undefined ? null : objectOf(pr.merged_by, 'merged by');
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
    body: nullableStringOf(pr.body, 'pull request body') ?? '',
    author: loginOf(objectOf(pr.user, 'pull request author').login, 'pull request author'),
    head: side(pr.head, 'pull request head'),
    base: side(pr.base, 'pull request base'),
    mergeCommitSha: pr.merge_commit_sha ? shaOf(pr.merge_commit_sha, 'merge commit sha') : null,
    labels: listOf(pr.labels, 'labels').map((label) => stringOf(objectOf(label, 'label').name, 'label name')),
    assignees: listOf(pr.assignees, 'assignees').map((user) => loginOf(objectOf(user, 'assignee').login, 'assignee')),
    requestedReviewers: requestedReviewers(pr, loginOf(objectOf(baseRepo.owner, 'base repository owner').login, 'base repository owner')),
    milestone: milestone ? stringOf(milestone.title, 'milestone title') : null,
    locked: pr.locked === true,
    mergedBy: mergedBy ? loginOf(mergedBy.login, 'merged by') : null,
    createdAt: stringOf(pr.created_at, 'pull request creation time'),
    updatedAt: stringOf(pr.updated_at, 'pull request update time'),
    closedAt: nullableStringOf(pr.closed_at, 'pull request closing time'),
    mergedAt: nullableStringOf(pr.merged_at, 'pull request merge time'),
    headRepoFullName: headRepo === null || headRepo === undefined ? null : stringOf(objectOf(headRepo, 'head repository').full_name, 'head repository name'),
    baseRepoFullName: stringOf(baseRepo.full_name, 'base repository name'),
    htmlUrl: nullableStringOf(pr.html_url, 'pull request url'),
    ...counts(pr),
  };
}

/** Users by login; teams as `@org/slug` (a pull request's teams are its base repository owner's). */
function requestedReviewers(pr: Record<string, unknown>, organisation: string): string[] {
  const users = listOf(pr.requested_reviewers, 'requested reviewers').map((user) => loginOf(objectOf(user, 'requested reviewer').login, 'requested reviewer'));
  const teams = listOf(pr.requested_teams, 'requested teams').map((team) => `@${organisation}/${stringOf(objectOf(team, 'requested team').slug, 'requested team')}`);
  return [...users, ...teams];
}

/** The totals only a single read carries (absent from lists, so absent here too). */
function counts(pr: Record<string, unknown>): Pick<PullRequest, 'additions' | 'deletions' | 'changedFiles'> {
  const totals: Pick<PullRequest, 'additions' | 'deletions' | 'changedFiles'> = {};
  if (pr.additions !== undefined && pr.additions !== null) totals.additions = countOf(pr.additions, 'additions');
  if (pr.deletions !== undefined && pr.deletions !== null) totals.deletions = countOf(pr.deletions, 'deletions');
  if (pr.changed_files !== undefined && pr.changed_files !== null) totals.changedFiles = countOf(pr.changed_files, 'changed files');
  return totals;
}

/** A list field that may be absent (older shapes): absent reads as empty. */
function listOf(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(what);
  return value;
}

export function readFileContent(value: unknown): FileContent {
  // A directory answers a list; a symlink or submodule is no file either.
  if (Array.isArray(value)) return { kind: 'missing' };
  const file = objectOf(value, 'file');
  if (file.type !== 'file') return { kind: 'missing' };
  const size = countOf(file.size, 'file size');
  if (file.encoding === 'none' || size > CONTENT_LIMIT) return { kind: 'too_large', size };
  if (file.encoding !== 'base64' || typeof file.content !== 'string') throw invalid('file content');
  return { kind: 'file', sha: shaOf(file.sha, 'file sha'), content: Buffer.from(file.content, 'base64').toString('utf8') };
}

export function readRepository(value: unknown): RepositoryInfo {
  const repo = objectOf(value, 'repository');
  return { defaultBranch: stringOf(repo.default_branch, 'default branch'), fullName: stringOf(repo.full_name, 'repository name'), private: repo.private === true };
}

export function readPullRequestFile(value: unknown): PullRequestFile {
  const file = objectOf(value, 'pull request file');
  // GitHub's other statuses (copied, changed, unchanged) are modifications to a rule.
  const status = file.status === 'added' || file.status === 'removed' || file.status === 'renamed' ? file.status : 'modified';
  const previous = file.previous_filename === undefined || file.previous_filename === null ? {} : { previousPath: stringOf(file.previous_filename, 'previous file name') };
  return { path: stringOf(file.filename, 'file name'), status, ...previous, additions: countOf(file.additions, 'additions'), deletions: countOf(file.deletions, 'deletions') };
}

export function readPullRequestCommit(value: unknown): PullRequestCommit {
  const commit = objectOf(value, 'commit');
  const author = commit.author === null || commit.author === undefined ? null : objectOf(commit.author, 'commit author');
  return {
    sha: shaOf(commit.sha),
    message: stringOf(objectOf(commit.commit, 'commit').message, 'commit message'),
    authorLogin: author ? loginOf(author.login, 'commit author') : null,
    parents: listOf(commit.parents, 'commit parents').map((parent) => shaOf(objectOf(parent, 'commit parent').sha, 'commit parent sha')),
  };
}

/** A deleted account shows as null on GitHub, which names it "ghost". */
function authorOf(user: unknown, what: string): string {
  return user === null || user === undefined ? 'ghost' : loginOf(objectOf(user, what).login, what);
}

export function readReview(value: unknown): Review {
  const review = objectOf(value, 'review');
  return {
    id: int64Of(review.id, 'review id'),
    author: authorOf(review.user, 'reviewer'),
    state: stringOf(review.state, 'review state'),
    commitId: review.commit_id ? shaOf(review.commit_id, 'review commit') : null,
    submittedAt: nullableStringOf(review.submitted_at, 'review submission time'),
  };
}

export function readIssueComment(value: unknown): IssueComment {
  const comment = objectOf(value, 'comment');
  return {
    id: int64Of(comment.id, 'comment id'),
    author: authorOf(comment.user, 'comment author'),
    body: stringOf(comment.body ?? '', 'comment body'),
    createdAt: stringOf(comment.created_at, 'comment creation time'),
    updatedAt: stringOf(comment.updated_at, 'comment update time'),
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
  const output = run.output === null || run.output === undefined ? {} : objectOf(run.output, 'check run output');
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
    externalId: nullableStringOf(run.external_id, 'check run external id'),
    output: { title: nullableStringOf(output.title, 'check run title'), summary: nullableStringOf(output.summary, 'check run summary'), text: nullableStringOf(output.text, 'check run text') },
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
