// Merging a pull request (merge, squash or rebase, pinned to a head sha), bringing its branch
// up to date with its base, and the mergeability GitHub reports, all on the real git history.
import { markMerged, moveBranch } from './branch-moves.ts';
import type { Signature } from './git-repository.ts';
import { land, type MergeMethod } from './merge-methods.ts';
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, PullRecord, RepositoryRecord } from './platform-model.ts';

export interface MergeRequest {
  method: MergeMethod;
  sha?: string;
  title?: string;
  message?: string;
}

/** The committer GitHub writes for commits it makes on the web. */
export function webFlow(core: PlatformCore): Signature {
  return { name: 'GitHub', email: 'noreply@github.com', date: core.now() };
}

function mergeMessage(pr: PullRecord, request: MergeRequest, commits: string[]): string {
  if (request.method === 'squash') {
    const title = request.title ?? `${pr.title} (#${pr.number})`;
    return `${title}\n\n${request.message ?? commits.map((m) => `* ${m}`).join('\n\n')}`;
  }
  const title = request.title ?? `Merge pull request #${pr.number} from ${pr.headRepo.owner.login}/${pr.headRef}`;
  return `${title}\n\n${request.message ?? pr.title}`;
}

export function mergePull(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, request: MergeRequest, actor: Account): Promise<Answer<{ sha: string }>> {
  return repo.lock(async () => {
    if (pr.state !== 'open') return refuse(405, 'Pull Request is not mergeable');
    if (pr.draft) return refuse(405, 'Pull Request is still a draft');
    if (request.sha !== undefined && request.sha.toLowerCase() !== pr.headSha) return refuse(409, 'Head branch was modified. Review and try the merge again.');
    const base = await repo.git.refSha(`refs/heads/${pr.baseRef}`);
    if (!base) return refuse(405, 'Pull Request is not mergeable');
    // Only a squash without a message of its own lists the head's commits in its message.
    const commits = request.method === 'squash' && request.message === undefined ? (await repo.git.log([pr.headSha, `^${base}`, '--reverse'])).map((c) => c.message) : [];
    const author = request.method === 'squash' ? core.signature(pr.user) : core.signature(actor);
    const landed = await land(repo.git, request.method, { base, head: pr.headSha, message: mergeMessage(pr, request, commits), author, committer: webFlow(core) });
    if (!landed) return refuse(405, request.method === 'rebase' ? 'This branch can\'t be rebased' : 'Pull Request is not mergeable');
    const moved = await moveBranch(core, repo, pr.baseRef, landed, { expected: base, actor });
    if (moved !== 'moved') return refuse(409, 'Base branch was modified. Review and try the merge again.');
    // A merge commit has the head as parent, so the push already marked the pull request merged.
    if (pr.state === 'open') await markMerged(core, repo, pr, landed, base, actor);
    return ok({ sha: landed });
  });
}

/** Merges the base into the head branch (GitHub's "Update branch"). */
export function updatePullBranch(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, expectedHeadSha: string | undefined, actor: Account): Promise<Answer<null>> {
  return repo.lock(async () => {
    if (pr.state !== 'open') return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: 'The pull request is closed.' }]);
    if (expectedHeadSha !== undefined && expectedHeadSha.toLowerCase() !== pr.headSha) return refuse(422, "expected head sha didn't match current head ref.");
    const base = await repo.git.refSha(`refs/heads/${pr.baseRef}`);
    if (!base || (await repo.git.isAncestor(base, pr.headSha))) return refuse(422, 'There are no new commits on the base branch.');
    const merged = await repo.git.mergeTrees(pr.headSha, base);
    if (!merged.clean) return refuse(422, 'merge conflict between base and head');
    const message = `Merge branch '${pr.baseRef}' into ${pr.headRef}`;
    const sha = await repo.git.commitTree(merged.tree, [pr.headSha, base], message, core.signature(actor), webFlow(core));
    // The head branch may live in a fork (maintainers may modify it): moved under the fork's lock.
    const move = () => moveBranch(core, pr.headRepo, pr.headRef, sha, { expected: pr.headSha, actor });
    const moved = await (pr.headRepo === repo ? move() : pr.headRepo.lock(move));
    if (moved !== 'moved') return refuse(422, "expected head sha didn't match current head ref.");
    return ok(null);
  });
}

/** GitHub's `mergeable` and `mergeable_state` of an open pull request. */
export async function mergeability(repo: RepositoryRecord, pr: PullRecord): Promise<{ mergeable: boolean | null; state: string }> {
  if (pr.state !== 'open') return { mergeable: null, state: 'unknown' };
  const base = await repo.git.refSha(`refs/heads/${pr.baseRef}`);
  if (!base) return { mergeable: false, state: 'dirty' };
  const clean = (await repo.git.mergeTrees(base, pr.headSha)).clean;
  if (!clean) return { mergeable: false, state: 'dirty' };
  if (pr.draft) return { mergeable: true, state: 'draft' };
  return { mergeable: true, state: (await repo.git.isAncestor(base, pr.headSha)) ? 'clean' : 'behind' };
}
