// The platform's records in GitHub's REST shapes (the fields a client reads, with GitHub's
// names and types; ids and numbers as bigint, written as JSON integers).
import type { CommitInfo } from './git-repository.ts';
import { nodeId } from './id-sequence.ts';
import { fullName, type Account, type CheckRunRecord, type CheckSuiteRecord, type Installation, type Permission, type RepositoryRecord, type StatusRecord } from './platform-model.ts';

export type Json = Record<string, unknown>;

/** One file of a comparison (a pull request's files, a compare), from the real diff. */
export interface DiffFile {
  path: string;
  status: 'added' | 'modified' | 'removed' | 'renamed';
  previousPath?: string;
  /** the file's blob after the change (the old one for a removed file) */
  blob: string;
  additions: number;
  deletions: number;
}

export class GithubJson {
  constructor(
    readonly apiUrl: () => string,
    /** the account a commit's e-mail address belongs to, as GitHub links authors */
    private readonly accountByEmail: (email: string) => Account | undefined = () => undefined,
  ) {}

  private repoUrl(repo: RepositoryRecord): string {
    return `${this.apiUrl()}/repos/${fullName(repo)}`;
  }

  user(account: Account): Json {
    return {
      login: account.login,
      id: account.id,
      node_id: nodeId('User', account.id),
      type: account.type,
      site_admin: false,
      url: `${this.apiUrl()}/users/${account.login}`,
      html_url: `${this.apiUrl()}/${account.login}`,
    };
  }

  repository(repo: RepositoryRecord, permission?: Permission | 'none'): Json {
    const json: Json = {
      id: repo.id,
      node_id: nodeId('Repository', repo.id),
      name: repo.name,
      full_name: fullName(repo),
      private: repo.private,
      owner: this.user(repo.owner),
      html_url: `${this.apiUrl()}/${fullName(repo)}`,
      description: null,
      fork: repo.parent !== null,
      url: this.repoUrl(repo),
      created_at: repo.createdAt.toISOString(),
      visibility: repo.private ? 'private' : 'public',
      archived: false,
      disabled: false,
      default_branch: repo.defaultBranch,
    };
    if (permission !== undefined) json.permissions = permissionFlags(permission);
    return json;
  }

  /** A single repository read: a fork names its parent and the root of its network. */
  fullRepository(repo: RepositoryRecord, permission: Permission | 'none'): Json {
    const json = this.repository(repo, permission);
    if (repo.parent) {
      let source = repo.parent;
      while (source.parent) source = source.parent;
      Object.assign(json, { parent: this.repository(repo.parent), source: this.repository(source) });
    }
    return json;
  }

  commit(repo: RepositoryRecord, info: CommitInfo, files?: { status: string; path: string }[]): Json {
    const person = (who: CommitInfo['author']) => ({ name: who.name, email: who.email, date: who.date.toISOString() });
    const json: Json = {
      sha: info.sha,
      node_id: nodeId('Commit', BigInt(`0x${info.sha.slice(0, 12)}`)),
      url: `${this.repoUrl(repo)}/commits/${info.sha}`,
      html_url: `${this.apiUrl()}/${fullName(repo)}/commit/${info.sha}`,
      commit: { message: info.message, tree: { sha: info.tree, url: `${this.repoUrl(repo)}/git/trees/${info.tree}` }, author: person(info.author), committer: person(info.committer) },
      author: this.linkedUser(info.author.email),
      committer: this.linkedUser(info.committer.email),
      parents: info.parents.map((sha) => ({ sha, url: `${this.repoUrl(repo)}/commits/${sha}` })),
    };
    if (files) json.files = files.map((f) => ({ filename: f.path, status: FILE_STATUS[f.status] ?? 'modified' }));
    return json;
  }

  /** The platform user behind a commit's e-mail address, or null (GitHub's `author`/`committer`). */
  linkedUser(email: string): Json | null {
    const account = this.accountByEmail(email);
    return account ? this.user(account) : null;
  }

  diffFile(repo: RepositoryRecord, ref: string, file: DiffFile): Json {
    const web = `${this.apiUrl()}/${fullName(repo)}`;
    const json: Json = {
      sha: file.blob,
      filename: file.path,
      status: file.status,
      additions: file.additions,
      deletions: file.deletions,
      changes: file.additions + file.deletions,
      blob_url: `${web}/blob/${ref}/${file.path}`,
      raw_url: `${web}/raw/${ref}/${file.path}`,
      contents_url: `${this.repoUrl(repo)}/contents/${file.path}?ref=${ref}`,
    };
    if (file.previousPath !== undefined) json.previous_filename = file.previousPath;
    return json;
  }

  ref(repo: RepositoryRecord, branch: string, sha: string): Json {
    return {
      ref: `refs/heads/${branch}`,
      node_id: nodeId('Ref', BigInt(repo.id)),
      url: `${this.repoUrl(repo)}/git/refs/heads/${branch}`,
      object: { sha, type: 'commit', url: `${this.repoUrl(repo)}/git/commits/${sha}` },
    };
  }

  checkRun(repo: RepositoryRecord, run: CheckRunRecord, pulls: Json[]): Json {
    return {
      id: run.id,
      node_id: nodeId('CheckRun', run.id),
      head_sha: run.headSha,
      external_id: run.externalId,
      url: `${this.repoUrl(repo)}/check-runs/${run.id}`,
      html_url: `${this.apiUrl()}/${fullName(repo)}/runs/${run.id}`,
      details_url: run.detailsUrl,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.startedAt.toISOString(),
      completed_at: run.completedAt?.toISOString() ?? null,
      output: { ...run.output, annotations_count: 0, annotations_url: `${this.repoUrl(repo)}/check-runs/${run.id}/annotations` },
      name: run.name,
      check_suite: { id: run.suiteId },
      app: this.app(run.app),
      pull_requests: pulls,
    };
  }

  checkSuite(repo: RepositoryRecord, suite: CheckSuiteRecord, status: string, conclusion: string | null, pulls: Json[]): Json {
    return {
      id: suite.id,
      node_id: nodeId('CheckSuite', suite.id),
      head_branch: suite.headBranch,
      head_sha: suite.headSha,
      status,
      conclusion,
      url: `${this.repoUrl(repo)}/check-suites/${suite.id}`,
      app: this.app(suite.app),
      pull_requests: pulls,
      created_at: suite.createdAt.toISOString(),
    };
  }

  status(repo: RepositoryRecord, status: StatusRecord): Json {
    return {
      url: `${this.repoUrl(repo)}/statuses/${status.sha}`,
      id: status.id,
      node_id: nodeId('StatusContext', status.id),
      state: status.state,
      description: status.description,
      target_url: status.targetUrl,
      context: status.context,
      created_at: status.createdAt.toISOString(),
      updated_at: status.createdAt.toISOString(),
      creator: this.user(status.creator),
    };
  }

  app(app: CheckRunRecord['app']): Json {
    return { id: app.id, slug: app.slug, node_id: nodeId('App', app.id), name: app.slug, owner: this.user(app.owner) };
  }

  installation(installation: Installation): Json {
    return {
      id: installation.id,
      account: this.user(installation.account),
      app_id: installation.app.id,
      app_slug: installation.app.slug,
      target_type: installation.account.type,
      repository_selection: installation.repositories === 'all' ? 'all' : 'selected',
      access_tokens_url: `${this.apiUrl()}/app/installations/${installation.id}/access_tokens`,
      permissions: { contents: 'write', pull_requests: 'write', checks: 'write', statuses: 'write', issues: 'write', metadata: 'read' },
    };
  }
}

const FILE_STATUS: Record<string, string> = { A: 'added', D: 'removed', M: 'modified', T: 'changed' };

export function permissionFlags(permission: Permission | 'none'): Record<string, boolean> {
  const at = (level: Permission) => ['read', 'triage', 'write', 'maintain', 'admin'].indexOf(permission) >= ['read', 'triage', 'write', 'maintain', 'admin'].indexOf(level);
  return { admin: at('admin'), maintain: at('maintain'), push: at('write'), triage: at('triage'), pull: at('read') };
}
