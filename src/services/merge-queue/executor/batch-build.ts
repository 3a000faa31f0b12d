// Builds a batch's commit and its check pull request on the platform (DESIGN §10), one platform
// call a step, as queue-driver.ts does everything: each step records what the platform answered
// before the next, and each is safe to repeat after a crash.
//
// The commit is built on a scratch ref outside the queue's branches (SCRATCH_PREFIX): every merge
// into a branch is a push, and teams run CI on pushes to `switchyard/merge-queue/**`, so building
// on the batch branch itself started one CI run per merge, all thrown away but the last. The
// batch branch is created once, at the finished commit (the one CI run the batch pays for), the
// scratch ref deleted, and the draft pull request opened on the branch. It starts from a parent
// batch's commit when there is one (batch-closure.ts), so it merges only its own pull requests.
import { markChecksStarted, removeEntry } from '../../../domain/merge-queue/index.ts';
import type { Batch, QueueEntry } from '../../../domain/merge-queue/model.ts';
import { HostingFailure } from '../../../hosting/hosting-failure.ts';
import type { HostingPlatform } from '../../../hosting/hosting-platform.ts';
import type { RepositoryRef } from '../../../hosting/hosting-types.ts';
import type { BatchRun, BuiltCommit, Leftover } from '../batch-run.ts';
import type { QueueSession } from '../queue-session.ts';
import type { BuildStart } from './batch-closure.ts';

/** Where batch commits are built: outside `switchyard/merge-queue/**`, where CI runs. */
export const SCRATCH_PREFIX = 'switchyard-tmp/merge-queue/';

const FROM_BASE: BuildStart = { from: null, merges: [] };

export function scratchBranch(baseRef: string, batchId: string, attempt: number): string {
  return `${SCRATCH_PREFIX}${baseRef}/${batchId}${attempt > 0 ? `-retry-${attempt}` : ''}`;
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
  async step(batch: Batch, run: BatchRun, closure: QueueEntry[], start: BuildStart): Promise<boolean> {
    const stale = run.stale ?? [];
    if (stale.length > 0) {
      await this.ctx.removeFromPlatform(stale[0]!);
      return this.saveRun(batch, { ...run, stale: stale.slice(1) });
    }
    // A run of an older version has no scratch ref: it is built on its branch, published as it goes.
    const onBranch = run.scratch === undefined;
    if (run.baseSha === null) return this.begin(batch, run, onBranch || run.fromBase ? FROM_BASE : start);
    const merges = run.merges ?? [];
    if (merges.length > 0) return this.mergeCommit(batch, run, merges[0]!);
    const next = onBranch || !run.published ? closure.find((entry) => !run.merged.includes(entry.id)) : undefined;
    if (next) return this.mergeHead(batch, run, next, closure);
    if (!onBranch && !run.published) return this.publish(batch, run);
    if (run.scratch) {
      await this.ctx.platform.deleteBranch(this.ctx.repo, run.scratch);
      return this.saveRun(batch, { ...run, scratch: null });
    }
    if (run.checkPull === null) return this.openCheckPull(batch, run, closure);
    await this.ctx.session(async (s) => s.apply(markChecksStarted(s.state, batch.id, s.now)));
    return false;
  }

  /**
   * The ref the commit is built on, at a parent's commit or the base's head (a ref left by a
   * crash is reset). The start is decided here and recorded, so a restart follows it.
   */
  private async begin(batch: Batch, run: BatchRun, start: BuildStart): Promise<boolean> {
    if (start === 'wait') return false;
    const { platform, repo, baseRef } = this.ctx;
    const from = start.from?.sha ?? (await platform.branchHead(repo, baseRef));
    if (from === null) throw new HostingFailure('not_found', `The base branch ${baseRef} does not exist.`);
    const ref = run.scratch ?? run.branch;
    const created = await platform.createBranch(repo, ref, from);
    if (created.kind === 'exists') await platform.moveBranch(repo, ref, from, { force: true });
    return this.saveRun(batch, { ...run, baseSha: from, headSha: from, merged: [...(start.from?.entryIds ?? [])], merges: start.merges });
  }

  /**
   * Another parent's commit merged in. One that does not merge is a conflict between pull
   * requests ahead: the build starts again from the base, head by head, to find which one.
   */
  private async mergeCommit(batch: Batch, run: BatchRun, commit: BuiltCommit): Promise<boolean> {
    const merge = await this.merge(batch, run, commit.sha, `Merge ${commit.sha.slice(0, 12)} (pull requests ahead) into the merge-queue batch ${batch.name}`);
    if (merge === 'conflict') return this.saveRun(batch, { ...run, baseSha: null, merged: [], merges: [], fromBase: true });
    const merged = [...run.merged, ...commit.entryIds.filter((id) => !run.merged.includes(id))];
    return this.saveRun(batch, { ...run, merged, merges: (run.merges ?? []).slice(1), headSha: merge });
  }

  private async mergeHead(batch: Batch, run: BatchRun, next: QueueEntry, closure: QueueEntry[]): Promise<boolean> {
    const merge = await this.merge(batch, run, next.headSha, `Merge #${next.number} into the merge-queue batch ${batch.name}`);
    if (merge === 'conflict') return this.conflict(next, run, closure);
    return this.saveRun(batch, { ...run, merged: [...run.merged, next.id], headSha: merge });
  }

  /** Merges `head` into the ref being built: its new head, or 'conflict'. */
  private async merge(batch: Batch, run: BatchRun, head: string, message: string): Promise<string | 'conflict'> {
    const { platform, repo } = this.ctx;
    const ref = run.scratch ?? run.branch;
    const merge = await platform.mergeIntoBranch(repo, { base: ref, head, message });
    if (merge.kind === 'conflict') return 'conflict';
    // Nothing to merge: the head is in the ref already, perhaps merged by a process killed
    // before it recorded the merge. The ref's head is then that merge, not the one recorded.
    return merge.kind === 'merged' ? merge.sha : ((await platform.branchHead(repo, ref)) ?? (run.headSha as string));
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

  /** A head that does not merge: alone with the base, or with what is ahead of it (still queued). */
  private async conflict(entry: QueueEntry, run: BatchRun, closure: QueueEntry[]): Promise<boolean> {
    const pull = await this.ctx.platform.pullRequest(this.ctx.repo, entry.number);
    const ahead = closure.some((e) => e.id !== entry.id && run.merged.includes(e.id));
    const code = pull?.mergeable === false || !ahead ? 'CONFLICT_WITH_BASE_BRANCH' : 'CONFLICT_WITH_PULL_AHEAD';
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
  const scratch = run.scratch ? [{ branch: run.scratch, checkPull: null, unsure: run.baseSha === null }] : [];
  // Built on a scratch ref, the branch exists once published; a run of an older version made it first.
  const branchUnsure = run.scratch === undefined ? run.baseSha === null : run.published !== true;
  return [...scratch, ...(run.inPlace ? [] : [{ branch: run.branch, checkPull: run.checkPull?.number ?? null, unsure: branchUnsure }])];
}

function checkPullBody(batch: Batch, closure: QueueEntry[]): string {
  const own = new Set(batch.entryIds);
  const lines = closure.map((entry) => `- #${entry.number}${own.has(entry.id) ? '' : ' (ahead in the queue)'}`);
  return `Switchyard checks these pull requests together before merging them:\n\n${lines.join('\n')}\n\nThis draft pull request is closed when the batch is done; do not merge it.`;
}
