// Every branch update goes through here, whoever makes it (the REST API, a merge, a push from
// outside): the ref moves by compare-and-swap, then what GitHub does follows — a `push` webhook,
// pull requests on that head synchronised (or closed when it is deleted), pull requests on that
// base whose head just landed marked merged, and the listeners (the fake CI) told.
import type { CommitInfo } from './git-repository.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, PullRecord, RepositoryRecord } from './platform-model.ts';

export type MoveResult = 'moved' | 'stale' | 'not_fast_forward' | 'missing';

export interface BranchMove {
  /** the tip the caller believes the branch has (null: must not exist); unchecked when absent */
  expected?: string | null;
  /** allow a move that is not a fast-forward */
  force?: boolean;
  actor: Account;
}

const ZERO = '0'.repeat(40);

/** Moves `branch` to `sha` (null deletes it). Call under the repository's lock. */
export async function moveBranch(core: PlatformCore, repo: RepositoryRecord, branch: string, sha: string | null, move: BranchMove): Promise<MoveResult> {
  const ref = `refs/heads/${branch}`;
  const before = await repo.git.refSha(ref);
  if (move.expected !== undefined && before !== move.expected) return 'stale';
  if (sha === null && before === null) return 'missing';
  const change = sha === null ? { added: [], dropsCommits: false } : before ? await repo.git.move(before, sha) : { added: await repo.git.log([sha, '--not', '--branches']), dropsCommits: false };
  const forced = change.dropsCommits;
  if (forced && !move.force) return 'not_fast_forward';
  const landed = change.added;
  const swapped = sha === null ? await repo.git.deleteRef(ref, before!) : await repo.git.compareAndSwapRef(ref, sha, before);
  if (!swapped) return 'stale';
  core.emit('push', repo, move.actor, pushFields(core, repo, branch, before, sha, forced, landed, move.actor));
  await followHead(core, repo, branch, sha, move.actor);
  await followBase(core, repo, branch, sha, landed, move.actor);
  for (const listener of core.branchListeners) listener({ repo, branch, before, after: sha });
  return 'moved';
}

function pushFields(core: PlatformCore, repo: RepositoryRecord, branch: string, before: string | null, after: string | null, forced: boolean, landed: CommitInfo[], actor: Account) {
  const commit = (c: CommitInfo) => ({
    id: c.sha,
    tree_id: c.tree,
    message: c.message,
    timestamp: c.committer.date.toISOString(),
    author: { name: c.author.name, email: c.author.email },
    committer: { name: c.committer.name, email: c.committer.email },
    distinct: true,
  });
  const commits = landed.slice(0, 20).reverse().map(commit);
  return {
    ref: `refs/heads/${branch}`,
    before: before ?? ZERO,
    after: after ?? ZERO,
    created: before === null,
    deleted: after === null,
    forced,
    base_ref: null,
    compare: `${core.json.apiUrl()}/${repo.owner.login}/${repo.name}/compare/${(before ?? ZERO).slice(0, 12)}...${(after ?? ZERO).slice(0, 12)}`,
    commits,
    head_commit: landed[0] ? commit(landed[0]) : null,
    pusher: { name: actor.login, email: `${actor.login}@users.noreply.example` },
  };
}

async function followHead(core: PlatformCore, repo: RepositoryRecord, branch: string, sha: string | null, actor: Account): Promise<void> {
  for (const pr of openPulls(repo, (p) => p.headRef === branch)) {
    if (sha === null) {
      await closePull(core, repo, pr, actor);
    } else if (pr.headSha !== sha) {
      const before = pr.headSha;
      pr.headSha = sha;
      pr.updatedAt = core.now();
      core.emit('pull_request', repo, actor, { action: 'synchronize', number: pr.number, before, after: sha, pull_request: await core.webhookPull(repo, pr) });
    }
  }
}

async function followBase(core: PlatformCore, repo: RepositoryRecord, branch: string, sha: string | null, landed: CommitInfo[], actor: Account): Promise<void> {
  const shas = new Set(landed.map((c) => c.sha));
  for (const pr of openPulls(repo, (p) => p.baseRef === branch)) {
    if (sha === null) await closePull(core, repo, pr, actor);
    else if (shas.has(pr.headSha)) await markMerged(core, repo, pr, sha, actor);
  }
}

function openPulls(repo: RepositoryRecord, which: (pr: PullRecord) => boolean): PullRecord[] {
  return [...repo.pulls.values()].filter((pr) => pr.state === 'open' && which(pr));
}

export async function closePull(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, actor: Account): Promise<void> {
  pr.closedBaseSha = await repo.git.refSha(`refs/heads/${pr.baseRef}`);
  pr.state = 'closed';
  pr.closedAt = pr.updatedAt = core.now();
  core.emit('pull_request', repo, actor, { action: 'closed', number: pr.number, pull_request: await core.webhookPull(repo, pr) });
}

/** Records a pull request as merged into its base, now at `baseSha`. */
export async function markMerged(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, baseSha: string, actor: Account): Promise<void> {
  const now = core.now();
  Object.assign(pr, { state: 'closed', merged: true, mergedBy: actor, mergeCommitSha: baseSha, closedBaseSha: baseSha, closedAt: now, mergedAt: now, updatedAt: now });
  core.emit('pull_request', repo, actor, { action: 'closed', number: pr.number, pull_request: await core.webhookPull(repo, pr) });
}
