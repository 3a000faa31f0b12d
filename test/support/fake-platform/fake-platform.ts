// A GitHub-compatible hosting platform for tests and benchmarks, on loopback, backed by real git
// repositories: its REST API (platform-server.ts and routes/), its webhooks, a fake CI, faults
// on demand, and the programmatic side a test uses to set the scene and check what landed.
// README.md beside this file shows how to use it.
import { FakeCi } from './fake-ci.ts';
import { Faults } from './faults.ts';
import type { CommitInfo } from './git-repository.ts';
import { Router, type RouteResult } from './http-router.ts';
import { PlatformCore } from './platform-core.ts';
import type { Account, FakeApp, Installation, Membership, Permission } from './platform-model.ts';
import { PlatformScene } from './platform-scene.ts';
import { PlatformServer, type LoggedRequest, type RawRequest } from './platform-server.ts';
import { checkRoutes } from './routes/check-routes.ts';
import { gitRoutes } from './routes/git-routes.ts';
import { identityRoutes } from './routes/identity-routes.ts';
import { issueRoutes } from './routes/issue-routes.ts';
import { pullRoutes } from './routes/pull-routes.ts';
import { repositoryRoutes } from './routes/repository-routes.ts';
import { reviewRoutes } from './routes/review-routes.ts';
import { teamRoutes } from './routes/team-routes.ts';
import type { WebhookSubscription } from './webhook-sender.ts';

export type { OpenedPull, PullSpec, PushSpec } from './platform-scene.ts';

export interface FakePlatformOptions {
  /** first platform id (users, repositories, check runs…); above 2^53 to test exactness */
  firstId?: bigint;
  now?: () => Date;
}

export class FakePlatform extends PlatformScene {
  readonly faults = new Faults();
  readonly ci: FakeCi;
  /** lifetime of installation tokens issued from now on */
  installationTokenTtlMs = 3600_000;
  private readonly server: PlatformServer;

  constructor(options: FakePlatformOptions = {}) {
    // The core renders URLs with the server's address, known only once the server exists.
    let url = () => '';
    super(new PlatformCore(options.firstId ?? 1000n, options.now ?? (() => new Date()), () => url()));
    url = () => this.url;
    const router = new Router();
    checkRoutes(router);
    identityRoutes(router, { installationTokenTtlMs: () => this.installationTokenTtlMs });
    repositoryRoutes(router);
    teamRoutes(router);
    reviewRoutes(router);
    pullRoutes(router);
    issueRoutes(router);
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

  /** A token acting as the installation, as POST /app/installations/{id}/access_tokens gives one. */
  installationToken(installation: Installation): string {
    return this.core.accounts.issueInstallationToken(installation, this.installationTokenTtlMs).token;
  }

  // What landed

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
}
