// The platform's records in GitHub's REST shapes (the fields a client reads, with GitHub's
// names and types; ids and numbers as bigint, written as JSON integers).
import type { CommitInfo } from './git-repository.ts';
import { nodeId } from './id-sequence.ts';
import { fullName, type Account, type CheckRunRecord, type CheckSuiteRecord, type CommentRecord, type Installation, type Permission, type PullRecord, type RepositoryRecord, type StatusRecord } from './platform-model.ts';

export type Json = Record<string, unknown>;

export class GithubJson {
  constructor(readonly apiUrl: () => string) {}

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
      default_branch: repo.defaultBranch,
      url: this.repoUrl(repo),
      html_url: `${this.apiUrl()}/${fullName(repo)}`,
    };
    if (permission !== undefined) json.permissions = permissionFlags(permission);
    return json;
  }

  /** `mergeable` is computed only for the single pull request read, as on GitHub. */
  pull(repo: RepositoryRecord, pr: PullRecord, baseSha: string, mergeability?: { mergeable: boolean | null; state: string }): Json {
    const side = (ref: string, sha: string) => ({ label: `${repo.owner.login}:${ref}`, ref, sha, user: this.user(repo.owner), repo: this.repository(repo) });
    const json: Json = {
      url: `${this.repoUrl(repo)}/pulls/${pr.number}`,
      id: pr.id,
      node_id: nodeId('PullRequest', pr.id),
      html_url: `${this.apiUrl()}/${fullName(repo)}/pull/${pr.number}`,
      number: pr.number,
      state: pr.state,
      locked: false,
      title: pr.title,
      user: this.user(pr.user),
      body: pr.body,
      created_at: pr.createdAt.toISOString(),
      updated_at: pr.updatedAt.toISOString(),
      closed_at: pr.closedAt?.toISOString() ?? null,
      merged_at: pr.mergedAt?.toISOString() ?? null,
      merge_commit_sha: pr.mergeCommitSha,
      draft: pr.draft,
      head: side(pr.headRef, pr.headSha),
      base: side(pr.baseRef, baseSha),
      author_association: pr.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
    };
    if (mergeability) {
      Object.assign(json, { merged: pr.merged, mergeable: mergeability.mergeable, rebaseable: mergeability.mergeable, mergeable_state: mergeability.state, merged_by: pr.mergedBy ? this.user(pr.mergedBy) : null });
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
      parents: info.parents.map((sha) => ({ sha, url: `${this.repoUrl(repo)}/commits/${sha}` })),
    };
    if (files) json.files = files.map((f) => ({ filename: f.path, status: FILE_STATUS[f.status] ?? 'modified' }));
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
      output: { ...run.output, text: null, annotations_count: 0 },
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

  /** A pull request as check runs and suites reference it. */
  pullReference(repo: RepositoryRecord, pr: PullRecord, baseSha: string): Json {
    const side = (ref: string, sha: string) => ({ ref, sha, repo: { id: repo.id, url: this.repoUrl(repo), name: repo.name } });
    return { id: pr.id, number: pr.number, url: `${this.repoUrl(repo)}/pulls/${pr.number}`, head: side(pr.headRef, pr.headSha), base: side(pr.baseRef, baseSha) };
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

  comment(repo: RepositoryRecord, comment: CommentRecord): Json {
    return {
      id: comment.id,
      node_id: nodeId('IssueComment', comment.id),
      url: `${this.repoUrl(repo)}/issues/comments/${comment.id}`,
      html_url: `${this.apiUrl()}/${fullName(repo)}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
      issue_url: `${this.repoUrl(repo)}/issues/${comment.issueNumber}`,
      body: comment.body,
      user: this.user(comment.user),
      created_at: comment.createdAt.toISOString(),
      updated_at: comment.createdAt.toISOString(),
      author_association: comment.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
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
