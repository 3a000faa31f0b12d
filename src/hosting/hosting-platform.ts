// What the merge-queue executor asks of the hosting platform (DESIGN.md §10), as typed calls
// returning plain values. Answers the executor must act on (a conflict, a head that moved, a
// base that is not a fast-forward) come back as values; only failures to get an answer throw,
// as HostingFailure (hosting-failure.ts). Rate limits, retries and timeouts are Octokit's
// (octokit-client.ts); credentials, per repository (repository-clients.ts).
import type { HostingCredentials } from '../config.ts';
import { int64Of, invalid, objectOf, oneOf, shaOf } from './answer-fields.ts';
import { HostingFailure, toHostingFailure } from './hosting-failure.ts';
import type { BranchCreation, BranchMerge, CheckRun, CollaboratorPermission, CombinedStatus, Comparison, PlatformMergeMethod, PullBranchUpdate, PullMerge, PullRequest, RefMove, RepositoryRef } from './hosting-types.ts';
import type { ClientTuning, HostingOctokit } from './octokit-client.ts';
import { readCheckRun, readCombinedStatus, readComparison, readPullRequest } from './read-answers.ts';
import { RepositoryClients } from './repository-clients.ts';

interface Reply {
  status: number;
  data: unknown;
}

const PAGE_SIZE = 100;
const MAX_PAGES = 50;

export class HostingPlatform {
  constructor(private readonly clients: RepositoryClients) {}

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

  private async pages<T>(repo: RepositoryRef, route: string, query: Record<string, unknown>, read: (data: unknown) => T[]): Promise<T[]> {
    const all: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const items = read((await this.call(repo, route, { ...query, per_page: PAGE_SIZE, page })).data);
      all.push(...items);
      if (items.length < PAGE_SIZE) break;
    }
    return all;
  }

  /** One request; statuses in `answers` come back as replies, other failures throw HostingFailure. */
  private async call(repo: RepositoryRef, route: string, params: Record<string, unknown>, answers: readonly number[] = []): Promise<Reply> {
    const client = await this.clients.forRepository(repo);
    const all = { owner: repo.owner, repo: repo.repo, ...params };
    try {
      return await send(client.octokit, route, all, answers);
    } catch (error) {
      const failure = toHostingFailure(error);
      if (failure.kind !== 'unauthorized' || !client.refresh) throw failure;
      // An installation token the platform no longer takes: one new token, one more try.
      await client.refresh().catch((refreshError: unknown) => Promise.reject(toHostingFailure(refreshError)));
      return send(client.octokit, route, all, answers).catch((retryError: unknown) => Promise.reject(toHostingFailure(retryError)));
    }
  }
}

async function send(octokit: HostingOctokit, route: string, params: Record<string, unknown>, answers: readonly number[]): Promise<Reply> {
  try {
    const response = await octokit.request(route, params);
    return { status: response.status, data: response.data };
  } catch (error) {
    const failed = error as { status?: number; response?: { data?: unknown } };
    if (typeof failed.status === 'number' && failed.response && answers.includes(failed.status)) return { status: failed.status, data: failed.response.data };
    throw error;
  }
}

function messageOf(reply: Reply): string {
  const data = reply.data as { message?: unknown } | null;
  return typeof data?.message === 'string' ? data.message : '';
}

function refused(reply: Reply): HostingFailure {
  return new HostingFailure('refused', `The hosting platform answered ${reply.status}: ${JSON.stringify(reply.data)}`, reply.status);
}

function arrayOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(what);
  return value;
}
