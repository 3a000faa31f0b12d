// Labels, milestones and locks of pull requests, each change with the `pull_request` webhook
// GitHub sends (labeled/unlabeled with the `label`, milestoned/demilestoned, locked/unlocked).
// Labels are made on the fly when a pull request is given one the repository does not have.
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, LabelRecord, MilestoneRecord, PullRecord, RepositoryRecord } from './platform-model.ts';

/** The repository's label of that name (names compare without case), made if it has none. */
export function labelNamed(core: PlatformCore, repo: RepositoryRecord, name: string): LabelRecord {
  const key = name.toLowerCase();
  let label = repo.labels.get(key);
  if (!label) {
    label = { id: core.ids.next(), name, color: 'ededed', description: null, default: false };
    repo.labels.set(key, label);
  }
  return label;
}

async function emit(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, actor: Account, action: string, fields: Record<string, unknown> = {}): Promise<void> {
  pr.updatedAt = core.now();
  core.emit('pull_request', repo, actor, { action, number: pr.number, ...fields, pull_request: await core.webhookPull(repo, pr) });
}

export function validLabelNames(names: unknown): names is string[] {
  return Array.isArray(names) && names.every((n) => typeof n === 'string' && n.trim() !== '');
}

/** Adds labels (`replace`: the pull request ends with exactly these). */
export function addLabels(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, names: string[], actor: Account, replace = false): Promise<Answer<LabelRecord[]>> {
  return repo.lock(async () => {
    const wanted = names.map((name) => labelNamed(core, repo, name.trim()));
    if (replace) {
      for (const label of pr.labels.filter((l) => !wanted.includes(l))) {
        pr.labels.splice(pr.labels.indexOf(label), 1);
        await emit(core, repo, pr, actor, 'unlabeled', { label: core.pullJsons.label(repo, label) });
      }
    }
    for (const label of wanted) {
      if (pr.labels.includes(label)) continue;
      pr.labels.push(label);
      await emit(core, repo, pr, actor, 'labeled', { label: core.pullJsons.label(repo, label) });
    }
    return ok(pr.labels);
  });
}

export function removeLabel(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, name: string, actor: Account): Promise<Answer<LabelRecord[]>> {
  return repo.lock(async () => {
    const label = pr.labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
    if (!label) return refuse(404, 'Label does not exist');
    pr.labels.splice(pr.labels.indexOf(label), 1);
    await emit(core, repo, pr, actor, 'unlabeled', { label: core.pullJsons.label(repo, label) });
    return ok(pr.labels);
  });
}

/** Sets the milestone by title (made if the repository has none of that title), or clears it with null. */
export function setMilestone(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, title: string | null, actor: Account): Promise<void> {
  return repo.lock(async () => {
    let milestone: MilestoneRecord | null = null;
    if (title !== null) {
      milestone = [...repo.milestones.values()].find((m) => m.title === title) ?? null;
      if (!milestone) {
        milestone = { id: core.ids.next(), number: BigInt(repo.milestones.size + 1), title, state: 'open', creator: actor, createdAt: core.now() };
        repo.milestones.set(milestone.number, milestone);
      }
    }
    const previous = pr.milestone;
    if (previous === milestone) return;
    pr.milestone = milestone;
    if (milestone) await emit(core, repo, pr, actor, 'milestoned', { milestone: core.pullJsons.milestone(repo, milestone) });
    else await emit(core, repo, pr, actor, 'demilestoned', { milestone: core.pullJsons.milestone(repo, previous!) });
  });
}

export function setLocked(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, locked: boolean, actor: Account): Promise<Answer<null>> {
  return repo.lock(async () => {
    if (pr.locked === locked) return ok(null);
    pr.locked = locked;
    await emit(core, repo, pr, actor, locked ? 'locked' : 'unlocked');
    return ok(null);
  });
}
