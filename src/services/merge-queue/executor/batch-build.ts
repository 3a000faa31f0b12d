// Builds a batch's commit and its check pull request on the platform (DESIGN §10), one platform
// call a step, as queue-driver.ts does everything: each step records what the platform answered
// before the next, and each is safe to repeat after a crash.
//
// The commit is built on a scratch ref outside the queue's branches (SCRATCH_PREFIX): every merge
// into a branch is a push, and teams run CI on pushes to `switchyard/merge-queue/**`, so building
// on the batch branch itself started one CI run per merge, all thrown away but the last. The
// batch branch is created once, at the finished commit (the one CI run the batch pays for), the
// scratch ref deleted, and the draft pull request opened on the branch.
import { markChecksStarted, removeEntry } from '../../../domain/merge-queue/index.ts';
import type { Batch, QueueEntry } from '../../../domain/merge-queue/model.ts';
import { HostingFailure } from '../../../hosting/hosting-failure.ts';
import type { HostingPlatform } from '../../../hosting/hosting-platform.ts';
import type { RepositoryRef } from '../../../hosting/hosting-types.ts';
import type { BatchRun } from '../batch-run.ts';
import type { QueueSession } from '../queue-session.ts';

/** Where batch commits are built: outside `switchyard/merge-queue/**`, where CI runs. */
export const SCRATCH_PREFIX = 'switchyard-tmp/merge-queue/';

export function scratchBranch(baseRef: string, batchId: string, attempt: number): string {
  return `${SCRATCH_PREFIX}${baseRef}/${batchId}${attempt > 0 ? `-retry-${attempt}` : ''}`;
}

/** A branch and check pull request left on the platform by a run, to remove. */
export interface Leftover {
  branch: string;
  checkPull: string | null;
}

export interface BuildContext {
  platform: HostingPlatform;
  repo: RepositoryRef;
  baseRef: string;
  /** A change under the queue's lock (QueueDriver.session); null when the queue is gone. */
  session<T>(fn: (session: QueueSession) => Promise<T>, pull?: bigint): Promise<T | null>;
  removeFromPlatform(left: Leftover): Promise<void>;
}

export class BatchBuild {
  constructor(private readonly ctx: BuildContext) {}

  /**
   * One step of preparing a batch on a branch of the queue's; false when preparing is over
   * (checks started, or the batch left). `closure`: the entries its commit must hold, in order.
   */
  async step(batch: Batch, run: BatchRun, closure: QueueEntry[]): Promise<boolean> {
    const stale = run.stale ?? [];
    if (stale.length > 0) {
      await this.ctx.removeFromPlatform(stale[0]!);
      return this.saveRun(batch, { ...run, stale: stale.slice(1) });
    }
    if (run.baseSha === null) return this.begin(batch, run);
    // A run of an older version has no scratch ref: it is built on its branch, published as it goes.
    const onBranch = run.scratch === undefined;
    const next = onBranch || !run.published ? closure.find((entry) => !run.merged.includes(entry.id)) : undefined;
    if (next) return this.mergeHead(batch, run, next);
    if (!onBranch && !run.published) return this.publish(batch, run);
    if (run.scratch) {
      await this.ctx.platform.deleteBranch(this.ctx.repo, run.scratch);
      return this.saveRun(batch, { ...run, scratch: null });
    }
    if (run.checkPull === null) return this.openCheckPull(batch, run, closure);
    await this.ctx.session(async (s) => s.apply(markChecksStarted(s.state, batch.id, s.now)));
    return false;
  }

  /** The ref the commit is built on, at the base's head (a ref left by a crash is reset). */
  private async begin(batch: Batch, run: BatchRun): Promise<boolean> {
    const { platform, repo, baseRef } = this.ctx;
    const base = await platform.branchHead(repo, baseRef);
    if (base === null) throw new HostingFailure('not_found', `The base branch ${baseRef} does not exist.`);
    const ref = run.scratch ?? run.branch;
    const created = await platform.createBranch(repo, ref, base);
    if (created.kind === 'exists') await platform.moveBranch(repo, ref, base, { force: true });
    return this.saveRun(batch, { ...run, baseSha: base, headSha: base, merged: [] });
  }

  private async mergeHead(batch: Batch, run: BatchRun, next: QueueEntry): Promise<boolean> {
    const { platform, repo } = this.ctx;
    const ref = run.scratch ?? run.branch;
    const merge = await platform.mergeIntoBranch(repo, { base: ref, head: next.headSha, message: `Merge #${next.number} into the merge-queue batch ${batch.name}` });
    if (merge.kind === 'conflict') return this.conflict(next, run);
    // Nothing to merge: the head is in the ref already, perhaps merged by a process killed
    // before it recorded the merge. The ref's head is then that merge, not the one recorded.
    const headSha = merge.kind === 'merged' ? merge.sha : ((await platform.branchHead(repo, ref)) ?? run.headSha);
    return this.saveRun(batch, { ...run, merged: [...run.merged, next.id], headSha });
  }

  /**
   * The batch branch created at the finished commit: the one push CI sees. Found existing (a
   * crash after creating it), it is moved only if it is elsewhere, since a move is a push too.
   */
  private async publish(batch: Batch, run: BatchRun): Promise<boolean> {
    const { platform, repo } = this.ctx;
    const head = run.headSha as string;
    const created = await platform.createBranch(repo, run.branch, head);
    if (created.kind === 'exists' && (await platform.branchHead(repo, run.branch)) !== head) await platform.moveBranch(repo, run.branch, head, { force: true });
    return this.saveRun(batch, { ...run, published: true });
  }

  private async openCheckPull(batch: Batch, run: BatchRun, closure: QueueEntry[]): Promise<boolean> {
    try {
      const pull = await this.ctx.platform.createPullRequest(this.ctx.repo, { title: `Merge queue: ${batch.name}`, head: run.branch, base: this.ctx.baseRef, draft: true, body: checkPullBody(batch, closure) });
      return this.saveRun(batch, { ...run, checkPull: { number: pull.number.toString(), inPlace: false } });
    } catch (error) {
      if (!(error instanceof HostingFailure) || error.kind !== 'refused') throw error;
      await this.checksNotStarted(batch, error.message);
      return false;
    }
  }

  private async saveRun(batch: Batch, run: BatchRun): Promise<boolean> {
    const saved = await this.ctx.session(async (s) => {
      if (!s.batches.has(batch.id)) return false;
      await s.setRun(batch.id, run);
      return s.state.batches.some((b) => b.id === batch.id && b.phase === 'preparing');
    });
    return saved === true;
  }

  /** A head that does not merge: alone with the base, or with what is ahead of it. */
  private async conflict(entry: QueueEntry, run: BatchRun): Promise<boolean> {
    const pull = await this.ctx.platform.pullRequest(this.ctx.repo, entry.number);
    const code = pull?.mergeable === false || run.merged.length === 0 ? 'CONFLICT_WITH_BASE_BRANCH' : 'CONFLICT_WITH_PULL_AHEAD';
    await this.ctx.session(async (s) => s.apply(removeEntry(s.state, entry.id, code, s.now)));
    return false;
  }

  /** The draft pull request cannot be created: the batch's entries leave (checks_not_started). */
  private async checksNotStarted(batch: Batch, reason: string): Promise<void> {
    await this.ctx.session(async (s) => {
      const entries = s.state.entries.filter((e) => batch.entryIds.includes(e.id));
      await s.record(
        entries.map((entry) => ({
          type: 'action.queue.checks_not_started' as const,
          trigger: s.trigger,
          pull_request: entry.number,
          base_ref: this.ctx.baseRef,
          received_at: new Date(s.now).toISOString(),
          metadata: { branch: this.ctx.baseRef, priority_rule_name: entry.priorityRuleName, queue_name: entry.queueRule, queued_at: new Date(entry.enteredAt).toISOString(), reason: `The draft pull request could not be created: ${reason}`, session_id: entry.id, attempt: 1 },
        })),
      );
      for (const entry of entries) await s.apply(removeEntry(s.state, entry.id, 'DRAFT_PULL_REQUEST_CREATION_FAILED', s.now));
    });
  }
}

/** What a run leaves on the platform: its scratch ref while not deleted, and its branch and check pull request (none in place). */
export function leftoversOf(run: BatchRun): Leftover[] {
  return [...(run.scratch ? [{ branch: run.scratch, checkPull: null }] : []), ...(run.inPlace ? [] : [{ branch: run.branch, checkPull: run.checkPull?.number ?? null }])];
}

function checkPullBody(batch: Batch, closure: QueueEntry[]): string {
  const own = new Set(batch.entryIds);
  const lines = closure.map((entry) => `- #${entry.number}${own.has(entry.id) ? '' : ' (ahead in the queue)'}`);
  return `Switchyard checks these pull requests together before merging them:\n\n${lines.join('\n')}\n\nThis draft pull request is closed when the batch is done; do not merge it.`;
}
