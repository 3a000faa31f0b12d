// Opening, editing, closing, reopening and drafting pull requests, with GitHub's refusals and
// the `pull_request` webhook of each change.
import { closePull } from './branch-moves.ts';
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, PullRecord, RepositoryRecord } from './platform-model.ts';

export interface NewPull {
  title: string;
  body?: string;
  head: string;
  base: string;
  draft?: boolean;
  user: Account;
}

function invalid(field: string): Answer<never> {
  return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', field, code: 'invalid' }]);
}

/** The repository and branch `head` names: `branch`, or `owner:branch` for the fork `owner` made. */
function headOf(core: PlatformCore, repo: RepositoryRecord, head: string): { headRepo: RepositoryRecord | undefined; branch: string } {
  const colon = head.indexOf(':');
  if (colon < 0) return { headRepo: repo, branch: head };
  const owner = head.slice(0, colon).toLowerCase();
  const headRepo = owner === repo.owner.login.toLowerCase() ? repo : core.repos.forksOf(repo).find((fork) => fork.owner.login.toLowerCase() === owner);
  return { headRepo, branch: head.slice(colon + 1) };
}

export function openPull(core: PlatformCore, repo: RepositoryRecord, spec: NewPull): Promise<Answer<PullRecord>> {
  return repo.lock(async () => {
    const { headRepo, branch: head } = headOf(core, repo, spec.head);
    const headSha = headRepo && (await headRepo.git.refSha(`refs/heads/${head}`));
    const baseSha = await repo.git.refSha(`refs/heads/${spec.base}`);
    if (!headRepo || !headSha) return invalid('head');
    if (!baseSha) return invalid('base');
    const existing = [...repo.pulls.values()].find((p) => p.state === 'open' && p.headRepo === headRepo && p.headRef === head && p.baseRef === spec.base);
    if (existing) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${headRepo.owner.login}:${head}.` }]);
    if (await repo.git.isAncestor(headSha, baseSha)) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: `No commits between ${spec.base} and ${head}` }]);
    const now = core.now();
    const pr: PullRecord = {
      id: core.ids.next(),
      number: repo.nextNumber++,
      title: spec.title,
      body: spec.body ?? '',
      user: spec.user,
      headRepo,
      headRef: head,
      headSha,
      baseRef: spec.base,
      closedBaseSha: null,
      state: 'open',
      draft: spec.draft ?? false,
      merged: false,
      mergedBy: null,
      mergeCommitSha: null,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      mergedAt: null,
      landedOnto: null,
      labels: [],
      assignees: [],
      requestedReviewers: [],
      requestedTeams: [],
      milestone: null,
      locked: false,
      reviews: [],
    };
    repo.pulls.set(pr.number, pr);
    core.emit('pull_request', repo, spec.user, { action: 'opened', number: pr.number, pull_request: await core.webhookPull(repo, pr) });
    return ok(pr);
  });
}

export interface PullEdit {
  title?: string;
  body?: string;
  state?: 'open' | 'closed';
  base?: string;
}

export function editPull(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, edit: PullEdit, actor: Account): Promise<Answer<PullRecord>> {
  return repo.lock(async () => {
    // One `edited` webhook carries every field the request changed, each with its old value.
    const changes: Record<string, unknown> = {};
    if (edit.base !== undefined && edit.base !== pr.baseRef) {
      if (pr.state === 'closed') return refuse(422, 'Cannot change the base branch of a closed pull request.');
      const baseSha = await repo.git.refSha(`refs/heads/${edit.base}`);
      if (!baseSha) return invalid('base');
      changes.base = { ref: { from: pr.baseRef }, sha: { from: await core.baseSha(repo, pr) } };
      pr.baseRef = edit.base;
    }
    if (edit.title !== undefined && edit.title !== pr.title) {
      changes.title = { from: pr.title };
      pr.title = edit.title;
    }
    if (edit.body !== undefined && edit.body !== pr.body) {
      changes.body = { from: pr.body };
      pr.body = edit.body;
    }
    if (Object.keys(changes).length > 0) {
      pr.updatedAt = core.now();
      core.emit('pull_request', repo, actor, { action: 'edited', number: pr.number, changes, pull_request: await core.webhookPull(repo, pr) });
    }
    if (edit.state === 'closed' && pr.state === 'open') await closePull(core, repo, pr, actor);
    if (edit.state === 'open' && pr.state === 'closed') {
      if (pr.merged) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: 'state cannot be changed. The pull request cannot be reopened.' }]);
      const headSha = await pr.headRepo.git.refSha(`refs/heads/${pr.headRef}`);
      if (!headSha) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: 'state cannot be changed. The head branch was deleted.' }]);
      Object.assign(pr, { state: 'open', headSha, closedAt: null, closedBaseSha: null, updatedAt: core.now() });
      core.emit('pull_request', repo, actor, { action: 'reopened', number: pr.number, pull_request: await core.webhookPull(repo, pr) });
    }
    return ok(pr);
  });
}

/** Draft ↔ ready for review (GitHub does this through GraphQL; here a programmatic call). */
export function setDraft(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, draft: boolean, actor: Account): Promise<void> {
  return repo.lock(async () => {
    if (pr.draft === draft || pr.state !== 'open') return;
    pr.draft = draft;
    pr.updatedAt = core.now();
    core.emit('pull_request', repo, actor, { action: draft ? 'converted_to_draft' : 'ready_for_review', number: pr.number, pull_request: await core.webhookPull(repo, pr) });
  });
}
