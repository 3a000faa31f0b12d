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

export function openPull(core: PlatformCore, repo: RepositoryRecord, spec: NewPull): Promise<Answer<PullRecord>> {
  return repo.lock(async () => {
    const head = spec.head.includes(':') ? spec.head.slice(spec.head.indexOf(':') + 1) : spec.head;
    const headSha = await repo.git.refSha(`refs/heads/${head}`);
    const baseSha = await repo.git.refSha(`refs/heads/${spec.base}`);
    if (!headSha) return invalid('head');
    if (!baseSha) return invalid('base');
    const existing = [...repo.pulls.values()].find((p) => p.state === 'open' && p.headRef === head && p.baseRef === spec.base);
    if (existing) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${repo.owner.login}:${head}.` }]);
    if (await repo.git.isAncestor(headSha, baseSha)) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: `No commits between ${spec.base} and ${head}` }]);
    const now = core.now();
    const pr: PullRecord = {
      id: core.ids.next(),
      number: repo.nextNumber++,
      title: spec.title,
      body: spec.body ?? '',
      user: spec.user,
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
    if (edit.base !== undefined && edit.base !== pr.baseRef) {
      if (pr.state === 'closed') return refuse(422, 'Cannot change the base branch of a closed pull request.');
      const baseSha = await repo.git.refSha(`refs/heads/${edit.base}`);
      if (!baseSha) return invalid('base');
      const from = { ref: pr.baseRef, sha: await core.baseSha(repo, pr) };
      pr.baseRef = edit.base;
      await edited(core, repo, pr, actor, { base: { ref: { from: from.ref }, sha: { from: from.sha } } });
    }
    if (edit.title !== undefined && edit.title !== pr.title) {
      const from = pr.title;
      pr.title = edit.title;
      await edited(core, repo, pr, actor, { title: { from } });
    }
    if (edit.body !== undefined && edit.body !== pr.body) {
      const from = pr.body;
      pr.body = edit.body;
      await edited(core, repo, pr, actor, { body: { from } });
    }
    if (edit.state === 'closed' && pr.state === 'open') await closePull(core, repo, pr, actor);
    if (edit.state === 'open' && pr.state === 'closed') {
      if (pr.merged) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: 'state cannot be changed. The pull request cannot be reopened.' }]);
      const headSha = await repo.git.refSha(`refs/heads/${pr.headRef}`);
      if (!headSha) return refuse(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: 'state cannot be changed. The head branch was deleted.' }]);
      Object.assign(pr, { state: 'open', headSha, closedAt: null, closedBaseSha: null, updatedAt: core.now() });
      core.emit('pull_request', repo, actor, { action: 'reopened', number: pr.number, pull_request: await core.webhookPull(repo, pr) });
    }
    return ok(pr);
  });
}

async function edited(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, actor: Account, changes: Record<string, unknown>): Promise<void> {
  pr.updatedAt = core.now();
  core.emit('pull_request', repo, actor, { action: 'edited', number: pr.number, changes, pull_request: await core.webhookPull(repo, pr) });
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
