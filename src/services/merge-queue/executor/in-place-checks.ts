// Checks in place (DESIGN §10): with max_parallel_checks 1 and batch_size 1, a batch of one pull
// request is checked on the pull request itself rather than on a draft pull request of a batch
// branch. Once nothing ahead of it is left to merge, its head is updated with the base when it
// does not hold the base's head (the platform's update-branch: a merge of the base into the head
// branch), and the rule's checks are read on that head. One platform action a step, as in
// queue-driver.ts: the update is recorded on the entry before it is asked (head-update.ts) and
// the head it made is read and verified before the entry takes it, so a restart neither updates
// twice in a way anyone sees nor takes an author's push for the queue's own update.
import { markChecksStarted, removeEntry } from '../../../domain/merge-queue/index.ts';
import type { Batch, QueueEntry } from '../../../domain/merge-queue/model.ts';
import { HostingFailure } from '../../../hosting/hosting-failure.ts';
import type { HostingPlatform } from '../../../hosting/hosting-platform.ts';
import type { PullRequest, RepositoryRef } from '../../../hosting/hosting-types.ts';
import type { BatchRun } from '../batch-run.ts';
import { readHeadUpdate, type HeadUpdate } from '../head-update.ts';
import type { QueueSession } from '../queue-session.ts';

/**
 * GitHub merges after answering 202; an update whose head has not shown up by then is asked
 * again (pinned to the same expected head, a repeat cannot update twice).
 */
const ASK_AGAIN_MS = 30_000;

/** Answers that asking again will not change. */
const REFUSALS = new Set(['forbidden', 'not_found', 'refused']);

export interface InPlaceContext {
  platform: HostingPlatform;
  repo: RepositoryRef;
  baseRef: string;
  clock: () => number;
  /** A change under the queue's lock (QueueDriver.session), and the pull request's when given; null when the queue is gone. */
  session<T>(fn: (session: QueueSession) => Promise<T>, pull?: bigint): Promise<T | null>;
}

export class InPlaceChecks {
  constructor(private readonly ctx: InPlaceContext) {}

  /**
   * One step of preparing a batch checked in place; false when preparing is over (checks
   * started, the pull request left) or has to wait (for what is ahead to merge, for the update).
   * `closure` is the batch's closure (batch-closure.ts closureEntries), `update` its entry's.
   */
  async step(batch: Batch, run: BatchRun, closure: QueueEntry[], update: HeadUpdate | null): Promise<boolean> {
    const entry = closure.find((e) => e.id === batch.entryIds[0]);
    // Checked in place, the pull request sees only the base: whatever is ahead merges first.
    if (!entry || closure.length > 1) return false;
    if (update) return this.follow(entry, update);
    return this.start(batch, run, entry);
  }

  /**
   * Reads the head an update of the queue's own made, once it has moved: taken as the entry's
   * head when it is that update's merge, else the pull request was pushed to and leaves
   * (PULL_REQUEST_UPDATED). False while the head has not moved.
   */
  async readUpdate(entry: QueueEntry, update: HeadUpdate): Promise<boolean> {
    const pull = await this.openPull(entry);
    if (!pull) return true;
    const head = pull.head.sha;
    if (head === update.from) return false;
    const ours = await this.madeBy(head, update);
    await this.ctx.session(async (s) => {
      const current = s.state.entries.find((e) => e.id === entry.id);
      const stored = readHeadUpdate(await s.store.mergeQueues.headUpdateOf(entry.id, s.trx));
      if (!current || current.headSha !== update.from || stored?.from !== update.from) return;
      // A push after the update that a webhook reported already, leaving it to this decision.
      const reported = s.pulls.get(entry.number)?.headSha ?? null;
      if (ours && (reported === null || reported === update.from || reported === head)) await s.takeUpdatedHead(entry.id, head);
      else await s.apply(removeEntry(s.state, entry.id, 'PULL_REQUEST_UPDATED', s.now));
    }, entry.number);
    return true;
  }

  /** No update in progress: checks start on the head if it holds the base's, else an update is recorded. */
  private async start(batch: Batch, run: BatchRun, entry: QueueEntry): Promise<boolean> {
    const { platform, repo, baseRef } = this.ctx;
    const pull = await this.openPull(entry);
    if (!pull) return false;
    if (pull.head.sha !== entry.headSha) return this.leave(entry, 'PULL_REQUEST_UPDATED');
    const base = await platform.branchHead(repo, baseRef);
    if (base === null) throw new HostingFailure('not_found', `The base branch ${baseRef} does not exist.`);
    const { status } = await platform.compare(repo, base, entry.headSha);
    if (status === 'ahead' || status === 'identical') return this.checksStart(batch, run, entry, base);
    await this.ctx.session(async (s) => {
      if (s.state.entries.some((e) => e.id === entry.id && e.headSha === entry.headSha)) {
        await s.store.mergeQueues.setHeadUpdate(s.trx, entry.id, { from: entry.headSha, onto: base, askedAt: null } satisfies HeadUpdate);
      }
    });
    return true;
  }

  private async checksStart(batch: Batch, run: BatchRun, entry: QueueEntry, base: string): Promise<boolean> {
    await this.ctx.session(async (s) => {
      const current = s.state.entries.find((e) => e.id === entry.id);
      const stored = s.state.batches.find((b) => b.id === batch.id);
      if (current?.headSha !== entry.headSha || stored?.phase !== 'preparing' || s.runOf(batch.id)?.attempt !== run.attempt) return;
      const checkPull = { number: entry.number.toString(), inPlace: true };
      await s.setRun(batch.id, { ...run, baseSha: base, headSha: entry.headSha, merged: [entry.id], checkPull });
      await s.apply(markChecksStarted(s.state, batch.id, s.now));
    });
    return false;
  }

  /** An update in progress: its head read if it moved, else asked (again, if long unseen). */
  private async follow(entry: QueueEntry, update: HeadUpdate): Promise<boolean> {
    // Read first even when not asked yet: a process killed after asking, before recording it.
    if (await this.readUpdate(entry, update)) return true;
    if (update.askedAt !== null && this.ctx.clock() - update.askedAt < ASK_AGAIN_MS) return false;
    let answer: Awaited<ReturnType<HostingPlatform['updatePullRequestBranch']>>;
    try {
      answer = await this.ctx.platform.updatePullRequestBranch(this.ctx.repo, entry.number, update.from);
    } catch (error) {
      // Refused for good (a fork that does not allow edits by maintainers, a token without
      // write): asking again would hold the queue's only check slot forever.
      if (!(error instanceof HostingFailure) || !REFUSALS.has(error.kind)) throw error;
      return this.leave(entry, 'BRANCH_UPDATE_FAILED');
    }
    if (answer.kind === 'conflict') return this.leave(entry, 'CONFLICT_WITH_BASE_BRANCH');
    // Up to date: the base is in the head after all; the next step checks the head as it is.
    // Updating, or the head moved meanwhile: the next step reads the head.
    const next = answer.kind === 'up_to_date' ? null : { ...update, askedAt: this.ctx.clock() };
    await this.ctx.session(async (s) => {
      const stored = readHeadUpdate(await s.store.mergeQueues.headUpdateOf(entry.id, s.trx));
      if (stored?.from === update.from && stored.onto === update.onto) await s.store.mergeQueues.setHeadUpdate(s.trx, entry.id, next);
    });
    return true;
  }

  /** Whether `head` is the merge of the base into `update.from` that the update makes. */
  private async madeBy(head: string, update: HeadUpdate): Promise<boolean> {
    const { platform, repo, baseRef } = this.ctx;
    const parents = await platform.commitParents(repo, head);
    if (parents.length !== 2 || parents[0] !== update.from) return false;
    const merged = parents[1] as string;
    if (merged === update.onto) return true;
    // The platform merges the base's head of when it runs: one past `onto` still on the base.
    const [sinceOnto, onBase] = await Promise.all([platform.compare(repo, update.onto, merged), platform.compare(repo, merged, baseRef)]);
    return (sinceOnto.status === 'ahead' || sinceOnto.status === 'identical') && (onBase.status === 'ahead' || onBase.status === 'identical');
  }

  /** The pull request, open on the queue's base; null when it left (its webhook may have been lost). */
  private async openPull(entry: QueueEntry): Promise<PullRequest | null> {
    const pull = await this.ctx.platform.pullRequest(this.ctx.repo, entry.number);
    if (pull && pull.state === 'open' && pull.base.ref === this.ctx.baseRef) return pull;
    const code = !pull ? 'PR_DEQUEUED' : pull.merged ? 'PR_MANUALLY_MERGED' : pull.state === 'closed' ? 'PR_DEQUEUED' : 'BASE_BRANCH_CHANGED';
    await this.leave(entry, code);
    return null;
  }

  private async leave(entry: QueueEntry, code: string): Promise<false> {
    await this.ctx.session(async (s) => s.apply(removeEntry(s.state, entry.id, code, s.now)));
    return false;
  }
}
