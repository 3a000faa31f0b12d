// The programmatic side of the fake platform a test sets its scene with: repositories and forks,
// pushes, pull requests, and what people do on them (comments, labels, assignees, review
// requests, reviews, milestones, locks), each through the same operations as the REST API, so
// the same webhooks go out. FakePlatform (fake-platform.ts) adds the server, the CI and faults.
import { moveBranch } from './branch-moves.ts';
import { addComment, deleteComment, editComment } from './comments.ts';
import type { FileChanges } from './git-repository.ts';
import { valueOf } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, PullRecord, RepositoryRecord, ReviewRecord, TeamRecord } from './platform-model.ts';
import { addLabels, removeLabel, setLocked, setMilestone } from './pull-labels.ts';
import { editPull, openPull, setDraft } from './pull-lifecycle.ts';
import { addAssignees, removeAssignees, removeReviewRequests, requestReviews } from './pull-people.ts';
import type { NewRepository } from './repositories.ts';
import { setDefaultBranch } from './repository-settings.ts';
import { dismissReview, submitReview, type ReviewEvent } from './reviews.ts';

export interface PushSpec {
  /** "owner/name" */
  repo: string;
  branch: string;
  changes: FileChanges;
  message?: string;
  /** login of the author and pusher (default: the repository's owner, or "octocat") */
  author?: string;
  /** where a new branch starts (default: the default branch's tip) */
  from?: string;
  /** replace the branch's history instead of adding to it */
  force?: boolean;
}

export interface PullSpec {
  repo: string;
  changes: FileChanges;
  title?: string;
  body?: string;
  branch?: string;
  base?: string;
  /** login of the author (default: the fork's owner, else as for a push) */
  author?: string;
  draft?: boolean;
  /** "owner/name" of a fork of `repo` (made if missing) holding the head branch */
  fork?: string;
}

export interface OpenedPull {
  number: bigint;
  branch: string;
  headSha: string;
}

export abstract class PlatformScene {
  private pullBranches = 0;

  constructor(readonly core: PlatformCore) {}

  async createRepository(spec: Omit<NewRepository, 'owner'> & { owner: string }): Promise<RepositoryRecord> {
    const owner = this.core.accounts.find(spec.owner) ?? this.core.accounts.create(spec.owner, 'User');
    return this.core.repos.create({ ...spec, owner });
  }

  /** A fork of `repo` as "owner/name" (the owner made a user if unknown); it shares the parent's objects. */
  async fork(repo: string, fork: string): Promise<RepositoryRecord> {
    const [owner = '', name = ''] = fork.split('/');
    const account = this.core.accounts.find(owner) ?? this.core.accounts.create(owner, 'User');
    return this.core.repos.fork(this.repo(repo), account, name || this.repo(repo).name);
  }

  repo(fullName: string): RepositoryRecord {
    const [owner = '', name = ''] = fullName.split('/');
    const repo = this.core.repos.find(owner, name);
    if (!repo) throw new Error(`no repository ${fullName}`);
    return repo;
  }

  /** Sets the default branch (an existing one), as an admin would in the settings. */
  async setDefaultBranch(repo: string, branch: string, actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await setDefaultBranch(this.core, record, branch, this.author(record, actor)));
  }

  /** Commits `changes` on top of `branch` (created from `from` or the default branch) and pushes: a push from outside. */
  async push(spec: PushSpec): Promise<string> {
    const repo = this.repo(spec.repo);
    const author = this.author(repo, spec.author);
    // The commit is written outside the repository's lock (pushes to many branches write in
    // parallel); the ref then moves only if the branch has not moved meanwhile, else again.
    for (;;) {
      const tip = await repo.git.refSha(`refs/heads/${spec.branch}`);
      const parent = spec.force || !tip ? await repo.git.resolve(spec.from ?? repo.defaultBranch) : tip;
      const sha = await repo.git.writeCommit({ parent, changes: spec.changes, message: spec.message ?? `Change ${Object.keys(spec.changes).join(', ')}`, author: this.core.signature(author) });
      const moved = await repo.lock(() => moveBranch(this.core, repo, spec.branch, sha, { expected: tip, force: spec.force, actor: author }));
      if (moved === 'moved') return sha;
      if (moved !== 'stale') throw new Error(`push to ${spec.branch} refused: ${moved}`);
    }
  }

  /** A branch with one commit of `changes` on the base (in `fork` when given), and a pull request from it. */
  async openPullRequest(spec: PullSpec): Promise<OpenedPull> {
    const repo = this.repo(spec.repo);
    const base = spec.base ?? repo.defaultBranch;
    const branch = spec.branch ?? `feature-${++this.pullBranches}`;
    const headRepo = spec.fork ? await this.forkNamed(spec.repo, spec.fork) : repo;
    const login = spec.author ?? (spec.fork ? headRepo.owner.login : undefined);
    const from = (await repo.git.refSha(`refs/heads/${base}`)) ?? base;
    const headSha = await this.push({ repo: `${headRepo.owner.login}/${headRepo.name}`, branch, changes: spec.changes, author: login, from, message: spec.title });
    const head = headRepo === repo ? branch : `${headRepo.owner.login}:${branch}`;
    const opened = { title: spec.title ?? `Change ${branch}`, body: spec.body, head, base, draft: spec.draft, user: this.author(repo, login) };
    const pr = valueOf(await openPull(this.core, repo, opened));
    return { number: pr.number, branch, headSha };
  }

  private async forkNamed(repo: string, fork: string): Promise<RepositoryRecord> {
    const [owner = '', name = ''] = fork.split('/');
    return this.core.repos.find(owner, name) ?? this.fork(repo, fork);
  }

  pullRequest(repo: string, number: bigint): PullRecord {
    const pr = this.repo(repo).pulls.get(number);
    if (!pr) throw new Error(`no pull request ${repo}#${number}`);
    return pr;
  }

  async setDraft(repo: string, number: bigint, draft: boolean, actor?: string): Promise<void> {
    const record = this.repo(repo);
    await setDraft(this.core, record, this.pullRequest(repo, number), draft, this.author(record, actor));
  }

  async closePullRequest(repo: string, number: bigint, actor?: string): Promise<void> {
    await this.editPullRequest(repo, number, { state: 'closed' }, actor);
  }

  async changeBase(repo: string, number: bigint, base: string, actor?: string): Promise<void> {
    await this.editPullRequest(repo, number, { base }, actor);
  }

  /** Edits title, body, state or base: one `edited` webhook with every field changed. */
  async editPullRequest(repo: string, number: bigint, edit: { title?: string; body?: string; state?: 'open' | 'closed'; base?: string }, actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await editPull(this.core, record, this.pullRequest(repo, number), edit, this.author(record, actor)));
  }

  /** A comment by `login`; its id. */
  comment(repo: string, number: bigint, login: string, body: string): bigint {
    return valueOf(addComment(this.core, this.repo(repo), number, body, this.core.accounts.get(login))).id;
  }

  editComment(repo: string, id: bigint, login: string, body: string): void {
    valueOf(editComment(this.core, this.repo(repo), id, body, { kind: 'user', account: this.core.accounts.get(login) }));
  }

  deleteComment(repo: string, id: bigint, login: string): void {
    valueOf(deleteComment(this.core, this.repo(repo), id, { kind: 'user', account: this.core.accounts.get(login) }));
  }

  async addLabels(repo: string, number: bigint, labels: string[], actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await addLabels(this.core, record, this.pullRequest(repo, number), labels, this.author(record, actor)));
  }

  async removeLabel(repo: string, number: bigint, label: string, actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await removeLabel(this.core, record, this.pullRequest(repo, number), label, this.author(record, actor)));
  }

  async assign(repo: string, number: bigint, logins: string[], actor?: string): Promise<void> {
    const record = this.repo(repo);
    await addAssignees(this.core, record, this.pullRequest(repo, number), logins, this.author(record, actor));
  }

  async unassign(repo: string, number: bigint, logins: string[], actor?: string): Promise<void> {
    const record = this.repo(repo);
    await removeAssignees(this.core, record, this.pullRequest(repo, number), logins, this.author(record, actor));
  }

  /** Asks users (logins) and teams (slugs of the owner organisation's teams) to review. */
  async requestReviews(repo: string, number: bigint, request: { reviewers?: string[]; teams?: string[] }, actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await requestReviews(this.core, record, this.pullRequest(repo, number), { reviewers: request.reviewers ?? [], teams: request.teams ?? [] }, this.author(record, actor)));
  }

  async removeReviewRequests(repo: string, number: bigint, request: { reviewers?: string[]; teams?: string[] }, actor?: string): Promise<void> {
    const record = this.repo(repo);
    await removeReviewRequests(this.core, record, this.pullRequest(repo, number), { reviewers: request.reviewers ?? [], teams: request.teams ?? [] }, this.author(record, actor));
  }

  /** A review by `login` of the current head (or `commitId`). */
  async review(repo: string, number: bigint, login: string, event: ReviewEvent, body?: string, commitId?: string): Promise<ReviewRecord> {
    return valueOf(await submitReview(this.core, this.repo(repo), this.pullRequest(repo, number), { event, body, commitId }, this.core.accounts.get(login)));
  }

  async dismissReview(repo: string, number: bigint, reviewId: bigint, message: string, actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await dismissReview(this.core, record, this.pullRequest(repo, number), reviewId, message, this.author(record, actor)));
  }

  /** Sets the milestone by title (made when the repository has none of that title); null clears it. */
  async setMilestone(repo: string, number: bigint, title: string | null, actor?: string): Promise<void> {
    const record = this.repo(repo);
    await setMilestone(this.core, record, this.pullRequest(repo, number), title, this.author(record, actor));
  }

  async lock(repo: string, number: bigint, locked: boolean, actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await setLocked(this.core, record, this.pullRequest(repo, number), locked, this.author(record, actor)));
  }

  /** A team of an organisation with these members (logins of existing users, made members of the organisation). */
  createTeam(organisation: string, name: string, members: string[] = []): TeamRecord {
    return this.core.teams.create(this.core.accounts.get(organisation), name, members.map((login) => this.core.accounts.get(login)));
  }

  protected author(repo: RepositoryRecord, login: string | undefined): Account {
    if (login) return this.core.accounts.get(login);
    return repo.owner.type === 'User' ? repo.owner : this.defaultAuthor();
  }

  protected defaultAuthor(): Account {
    return this.core.accounts.find('octocat') ?? this.core.accounts.create('octocat', 'User');
  }
}
