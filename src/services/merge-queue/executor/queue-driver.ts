// Drives one queue on the hosting platform (DESIGN §10), one idempotent step at a time. Every
// step reads the queue's state afresh under its lock, does at most one platform action outside
// any transaction, and records what the platform answered under the lock again before the next
// step: a process killed anywhere resumes from the rows, repeating at most the one action, and
// each action is safe to repeat (a branch that exists is reset, a head merged twice merges
// nothing, a pull request opened twice is found, a merge is pinned to the head that was checked).
// A batch is built on a branch of the queue's by batch-build.ts, or checked in place
// (in-place-checks.ts) on the pull request itself.
import { applyBatchResult, baseMovedOutside, mergeBatch, removeEntry, resetQueue, startBatches } from '../../../domain/merge-queue/index.ts';
import { checksInPlace, queueRule } from '../../../domain/merge-queue/queue-rule.ts';
import { viewStoredBatches } from '../../../domain/merge-queue/stored-batches.ts';
import type { Batch, QueueEntry } from '../../../domain/merge-queue/model.ts';
import type { HostingPlatform } from '../../../hosting/hosting-platform.ts';
import { HostingFailure } from '../../../hosting/hosting-failure.ts';
import type { RepositoryRef } from '../../../hosting/hosting-types.ts';
import type { RepositoryIdentity } from '../../../storage/queries/repositories.ts';
import type { Store } from '../../../storage/store.ts';
import { newBatchRun, newInPlaceRun, type BatchRun, type Leftover } from '../batch-run.ts';
import { readHeadUpdate, type HeadUpdate } from '../head-update.ts';
import { QueueSession } from '../queue-session.ts';
import { TRIGGERS } from '../queue-signals.ts';
import { BatchBuild, leftoversOf, scratchBranch } from './batch-build.ts';
import { judgeChecks } from './batch-checks.ts';
import { buildStart, closureEntries } from './batch-closure.ts';
import { InPlaceChecks } from './in-place-checks.ts';

export const QUEUE_BRANCH_PREFIX = 'switchyard/merge-queue/';

export interface DriverDeps {
  store: Store;
  platform: HostingPlatform;
  clock: () => number;
  /** How often a running batch's checks are read when no webhook said they changed. */
  pollMs: number;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

/** What one cycle found to do, read under the lock and acted on after it. */
interface Work {
  preparing: string[];
  running: string[];
  toMerge: string[];
  cleanup: string[];
  /** The queue's own head updates no preparing batch follows (its batch was aborted meanwhile). */
  headUpdates: { entry: QueueEntry; update: HeadUpdate }[];
}

export function batchBranch(baseRef: string, batchId: string, attempt: number): string {
  return `${QUEUE_BRANCH_PREFIX}${baseRef}/${batchId}${attempt > 0 ? `-retry-${attempt}` : ''}`;
}

export class QueueDriver {
  private readonly polledAt = new Map<string, number>();
  private readonly repo: RepositoryRef;
  private readonly inPlace: InPlaceChecks;
  private readonly build: BatchBuild;

  constructor(
    private readonly deps: DriverDeps,
    private readonly repository: RepositoryIdentity,
    private readonly queueId: string,
    private readonly baseRef: string,
  ) {
    this.repo = { owner: repository.owner, repo: repository.name };
    this.inPlace = new InPlaceChecks({ platform: deps.platform, repo: this.repo, baseRef, clock: deps.clock, session: (fn, pull) => this.session(fn, pull) });
    this.build = new BatchBuild({ platform: deps.platform, repo: this.repo, baseRef, session: (fn, pull) => this.session(fn, pull), removeFromPlatform: (left) => this.removeFromPlatform(left) });
  }

  /** Checks every running batch at the next cycle (a webhook said checks changed). */
  pollNow(): void {
    this.polledAt.clear();
  }

  /** One pass over the queue: the base, the plan's bookkeeping, then each batch's next steps. */
  async cycle(renew: () => Promise<boolean>): Promise<void> {
    await this.watchBase();
    const work = await this.bookkeeping();
    if (!work) return;
    // A merge the platform keeps failing must not stop the rest of the cycle; its error ends the
    // cycle afterwards, so the executor backs off.
    let failure: unknown;
    for (const id of work.toMerge) if (await renew()) await this.merge(id, renew).catch((error: unknown) => (failure ??= error));
    for (const { entry, update } of work.headUpdates) {
      const key = `update:${entry.id}`;
      if (!this.due(key) || !(await renew())) continue;
      if (await this.inPlace.readUpdate(entry, update)) this.polledAt.delete(key);
      else if (update.askedAt === null) {
        // Recorded, never asked (its batch ended first), and the head has not moved: forgotten,
        // so the pull request's pushes count as pushes again.
        await this.session(async (s) => {
          const stored = readHeadUpdate(await s.store.mergeQueues.headUpdateOf(entry.id, s.trx));
          if (stored?.from === update.from && stored.askedAt === null) await s.store.mergeQueues.setHeadUpdate(s.trx, entry.id, null);
        }, entry.number);
        this.polledAt.delete(key);
      }
    }
    for (const id of work.running) if (await renew()) await this.poll(id);
    // Preparing a batch is many platform writes, paced by the client: verdicts are read and
    // merges done first, and batches past the cycle's budget wait for the next cycle, so a deep
    // plan being prepared cannot keep a passed batch from merging for minutes.
    const started = performance.now();
    for (const id of work.preparing) {
      if (performance.now() - started > this.deps.pollMs) break;
      if (await renew()) await this.prepare(id, renew);
    }
    for (const id of work.cleanup) if (await renew()) await this.cleanUp(id, renew);
    if (failure !== undefined) throw failure;
  }

  /**
   * One change under the queue's lock. `pull`: the pull request's lock is taken first, as the
   * webhooks that change it take it before the queue's, so what they recorded of it is read here.
   */
  private session<T>(fn: (session: QueueSession) => Promise<T>, pull?: bigint): Promise<T | null> {
    const { store, clock } = this.deps;
    return store.db.transaction().execute(async (trx) => {
      if (pull !== undefined) await store.pullRequests.lock(trx, this.repository.id, pull);
      const queue = await store.mergeQueues.lock(trx, this.queueId);
      if (!queue) return null;
      const session = await QueueSession.load(store, trx, this.repository, queue, { trigger: TRIGGERS.executor, now: clock() });
      const result = await fn(session);
      await session.finish();
      return result;
    });
  }

  /** A push to the base from outside the queue resets it (reset_on_external_merge). */
  private async watchBase(): Promise<void> {
    const head = await this.deps.platform.branchHead(this.repo, this.baseRef);
    if (head === null) return;
    const merging = await this.session(async (s) => {
      if (s.queue.baseSha === head) return [];
      if (s.queue.baseSha !== null) {
        const ours = unrecordedMerges(s, head);
        if (ours === 'ours' || ours.length > 0) return ours;
      }
      await this.baseMoved(s, head);
      return [];
    });
    if (merging === null || (Array.isArray(merging) && merging.length === 0)) return;
    // The base moved while a passed batch was merging: by a merge of ours whose answer was lost
    // (a process killed before recording it), which merge() records, or from outside.
    if (merging === 'ours') return;
    for (const number of merging) if ((await this.deps.platform.pullRequest(this.repo, number))?.merged) return;
    await this.session(async (s) => {
      if (s.queue.baseSha !== head && s.queue.baseSha !== null) await this.baseMoved(s, head);
    });
  }

  private async baseMoved(s: QueueSession, head: string): Promise<void> {
    if (s.queue.baseSha !== null) {
      this.deps.log.info({ queue: this.queueId, from: s.queue.baseSha, to: head }, 'merge queue: the base moved outside the queue');
      await s.apply(baseMovedOutside(s.state, s.now));
    }
    await s.store.mergeQueues.setBaseSha(s.trx, s.queue.id, head);
  }

  private async bookkeeping(): Promise<Work | null> {
    return this.session(async (s) => {
      for (const id of s.plan().toTimeOut) await s.apply(applyBatchResult(s.state, id, { kind: 'timed_out' }, s.now));
      const plan = s.plan();
      if (plan.toStart.length > 0) await s.apply(startBatches(s.state, plan, s.now));
      for (const batch of s.state.batches) {
        const run = s.runOf(batch.id);
        if (batch.phase === 'preparing' && (!run || run.attempt !== batch.retries)) {
          await s.setRun(batch.id, { ...this.newRun(s, batch), stale: staleOf(run) });
        }
        if (batch.phase === 'passed') await this.countFreeze(s, batch.id);
      }
      const cleanup = (await s.store.mergeQueues.uncleanedBatches(s.queue.id, s.trx)).map((b) => b.id);
      return {
        // Parents first: a batch's commit starts from its parent's, built before it (batch-closure.ts).
        preparing: viewStoredBatches(s.state.batches).ordered.filter((b) => b.phase === 'preparing').map((b) => b.id),
        running: s.state.batches.filter((b) => b.phase === 'running').map((b) => b.id),
        toMerge: [...s.plan().toMerge],
        cleanup,
        headUpdates: await this.unfollowedUpdates(s),
      };
    });
  }

  /**
   * A first check attempt of a batch of one pull request, when the queue checks one batch at a
   * time, is in place; retries run on a draft pull request: CI runs again on its new branch,
   * where the pull request's unchanged head would only show the same checks again.
   */
  private newRun(s: QueueSession, batch: Batch): BatchRun {
    const inPlace = batch.retries === 0 && batch.entryIds.length === 1 && checksInPlace(s.config, queueRule(s.config, batch.queueRule));
    return inPlace ? newInPlaceRun(batch.retries) : newBatchRun(batch.retries, batchBranch(this.baseRef, batch.id, batch.retries), scratchBranch(this.baseRef, batch.id, batch.retries));
  }

  /** Head updates of entries that no batch preparing in place follows, nor any passed batch merges. */
  private async unfollowedUpdates(s: QueueSession): Promise<Work['headUpdates']> {
    const updates = await s.store.mergeQueues.headUpdates(s.queue.id, s.trx);
    if (updates.size === 0) return [];
    const followed = new Set(s.state.batches.filter((b) => b.phase === 'passed' || (b.phase === 'preparing' && s.runOf(b.id)?.inPlace)).flatMap((b) => b.entryIds));
    return [...updates].flatMap(([id, stored]) => {
      const entry = s.state.entries.find((e) => e.id === id);
      const update = readHeadUpdate(stored);
      return entry && update && !followed.has(id) ? [{ entry, update }] : [];
    });
  }

  /** Whether `key` was not looked at within the poll interval (and marks it looked at now). */
  private due(key: string): boolean {
    const now = this.deps.clock();
    if ((this.polledAt.get(key) ?? -Infinity) + this.deps.pollMs > now) return false;
    this.polledAt.set(key, now);
    return true;
  }

  /** seconds_waiting_for_freeze: how long a passed batch was held by a freeze. */
  private async countFreeze(s: QueueSession, batchId: string): Promise<void> {
    const stored = s.batches.get(batchId);
    // A batch whose merge began is not held by a freeze that came after.
    if (!stored || stored.mergeStarted) return;
    if (s.holds.frozen && stored.frozenSince === null) await s.setFrozen(batchId, s.now, stored.frozenMs);
    if (!s.holds.frozen && stored.frozenSince !== null) await s.setFrozen(batchId, null, stored.frozenMs + (s.now - stored.frozenSince));
  }

  /** Builds the batch branch and its check pull request, one platform call a step. */
  private async prepare(batchId: string, renew: () => Promise<boolean>): Promise<void> {
    for (let step = 0; step < 500; step++) {
      if (step > 0 && !(await renew())) return;
      const snapshot = await this.session(async (s) => {
        const batch = s.state.batches.find((b) => b.id === batchId);
        const run = s.runOf(batchId);
        if (!batch || batch.phase !== 'preparing' || !run || run.attempt !== batch.retries) return null;
        const update = run.inPlace ? readHeadUpdate(await s.store.mergeQueues.headUpdateOf(batch.entryIds[0] as string, s.trx)) : null;
        const start = run.baseSha === null && !run.inPlace ? buildStart(s.state, (id) => s.runOf(id), batchId) : 'wait';
        return { batch, run, closure: closureEntries(s.state, batchId), update, start };
      });
      if (!snapshot) return;
      const { batch, run, closure, update, start } = snapshot;
      const more = run.inPlace ? await this.inPlace.step(batch, run, closure, update) : await this.build.step(batch, run, closure, start);
      if (!more) return;
    }
  }

  /** Reads a running batch's checks when due; records the verdict once they decide. */
  private async poll(batchId: string): Promise<void> {
    if (!this.due(batchId)) return;
    const snapshot = await this.session(async (s) => {
      const batch = s.state.batches.find((b) => b.id === batchId);
      const run = s.runOf(batchId);
      return batch?.phase === 'running' && run?.headSha ? { batch, run, required: queueRule(s.config, batch.queueRule).required_checks } : null;
    });
    if (!snapshot) return;
    const sha = snapshot.run.headSha as string;
    const [runs, combined] = await Promise.all([this.deps.platform.checkRuns(this.repo, sha), this.deps.platform.combinedStatus(this.repo, sha)]);
    const verdict = judgeChecks(snapshot.required, runs, combined);
    await this.session(async (s) => {
      const batch = s.state.batches.find((b) => b.id === batchId);
      const run = s.runOf(batchId);
      if (batch?.phase !== 'running' || !run || run.attempt !== snapshot.run.attempt) return;
      await s.setRun(batchId, { ...run, checks: { passed: verdict.passed, total: verdict.total }, unsuccessfulChecks: verdict.unsuccessful });
      if (verdict.verdict !== 'pending') await s.apply(applyBatchResult(s.state, batchId, { kind: verdict.verdict }, s.now));
    });
  }

  /** Merges a passed batch whose parents merged, nothing holding it (the plan's toMerge). */
  private async merge(batchId: string, renew: () => Promise<boolean>): Promise<void> {
    for (let step = 0; step < 200; step++) {
      if (step > 0 && !(await renew())) return;
      const snapshot = await this.session(async (s) => {
        if (!s.plan().toMerge.includes(batchId)) return null;
        const batch = s.state.batches.find((b) => b.id === batchId) as Batch;
        const entries = batch.entryIds.flatMap((id) => s.state.entries.find((e) => e.id === id) ?? []);
        return { batch, entries, run: s.runOf(batchId), method: queueRule(s.config, batch.queueRule).merge_method };
      });
      if (!snapshot?.run) return;
      const { batch, entries, run } = snapshot;
      if (run.mergingSince === undefined || run.mergeMethod === undefined) {
        // Recorded before the first merge call: a pause or dequeue from now on cannot stop a
        // merge the platform may already be doing, and a configuration changed meanwhile cannot
        // switch a half-merged batch to another method.
        await this.session(async (s) => {
          if (s.plan().toMerge.includes(batchId)) await s.setRun(batchId, { ...run, mergingSince: run.mergingSince ?? s.now, mergeMethod: snapshot.method });
        });
        continue;
      }
      const method = run.mergeMethod;
      if (method === 'fast-forward') return this.fastForward(batch, run);
      const next = entries.find((entry) => run.mergedEntries[entry.id] === undefined);
      if (!next) {
        await this.session(async (s) => {
          if (!s.plan().toMerge.includes(batchId)) return;
          await this.countFreeze(s, batchId);
          await s.apply(mergeBatch(s.state, batchId, s.now), { mergeShas: new Map(Object.entries(run.mergedEntries)) });
        });
        return;
      }
      if (!(await this.mergeOne(batch, run, next, method))) return;
    }
  }

  /** Merges one pull request pinned to the head its batch checked; false when it could not. */
  private async mergeOne(batch: Batch, run: BatchRun, entry: QueueEntry, method: 'merge' | 'squash' | 'rebase'): Promise<boolean> {
    const { platform } = this.deps;
    // A merge done before a crash, not yet recorded, is found rather than attempted again.
    const current = await platform.pullRequest(this.repo, entry.number);
    let sha: string | null = current?.merged ? (current.mergeCommitSha ?? (await platform.branchHead(this.repo, this.baseRef))) : null;
    if (sha === null) {
      const merged = await platform.mergePullRequest(this.repo, entry.number, { sha: entry.headSha, method, title: `${current?.title ?? `Pull request #${entry.number}`} (#${entry.number})` }).catch((error: unknown) => {
        // Refused for good (no longer allowed to merge, the pull request gone): a merge begun
        // cannot be paused or dequeued, so asking forever would hold the queue.
        if (error instanceof HostingFailure && ['forbidden', 'not_found', 'refused'].includes(error.kind)) return { kind: 'not_mergeable' as const, reason: error.message };
        throw error;
      });
      if (merged.kind !== 'merged') {
        const code = merged.kind === 'head_moved' ? 'PULL_REQUEST_UPDATED' : 'PR_UNEXPECTEDLY_FAILED_TO_MERGE';
        this.deps.log.warn({ batch: batch.id, number: String(entry.number), answer: merged }, 'merge queue: the platform did not merge');
        await this.session(async (s) => s.apply(removeEntry(s.state, entry.id, code, s.now)));
        return false;
      }
      sha = merged.sha;
    }
    const mergedSha = sha;
    await this.session(async (s) => {
      await s.setRun(batch.id, { ...run, mergedEntries: { ...run.mergedEntries, [entry.id]: mergedSha } });
      await s.store.mergeQueues.setBaseSha(s.trx, s.queue.id, await this.baseHeadAfter(mergedSha));
    });
    return true;
  }

  /** The base head after a merge of ours: the merge commit (a rebase's last commit is the head). */
  private async baseHeadAfter(sha: string): Promise<string> {
    return (await this.deps.platform.branchHead(this.repo, this.baseRef)) ?? sha;
  }

  private async fastForward(batch: Batch, run: BatchRun): Promise<void> {
    if (!run.headSha) return;
    const moved = await this.deps.platform.moveBranch(this.repo, this.baseRef, run.headSha, { force: false });
    await this.session(async (s) => {
      if (!s.plan().toMerge.includes(batch.id)) return;
      if (moved.kind !== 'moved') {
        // The base moved since the batch was built: its checks say nothing about the new base.
        await s.apply(resetQueue(s.state, s.now));
        return;
      }
      await s.store.mergeQueues.setBaseSha(s.trx, s.queue.id, moved.sha);
      await this.countFreeze(s, batch.id);
      const shas = new Map(batch.entryIds.map((id) => [id, moved.sha]));
      await s.apply(mergeBatch(s.state, batch.id, s.now), { mergeShas: shas });
    });
  }

  /** A finished batch's check pull request closed and its branch deleted. */
  private async cleanUp(batchId: string, renew: () => Promise<boolean>): Promise<void> {
    const batch = (await this.deps.store.mergeQueues.batches(this.queueId, undefined, [batchId]))[0];
    if (!batch || batch.cleaned) return;
    const run = batch.run as BatchRun | null;
    if (run) {
      // Checked in place, the branch and pull request are the author's: nothing to remove.
      const left = [...(run.stale ?? []), ...leftoversOf(run)];
      // The lease is renewed between leftovers (each up to three platform calls), so a batch
      // retried many times cannot outlast it; removing a leftover twice is harmless.
      for (const [i, leftover] of left.entries()) {
        if (i > 0 && !(await renew())) return;
        await this.removeFromPlatform(leftover);
      }
    }
    await this.deps.store.mergeQueues.markCleaned(this.deps.store.db, batchId);
    this.polledAt.delete(batchId);
  }

  private async removeFromPlatform(left: Leftover): Promise<void> {
    const { platform } = this.deps;
    if (left.checkPull !== null) {
      const pull = await platform.pullRequest(this.repo, BigInt(left.checkPull));
      if (pull?.state === 'open') await platform.closePullRequest(this.repo, pull.number);
    }
    if (left.unsure && (await platform.branchHead(this.repo, left.branch)) === null) return;
    await platform.deleteBranch(this.repo, left.branch);
  }
}

/**
 * Merges of passed batches not recorded yet: 'ours' when the base is at a batch's head (a
 * fast-forward of ours), else the numbers of pull requests that may have been merged by us.
 */
function unrecordedMerges(s: QueueSession, head: string): 'ours' | bigint[] {
  const numbers: bigint[] = [];
  for (const batch of s.state.batches) {
    const run = s.runOf(batch.id);
    if (batch.phase !== 'passed' || !run) continue;
    if (run.headSha === head) return 'ours';
    for (const id of batch.entryIds) {
      const entry = s.state.entries.find((e) => e.id === id);
      if (entry && run.mergedEntries[id] === undefined) numbers.push(entry.number);
    }
  }
  return numbers;
}

/** What a new run must remove first: the refs and check pull request of the attempt before. */
function staleOf(run: BatchRun | null): BatchRun['stale'] {
  return run ? [...(run.stale ?? []), ...leftoversOf(run)] : [];
}
