// The Octokit to use for a repository, from the configured credentials (DESIGN.md §10): one
// token for every repository, or a GitHub App, whose installation on each repository (or, for
// calls about an organisation such as its teams, on the organisation) is looked up once and
// whose installation tokens @octokit/auth-app creates and caches. An installation token the
// platform stops accepting (expired, revoked) is replaced once on the spot.
import type { HostingCredentials } from '../config.ts';
import { int64Of, objectOf } from './answer-fields.ts';
import { HostingFailure, toHostingFailure } from './hosting-failure.ts';
import type { RepositoryRef } from './hosting-types.ts';
import { createOctokit, type ClientTuning, type HostingOctokit } from './octokit-client.ts';

export interface RepositoryClient {
  octokit: HostingOctokit;
  /** gets a new installation token (app credentials only) */
  refresh?: () => Promise<void>;
}

/** What a call is about: a repository, or an organisation itself. */
export type CallTarget = RepositoryRef | { org: string };

export class RepositoryClients {
  private readonly tokenClient: HostingOctokit | undefined;
  private readonly appClient: HostingOctokit | undefined;
  private readonly installations = new Map<string, Promise<bigint>>();
  private readonly installationClients = new Map<bigint, HostingOctokit>();

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: HostingCredentials,
    private readonly tuning: ClientTuning = {},
  ) {
    if (credentials.kind === 'token') this.tokenClient = createOctokit(baseUrl, { token: credentials.token }, tuning);
    else this.appClient = createOctokit(baseUrl, { appId: credentials.appId, privateKey: credentials.privateKey }, tuning);
  }

  /** The GitHub App's id (its check runs are the ones this service wrote), or undefined for a token. */
  get appId(): string | undefined {
    return this.credentials.kind === 'app' ? this.credentials.appId : undefined;
  }

  async forRepository(repo: RepositoryRef): Promise<RepositoryClient> {
    return this.forTarget(repo);
  }

  async forTarget(target: CallTarget): Promise<RepositoryClient> {
    if (this.tokenClient) return { octokit: this.tokenClient };
    const installationId = await this.installationOf(target);
    let octokit = this.installationClients.get(installationId);
    if (!octokit) {
      const app = this.credentials as Extract<HostingCredentials, { kind: 'app' }>;
      octokit = createOctokit(this.baseUrl, { appId: app.appId, privateKey: app.privateKey, installationId }, this.tuning);
      this.installationClients.set(installationId, octokit);
    }
    const client = octokit;
    return { octokit: client, refresh: async () => void (await client.auth({ type: 'installation', refresh: true })) };
  }

  private installationOf(target: CallTarget): Promise<bigint> {
    const cached = this.installations.get(key(target));
    if (cached) return cached;
    const lookup = this.lookUpInstallation(target);
    this.installations.set(key(target), lookup);
    lookup.catch(() => this.installations.delete(key(target)));
    return lookup;
  }

  private async lookUpInstallation(target: CallTarget): Promise<bigint> {
    try {
      const response = 'org' in target
        ? await this.appClient!.request('GET /orgs/{org}/installation', { org: target.org })
        : await this.appClient!.request('GET /repos/{owner}/{repo}/installation', { owner: target.owner, repo: target.repo });
      return int64Of(objectOf(response.data, 'installation').id, 'installation id');
    } catch (error) {
      const failure = toHostingFailure(error);
      if (failure.kind === 'not_found') throw new HostingFailure('not_found', `The GitHub App is not installed on ${'org' in target ? target.org : `${target.owner}/${target.repo}`}.`, 404);
      throw failure;
    }
  }
}

function key(target: CallTarget): string {
  return ('org' in target ? `org:${target.org}` : `${target.owner}/${target.repo}`).toLowerCase();
}
