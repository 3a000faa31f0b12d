// What the merge-queue executor and the rules engine ask of the hosting platform (DESIGN.md
// §10, §13–16), as typed calls returning plain values. Answers the caller must act on (a
// conflict, a head that moved, a file that is not there) come back as values; only failures to
// get an answer throw, as HostingFailure (hosting-failure.ts). Rate limits, retries and
// timeouts are Octokit's (octokit-client.ts); credentials, per repository or organisation
// (repository-clients.ts); requests and pages, platform-calls.ts.
import type { HostingCredentials } from '../config.ts';
import { int64Of, loginOf, objectOf, oneOf, shaOf } from './answer-fields.ts';
import { checkRunMatches, outputOf } from './check-run-output.ts';
import type { BranchCreation, BranchMerge, CheckRun, CheckRunWrite, CollaboratorPermission, CombinedStatus, Comparison, FileContent, IssueComment, PlatformMergeMethod, PullBranchUpdate, PullMerge, PullRequest, PullRequestCommit, PullRequestFile, RefMove, RepositoryInfo, RepositoryRef, Review } from './hosting-types.ts';
import type { ClientTuning } from './octokit-client.ts';
import { arrayOf, messageOf, PAGE_SIZE, PlatformCalls, refused, type Reply } from './platform-calls.ts';
import { readCheckRun, readCombinedStatus, readComparison, readFileContent, readIssueComment, readPullRequest, readPullRequestCommit, readPullRequestFile, readRepository, readReview } from './read-answers.ts';
import { RepositoryClients } from './repository-clients.ts';

/** GitHub lists at most 3000 files of a pull request: 30 pages of 100. */
const MAX_FILES = 3000;

export class HostingPlatform {
  private readonly calls: PlatformCalls;

  constructor(clients: RepositoryClients) {
    this.calls = new PlatformCalls(clients);
  }

  /** The client for the configured credentials (config.ts `hostingCredentials`). */
  static connect(baseUrl: string, credentials: HostingCredentials, tuning: ClientTuning = {}): HostingPlatform {
    return new HostingPlatform(new RepositoryClients(baseUrl, credentials, tuning));
  }

  async pullRequest(repo: RepositoryRef, number: bigint): Promise<PullRequest | null> {
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: String(number) }, [404]);
    return reply.status === 404 ? null : readPullRequest(reply.data);
  }

  async listPullRequests(repo: RepositoryRef, filter: { state?: 'open' | 'closed' | 'all'; head?: string; base?: string } = {}): Promise<PullRequest[]> {
    const head = filter.head === undefined ? {} : { head: `${repo.owner}:${filter.head}` };
    const query = { state: filter.state ?? 'open', ...head, ...(filter.base === undefined ? {} : { base: filter.base }) };
    return this.pages(repo, 'GET /repos/{owner}/{repo}/pulls', query, (data) => arrayOf(data, 'pull requests').map(readPullRequest));
  }

  /** The tip of a branch, or null when there is no such branch. */
  async branchHead(repo: RepositoryRef, branch: string): Promise<string | null> {
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}/git/ref/{ref}', { ref: `heads/${branch}` }, [404]);
    return reply.status === 404 ? null : shaOf(objectOf(objectOf(reply.data, 'ref').object, 'ref object').sha);
  }

  async createBranch(repo: RepositoryRef, branch: string, sha: string): Promise<BranchCreation> {
    const reply = await this.call(repo, 'POST /repos/{owner}/{repo}/git/refs', { ref: `refs/heads/${branch}`, sha }, [422]);
    if (reply.status !== 422) return { kind: 'created', sha };
    if (/already exists/i.test(messageOf(reply))) return { kind: 'exists' };
    throw refused(reply);
  }

  /** Moves a branch: as a fast-forward only unless `force` (the platform refuses otherwise). */
  async moveBranch(repo: RepositoryRef, branch: string, sha: string, options: { force: boolean }): Promise<RefMove> {
    const reply = await this.call(repo, 'PATCH /repos/{owner}/{repo}/git/refs/{ref}', { ref: `heads/${branch}`, sha, force: options.force }, [422]);
    if (reply.status !== 422) return { kind: 'moved', sha };
    if (/fast.?forward/i.test(messageOf(reply))) return { kind: 'not_fast_forward' };
    if (/does not exist/i.test(messageOf(reply)) && /reference/i.test(messageOf(reply))) return { kind: 'missing' };
    throw refused(reply);
  }

  /** Deletes a branch; false when it was already gone. */
  async deleteBranch(repo: RepositoryRef, branch: string): Promise<boolean> {
    const reply = await this.call(repo, 'DELETE /repos/{owner}/{repo}/git/refs/{ref}', { ref: `heads/${branch}` }, [404, 422]);
    return reply.status === 204;
  }

  /** Merges `head` (a branch or sha) into the branch `base` with a merge commit. */
  async mergeIntoBranch(repo: RepositoryRef, merge: { base: string; head: string; message: string }): Promise<BranchMerge> {
    const reply = await this.call(repo, 'POST /repos/{owner}/{repo}/merges', { base: merge.base, head: merge.head, commit_message: merge.message }, [409]);
    if (reply.status === 204) return { kind: 'nothing_to_merge' };
    if (reply.status === 409) return { kind: 'conflict' };
    return { kind: 'merged', sha: shaOf(objectOf(reply.data, 'merge commit').sha) };
  }

  /** The parents of a commit, first parent first (a merge commit has two). */
  async commitParents(repo: RepositoryRef, sha: string): Promise<string[]> {
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}/commits/{ref}', { ref: sha, per_page: 1 });
    return arrayOf(objectOf(reply.data, 'commit').parents, 'commit parents').map((parent) => shaOf(objectOf(parent, 'commit parent').sha, 'commit parent sha'));
  }

  async compare(repo: RepositoryRef, base: string, head: string): Promise<Comparison> {
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}/compare/{basehead}', { basehead: `${base}...${head}`, per_page: 1 });
    return readComparison(reply.data);
  }

  /** Opens a pull request; when one is already open from `head` to `base`, that one. */
  async createPullRequest(repo: RepositoryRef, spec: { title: string; head: string; base: string; body?: string; draft?: boolean }): Promise<PullRequest> {
    const reply = await this.call(repo, 'POST /repos/{owner}/{repo}/pulls', { title: spec.title, head: spec.head, base: spec.base, body: spec.body ?? '', draft: spec.draft ?? false }, [422]);
    if (reply.status !== 422) return readPullRequest(reply.data);
    if (!/already exists/i.test(JSON.stringify(reply.data))) throw refused(reply);
    // Asked again after a lost answer (or by a restarted process): the one that exists is it.
    const [existing] = await this.listPullRequests(repo, { state: 'open', head: spec.head, base: spec.base });
    if (!existing) throw refused(reply);
    return existing;
  }

  async closePullRequest(repo: RepositoryRef, number: bigint): Promise<PullRequest> {
    const reply = await this.call(repo, 'PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: String(number), state: 'closed' });
    return readPullRequest(reply.data);
  }

  /** Merges a pull request only if its head is still `sha` (the head that was checked). */
  async mergePullRequest(repo: RepositoryRef, number: bigint, merge: { sha: string; method: PlatformMergeMethod; title?: string; message?: string }): Promise<PullMerge> {
    const params = { pull_number: String(number), sha: merge.sha, merge_method: merge.method, ...(merge.title === undefined ? {} : { commit_title: merge.title }), ...(merge.message === undefined ? {} : { commit_message: merge.message }) };
    const reply = await this.call(repo, 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', params, [405, 409, 422]);
    if (reply.status === 409) return { kind: 'head_moved' };
    if (reply.status === 405 || reply.status === 422) return { kind: 'not_mergeable', reason: messageOf(reply) };
    return { kind: 'merged', sha: shaOf(objectOf(reply.data, 'merge result').sha) };
  }

  /** Merges the base into the pull request's branch if its head is still `expectedHeadSha`. */
  async updatePullRequestBranch(repo: RepositoryRef, number: bigint, expectedHeadSha: string): Promise<PullBranchUpdate> {
    const reply = await this.call(repo, 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch', { pull_number: String(number), expected_head_sha: expectedHeadSha }, [422]);
    if (reply.status !== 422) return { kind: 'updating' };
    const text = messageOf(reply);
    if (/expected head sha/i.test(text)) return { kind: 'head_moved' };
    if (/no new commits/i.test(text)) return { kind: 'up_to_date' };
    if (/conflict/i.test(text)) return { kind: 'conflict' };
    throw refused(reply);
  }

  /** The latest check run of each name on a commit (or branch). */
  async checkRuns(repo: RepositoryRef, ref: string): Promise<CheckRun[]> {
    return this.pages(repo, 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ref, filter: 'latest' }, (data) => arrayOf(objectOf(data, 'check runs').check_runs, 'check runs').map(readCheckRun));
  }

  async combinedStatus(repo: RepositoryRef, ref: string): Promise<CombinedStatus> {
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}/commits/{ref}/status', { ref, per_page: PAGE_SIZE });
    return readCombinedStatus(reply.data);
  }

  /** Comments on a pull request; the comment's id. */
  async comment(repo: RepositoryRef, number: bigint, body: string): Promise<bigint> {
    const reply = await this.call(repo, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: String(number), body });
    return int64Of(objectOf(reply.data, 'comment').id, 'comment id');
  }

  /** What `login` may do in the repository ('none' for someone unknown to it). */
  async collaboratorPermission(repo: RepositoryRef, login: string): Promise<CollaboratorPermission> {
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}/collaborators/{username}/permission', { username: login }, [404]);
    if (reply.status === 404) return 'none';
    return oneOf(objectOf(reply.data, 'permission').permission, ['admin', 'write', 'read', 'none'] as const, 'collaborator permission');
  }

  // What the rules engine reads and writes (DESIGN.md §13–16)

  /** A file at `ref` (the default branch when absent), decoded as UTF-8. */
  async fileContent(repo: RepositoryRef, path: string, ref?: string): Promise<FileContent> {
    const segments = path.split('/');
    // No file has an empty, "." or ".." segment, and a URL would resolve them to another endpoint.
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return { kind: 'missing' };
    // Each segment encoded on its own: the path's slashes stay slashes.
    const encoded = segments.map(encodeURIComponent).join('/');
    const reply = await this.call(repo, `GET /repos/{owner}/{repo}/contents/${encoded}`, ref === undefined ? {} : { ref }, [404]);
    return reply.status === 404 ? { kind: 'missing' } : readFileContent(reply.data);
  }

  /** The repository, or null when it does not exist (or the credentials cannot see it). */
  async repository(repo: RepositoryRef): Promise<RepositoryInfo | null> {
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}', {}, [404]);
    return reply.status === 404 ? null : readRepository(reply.data);
  }

  /** The files a pull request changes; null when it changes more than the platform lists (3000). */
  async pullRequestFiles(repo: RepositoryRef, number: bigint): Promise<PullRequestFile[] | null> {
    const files = await this.calls.pages(repo, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files', { pull_number: String(number) }, (data) => arrayOf(data, 'pull request files').map(readPullRequestFile), MAX_FILES / PAGE_SIZE);
    if (files.length < MAX_FILES) return files;
    // A full last page: the pull request's own count says whether the list was cut.
    const pull = await this.pullRequest(repo, number);
    return pull && (pull.changedFiles ?? Infinity) <= MAX_FILES ? files : null;
  }

  async pullRequestCommits(repo: RepositoryRef, number: bigint): Promise<PullRequestCommit[]> {
    return this.pages(repo, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/commits', { pull_number: String(number) }, (data) => arrayOf(data, 'pull request commits').map(readPullRequestCommit));
  }

  /** Every review, oldest first. */
  async reviews(repo: RepositoryRef, number: bigint): Promise<Review[]> {
    return this.pages(repo, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { pull_number: String(number) }, (data) => arrayOf(data, 'reviews').map(readReview));
  }

  /** The logins of a team of an organisation; null when the platform knows no such team. */
  async teamMembers(org: string, team: string): Promise<string[] | null> {
    const read = (data: unknown) => arrayOf(data, 'team members').map((user) => loginOf(objectOf(user, 'team member').login, 'team member'));
    return this.calls.pagesOrMissing({ org }, 'GET /orgs/{org}/teams/{team_slug}/members', { team_slug: team }, read);
  }

  /** The latest check run named `name` on `sha` that this service wrote (its app's), if any. */
  async findCheckRun(repo: RepositoryRef, sha: string, name: string): Promise<CheckRun | null> {
    const appId = this.calls.appId === undefined ? {} : { app_id: this.calls.appId };
    const reply = await this.call(repo, 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ref: sha, check_name: name, filter: 'latest', ...appId, per_page: 1 });
    const [run] = arrayOf(objectOf(reply.data, 'check runs').check_runs, 'check runs');
    return run === undefined ? null : readCheckRun(run);
  }

  /**
   * Makes the check run `wanted.name` on `wanted.headSha` say what `wanted` says, writing only
   * when it does not already: `changed` false means no write was made. Summary and text are cut
   * to the platform's limit.
   */
  async upsertCheckRun(repo: RepositoryRef, wanted: CheckRunWrite): Promise<{ id: bigint; changed: boolean }> {
    if (wanted.status === 'completed' && wanted.conclusion === undefined) throw new TypeError(`The check run ${wanted.name} is completed without a conclusion.`);
    const existing = await this.findCheckRun(repo, wanted.headSha, wanted.name);
    if (existing && checkRunMatches(existing, wanted)) return { id: existing.id, changed: false };
    const output = outputOf(wanted);
    // Text is cleared by writing it empty: an output without it keeps nothing on some platforms.
    const text = output.text ?? (existing?.output.text ? '' : undefined);
    const body = {
      name: wanted.name,
      status: wanted.status,
      ...(wanted.status === 'completed' ? { conclusion: wanted.conclusion } : {}),
      output: { title: output.title, summary: output.summary, ...(text === undefined ? {} : { text }) },
      ...(wanted.externalId === undefined ? {} : { external_id: wanted.externalId }),
    };
    // A completed run is never reopened: a new run of the same name takes its place as the latest.
    if (existing && !(existing.status === 'completed' && wanted.status !== 'completed')) {
      await this.call(repo, 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { check_run_id: String(existing.id), ...body });
      return { id: existing.id, changed: true };
    }
    const reply = await this.call(repo, 'POST /repos/{owner}/{repo}/check-runs', { head_sha: wanted.headSha, ...body });
    return { id: int64Of(objectOf(reply.data, 'check run').id, 'check run id'), changed: true };
  }

  /** The comments on a pull request, oldest first. */
  async comments(repo: RepositoryRef, number: bigint): Promise<IssueComment[]> {
    return this.pages(repo, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: String(number) }, (data) => arrayOf(data, 'comments').map(readIssueComment));
  }

  /** Rewrites a comment; false when it no longer exists. */
  async updateComment(repo: RepositoryRef, id: bigint, body: string): Promise<boolean> {
    const reply = await this.call(repo, 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { comment_id: String(id), body }, [404]);
    return reply.status !== 404;
  }

  /** Deletes a comment; false when it was already gone. */
  async deleteComment(repo: RepositoryRef, id: bigint): Promise<boolean> {
    const reply = await this.call(repo, 'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}', { comment_id: String(id) }, [404]);
    return reply.status !== 404;
  }

  private call(repo: RepositoryRef, route: string, params: Record<string, unknown>, answers: readonly number[] = []): Promise<Reply> {
    return this.calls.call(repo, route, params, answers);
  }

  private pages<T>(repo: RepositoryRef, route: string, query: Record<string, unknown>, read: (data: unknown) => T[]): Promise<T[]> {
    return this.calls.pages(repo, route, query, read);
  }
}
