// A GitHub-compatible hosting platform for tests and benchmarks, on loopback, backed by real git
// repositories: its REST API (platform-server.ts and routes/), its webhooks, a fake CI, faults
// on demand, and the programmatic side a test uses to set the scene and check what landed.
// README.md beside this file shows how to use it.
import { moveBranch } from './branch-moves.ts';
import { addComment } from './comments.ts';
import { FakeCi } from './fake-ci.ts';
import { Faults } from './faults.ts';
import type { CommitInfo, FileChanges } from './git-repository.ts';
import { Router, type RouteResult } from './http-router.ts';
import { valueOf } from './platform-answer.ts';
import { PlatformCore } from './platform-core.ts';
import type { Account, FakeApp, Installation, Membership, Permission, PullRecord, RepositoryRecord } from './platform-model.ts';
import { PlatformServer, type LoggedRequest, type RawRequest } from './platform-server.ts';
import { editPull, openPull, setDraft } from './pull-lifecycle.ts';
import type { NewRepository } from './repositories.ts';
import { checkRoutes } from './routes/check-routes.ts';
import { gitRoutes } from './routes/git-routes.ts';
import { identityRoutes } from './routes/identity-routes.ts';
import { pullRoutes } from './routes/pull-routes.ts';
import type { WebhookSubscription } from './webhook-sender.ts';

export interface FakePlatformOptions {
  /** first platform id (users, repositories, check runs…); above 2^53 to test exactness */
  firstId?: bigint;
  now?: () => Date;
}

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
  branch?: string;
  base?: string;
  author?: string;
  draft?: boolean;
}

export interface OpenedPull {
  number: bigint;
  branch: string;
  headSha: string;
}

export class FakePlatform {
  readonly core: PlatformCore;
  readonly faults = new Faults();
  readonly ci: FakeCi;
  /** lifetime of installation tokens issued from now on */
  installationTokenTtlMs = 3600_000;
  private readonly server: PlatformServer;
  private pullBranches = 0;

  constructor(options: FakePlatformOptions = {}) {
    this.core = new PlatformCore(options.firstId ?? 1000n, options.now ?? (() => new Date()), () => this.url);
    const router = new Router();
    checkRoutes(router);
    identityRoutes(router, { installationTokenTtlMs: () => this.installationTokenTtlMs });
    pullRoutes(router);
    gitRoutes(router);
    this.server = new PlatformServer(this.core, router, this.faults, (request) => this.answerBeforeRouting(request));
    this.ci = new FakeCi(this.core, () => this.core.apps.create('fake-ci', this.core.accounts.create('fake-ci-owner', 'Organization'), true));
  }

  get url(): string {
    return this.server.url;
  }

  async start(port = 0): Promise<this> {
    await this.server.listen(port);
    return this;
  }

  async stop(): Promise<void> {
    this.ci.stop();
    await this.server.close();
    await this.core.webhooks.settled();
    await this.core.repos.dispose();
  }

  /** Lets a subclass answer some requests itself (the legacy token fake does). */
  protected answerBeforeRouting(_request: RawRequest): RouteResult | undefined {
    return undefined;
  }

  // Accounts and rights

  /** A user and a personal token for it (`token` if given). */
  createUser(login: string, options: { id?: bigint; token?: string } = {}): { user: Account; token: string } {
    const user = this.core.accounts.create(login, 'User', options.id);
    return { user, token: this.core.accounts.issueToken(user, options.token) };
  }

  createOrganization(login: string, options: { id?: bigint } = {}): Account {
    return this.core.accounts.create(login, 'Organization', options.id);
  }

  setMembership(organisation: string, login: string, membership: Membership = { role: 'member', state: 'active' }): void {
    this.core.accounts.setMembership(organisation, login, membership);
  }

  grant(repo: string, login: string, permission: Permission): void {
    this.repo(repo).collaborators.set(login.toLowerCase(), permission);
  }

  /** A GitHub App: its id and private key (PEM) are what a client authenticates with. */
  createApp(slug: string, owner?: string): FakeApp {
    return this.core.apps.create(slug, owner ? this.core.accounts.get(owner) : this.defaultAuthor());
  }

  installApp(app: FakeApp, account: string, repositories: 'all' | string[] = 'all'): Installation {
    return this.core.apps.install(app, this.core.accounts.get(account), repositories);
  }

  // Repositories and their content

  async createRepository(spec: Omit<NewRepository, 'owner'> & { owner: string }): Promise<RepositoryRecord> {
    const owner = this.core.accounts.find(spec.owner) ?? this.core.accounts.create(spec.owner, 'User');
    return this.core.repos.create({ ...spec, owner });
  }

  repo(fullName: string): RepositoryRecord {
    const [owner = '', name = ''] = fullName.split('/');
    const repo = this.core.repos.find(owner, name);
    if (!repo) throw new Error(`no repository ${fullName}`);
    return repo;
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

  /** A branch with one commit of `changes` on the base, and a pull request from it. */
  async openPullRequest(spec: PullSpec): Promise<OpenedPull> {
    const repo = this.repo(spec.repo);
    const base = spec.base ?? repo.defaultBranch;
    const branch = spec.branch ?? `feature-${++this.pullBranches}`;
    const headSha = await this.push({ repo: spec.repo, branch, changes: spec.changes, author: spec.author, from: base, message: spec.title });
    const user = this.author(repo, spec.author);
    const pr = valueOf(await openPull(this.core, repo, { title: spec.title ?? `Change ${branch}`, head: branch, base, draft: spec.draft, user }));
    return { number: pr.number, branch, headSha };
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
    const record = this.repo(repo);
    valueOf(await editPull(this.core, record, this.pullRequest(repo, number), { state: 'closed' }, this.author(record, actor)));
  }

  async changeBase(repo: string, number: bigint, base: string, actor?: string): Promise<void> {
    const record = this.repo(repo);
    valueOf(await editPull(this.core, record, this.pullRequest(repo, number), { base }, this.author(record, actor)));
  }

  comment(repo: string, number: bigint, login: string, body: string): void {
    valueOf(addComment(this.core, this.repo(repo), number, body, this.core.accounts.get(login)));
  }

  async branchSha(repo: string, branch: string): Promise<string | null> {
    return this.repo(repo).git.refSha(`refs/heads/${branch}`);
  }

  /** The commits of a branch, newest first (only the first-parent line when asked). */
  async history(repo: string, branch: string, options: { firstParent?: boolean } = {}): Promise<CommitInfo[]> {
    const sha = await this.branchSha(repo, branch);
    if (!sha) throw new Error(`no branch ${branch} in ${repo}`);
    return this.repo(repo).git.log([sha, ...(options.firstParent ? ['--first-parent'] : [])]);
  }

  /** Every file of a commit or branch with its content. */
  async files(repo: string, ref: string): Promise<Map<string, string>> {
    const sha = await this.repo(repo).git.resolve(ref);
    if (!sha) throw new Error(`no commit ${ref} in ${repo}`);
    return this.repo(repo).git.readFiles(sha);
  }

  // Webhooks and what was asked

  /** Sends every webhook to `url` signed with `secret`; as `app`, only for repositories it is installed on, with `installation`. */
  subscribe(subscription: Omit<WebhookSubscription, 'decorate'> & { app?: FakeApp }): void {
    const app = subscription.app;
    const decorate = app ? (payload: Record<string, unknown>) => this.withInstallation(app, payload) : undefined;
    this.core.webhooks.subscribe({ url: subscription.url, secret: subscription.secret, events: subscription.events, decorate });
  }

  get webhooks() {
    return this.core.webhooks;
  }

  /** Every REST request received, in order. */
  get requestLog(): readonly LoggedRequest[] {
    return this.server.log;
  }

  /** The requests that asked for a change (any method but GET and HEAD). */
  mutations(): LoggedRequest[] {
    return this.server.log.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
  }

  private withInstallation(app: FakeApp, payload: Record<string, unknown>): Record<string, unknown> | null {
    const full = (payload.repository as { full_name?: string } | undefined)?.full_name;
    const repo = full ? this.core.repos.find(full.split('/')[0]!, full.split('/')[1]!) : undefined;
    const installation = repo && this.core.apps.installationOn(repo, app);
    return installation ? { ...payload, installation: { id: installation.id, node_id: Buffer.from(`Installation:${installation.id}`).toString('base64url') } } : null;
  }

  private author(repo: RepositoryRecord, login: string | undefined): Account {
    if (login) return this.core.accounts.get(login);
    return repo.owner.type === 'User' ? repo.owner : this.defaultAuthor();
  }

  private defaultAuthor(): Account {
    return this.core.accounts.find('octocat') ?? this.core.accounts.create('octocat', 'User');
  }
}
