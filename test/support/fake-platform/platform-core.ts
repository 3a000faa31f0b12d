// What every part of the fake platform shares: its registries, its clock, the JSON renderer,
// the webhook sender, and the listeners told of every branch move (the fake CI is one).
import { Accounts } from './accounts.ts';
import { AppRegistry } from './app-registry.ts';
import { diffStats } from './git-diff.ts';
import { GithubJson, type Json } from './github-json.ts';
import { IdSequence } from './id-sequence.ts';
import type { Account, PullRecord, RepositoryRecord } from './platform-model.ts';
import { PullJson } from './pull-json.ts';
import { Repositories } from './repositories.ts';
import { Teams } from './teams.ts';
import { WebhookSender } from './webhook-sender.ts';

export interface BranchMoved {
  repo: RepositoryRecord;
  branch: string;
  before: string | null;
  after: string | null;
}

export class PlatformCore {
  readonly ids: IdSequence;
  readonly accounts: Accounts;
  readonly apps: AppRegistry;
  readonly repos: Repositories;
  readonly teams: Teams;
  readonly webhooks = new WebhookSender();
  readonly json: GithubJson;
  readonly pullJsons: PullJson;
  readonly branchListeners: ((move: BranchMoved) => void)[] = [];

  constructor(
    firstId: bigint,
    readonly now: () => Date,
    apiUrl: () => string,
  ) {
    this.ids = new IdSequence(firstId);
    this.accounts = new Accounts(this.ids, now);
    this.apps = new AppRegistry(this.accounts, this.ids, now);
    this.repos = new Repositories(this.accounts, this.ids, now);
    this.teams = new Teams(this.accounts, this.ids);
    this.json = new GithubJson(apiUrl, (email) => this.accounts.byEmail(email));
    this.pullJsons = new PullJson(this.json);
  }

  /** Sends `event` about `repo`, with the `repository` and `sender` GitHub adds to every payload. */
  emit(event: string, repo: RepositoryRecord, sender: Account, fields: Json): void {
    this.webhooks.send(event, { ...fields, repository: this.json.repository(repo), sender: this.json.user(sender) });
  }

  /** The base branch's tip as a pull request shows it: the current one while open. */
  async baseSha(repo: RepositoryRecord, pr: PullRecord): Promise<string> {
    if (pr.state === 'closed' && pr.closedBaseSha) return pr.closedBaseSha;
    return (await repo.git.refSha(`refs/heads/${pr.baseRef}`)) ?? pr.closedBaseSha ?? pr.headSha;
  }

  /** What a pull request's changes are compared with: its base, or where it landed once merged. */
  async diffBase(repo: RepositoryRecord, pr: PullRecord): Promise<string> {
    return pr.merged && pr.landedOnto ? pr.landedOnto : this.baseSha(repo, pr);
  }

  /** A pull request as lists carry it, or with `mergeability` as a single read carries it (totals included). */
  async pullJson(repo: RepositoryRecord, pr: PullRecord, mergeability?: { mergeable: boolean | null; state: string }): Promise<Json> {
    const baseSha = await this.baseSha(repo, pr);
    if (!mergeability) return this.pullJsons.pull(repo, pr, baseSha);
    const stats = await diffStats(repo.git, await this.diffBase(repo, pr), pr.headSha);
    return this.pullJsons.pull(repo, pr, baseSha, { ...mergeability, stats });
  }

  /** A pull request as webhooks carry it: `merged` and totals included, mergeability not yet computed. */
  webhookPull(repo: RepositoryRecord, pr: PullRecord): Promise<Json> {
    return this.pullJson(repo, pr, { mergeable: null, state: 'unknown' });
  }

  /** Open pull requests of `repo` whose head is `sha`, as check runs list them (GitHub leaves out those from forks). */
  async pullsAt(repo: RepositoryRecord, sha: string): Promise<Json[]> {
    const pulls = [...repo.pulls.values()].filter((pr) => pr.state === 'open' && pr.headSha === sha && pr.headRepo === repo);
    return Promise.all(pulls.map(async (pr) => this.pullJsons.pullReference(repo, pr, await this.baseSha(repo, pr))));
  }

  signature(account: Account, date = this.now()) {
    return { name: account.login, email: `${account.id}+${account.login}@users.noreply.example`, date };
  }
}
