// A repository's settings an admin changes: its default branch (an existing branch), with the
// `repository` edited webhook GitHub sends.
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, RepositoryRecord } from './platform-model.ts';

export async function setDefaultBranch(core: PlatformCore, repo: RepositoryRecord, branch: string, actor: Account): Promise<Answer<null>> {
  if (branch === repo.defaultBranch) return ok(null);
  if (!(await repo.git.refSha(`refs/heads/${branch}`))) {
    return refuse(422, 'Validation Failed', [{ resource: 'Repository', code: 'invalid', field: 'default_branch', message: `Cannot update default branch for this repository to ${branch}: branch not found` }]);
  }
  const from = repo.defaultBranch;
  repo.defaultBranch = branch;
  core.emit('repository', repo, actor, { action: 'edited', changes: { default_branch: { from } } });
  return ok(null);
}
