// Every branch update goes through here, whoever makes it (the REST API, a merge, a push from
// outside): the ref moves by compare-and-swap, then what GitHub does follows — a `push` webhook,
// pull requests on that head synchronised (or closed when it is deleted), pull requests on that
// base whose head just landed marked merged, and the listeners (the fake CI) told.
import { commitChanges } from './git-diff.ts';
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
  core.emit('push', repo, move.actor, await pushFields(core, repo, branch, before, sha, forced, landed, move.actor));
  await followHead(core, repo, branch, sha, move.actor);
  await followBase(core, repo, branch, before, sha, landed, move.actor);
  for (const listener of core.branchListeners) listener({ repo, branch, before, after: sha });
  return 'moved';
}

async function pushFields(core: PlatformCore, repo: RepositoryRecord, branch: string, before: string | null, after: string | null, forced: boolean, landed: CommitInfo[], actor: Account) {
  const shown = landed.slice(0, 20);
  const head = after === null ? null : (landed[0] ?? (await repo.git.commitInfo(after)));
  const changes = await commitChanges(repo.git, [...new Set([...shown, ...(head ? [head] : [])].map((c) => c.sha))]);
  const person = (who: CommitInfo['author']) => ({ name: who.name, email: who.email, ...usernameOf(core, who.email) });
  const commit = (c: CommitInfo) => ({
    id: c.sha,
    tree_id: c.tree,
    distinct: landed.includes(c),
    message: c.message,
    timestamp: c.committer.date.toISOString(),
    url: `${core.json.apiUrl()}/${repo.owner.login}/${repo.name}/commit/${c.sha}`,
    author: person(c.author),
    committer: person(c.committer),
    ...(changes.get(c.sha) ?? { added: [], removed: [], modified: [] }),
  });
  return {
    ref: `refs/heads/${branch}`,
    before: before ?? ZERO,
    after: after ?? ZERO,
    created: before === null,
    deleted: after === null,
    forced,
    base_ref: null,
    compare: `${core.json.apiUrl()}/${repo.owner.login}/${repo.name}/compare/${(before ?? ZERO).slice(0, 12)}...${(after ?? ZERO).slice(0, 12)}`,
    commits: shown.reverse().map(commit),
    head_commit: head ? commit(head) : null,
    pusher: { name: actor.login, email: `${actor.login}@users.noreply.example` },
  };
}

function usernameOf(core: PlatformCore, email: string): { username?: string } {
  const login = core.json.linkedUser(email)?.login;
  return typeof login === 'string' ? { username: login } : {};
}

/** Every open pull request whose head is `branch` of `repo`: in it, or in the repositories it forks. */
function pullsWithHead(repo: RepositoryRecord, branch: string): { base: RepositoryRecord; pr: PullRecord }[] {
  const found: { base: RepositoryRecord; pr: PullRecord }[] = [];
  for (let base: RepositoryRecord | null = repo; base; base = base.parent) {
    for (const pr of openPulls(base, (p) => p.headRepo === repo && p.headRef === branch)) found.push({ base, pr });
  }
  return found;
}

async function followHead(core: PlatformCore, repo: RepositoryRecord, branch: string, sha: string | null, actor: Account): Promise<void> {
  for (const { base, pr } of pullsWithHead(repo, branch)) {
    if (sha === null) {
      await closePull(core, base, pr, actor);
    } else if (pr.headSha !== sha) {
      const before = pr.headSha;
      pr.headSha = sha;
      pr.updatedAt = core.now();
      core.emit('pull_request', base, actor, { action: 'synchronize', number: pr.number, before, after: sha, pull_request: await core.webhookPull(base, pr) });
    }
  }
}

async function followBase(core: PlatformCore, repo: RepositoryRecord, branch: string, before: string | null, sha: string | null, landed: CommitInfo[], actor: Account): Promise<void> {
  const shas = new Set(landed.map((c) => c.sha));
  for (const pr of openPulls(repo, (p) => p.baseRef === branch)) {
    if (sha === null) await closePull(core, repo, pr, actor);
    else if (shas.has(pr.headSha)) await markMerged(core, repo, pr, sha, before ?? sha, actor);
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

/** Records a pull request as merged into its base, now at `baseSha` and before at `landedOnto`. */
export async function markMerged(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, baseSha: string, landedOnto: string, actor: Account): Promise<void> {
  const now = core.now();
  Object.assign(pr, { state: 'closed', merged: true, mergedBy: actor, mergeCommitSha: baseSha, closedBaseSha: baseSha, landedOnto, closedAt: now, mergedAt: now, updatedAt: now });
  core.emit('pull_request', repo, actor, { action: 'closed', number: pr.number, pull_request: await core.webhookPull(repo, pr) });
}
