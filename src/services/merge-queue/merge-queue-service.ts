// The merge queue's use cases (DESIGN.md §9): entering and leaving, and reading a queue with its
// plan. Each change runs in one transaction through QueueSession: the pull request's lock first,
// then the queue's, the order every writer follows.
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { ApiError } from '../../errors.ts';
import { dequeueImpact, planQueue, removeEntry, type DequeueImpact } from '../../domain/merge-queue/index.ts';
import { enterEvents } from '../../domain/merge-queue/queue-events.ts';
import type { MergeQueueConfig, Priority, QueueEntry, QueuePlan, QueueState } from '../../domain/merge-queue/model.ts';
import type { Database } from '../../storage/database.ts';
import type { QueuedPullFacts, QueueRow, StoredBatch } from '../../storage/queries/merge-queues.ts';
import type { RepositoryIdentity } from '../../storage/queries/repositories.ts';
import type { Store } from '../../storage/store.ts';
import { isUniqueViolation } from '../../storage/storage-errors.ts';
import { queueHolds, readMergeQueueConfig, type QueueHolds } from './controls.ts';
import { QueueSession } from './queue-session.ts';
import type { IngestEventInput } from '../../domain/events/index.ts';
import { recordEvents } from '../record-events.ts';

/** Who asked, for the events: the API, or a comment command with its author. */
export interface QueueRequest {
  trigger: string;
  /** A comment command (`@switchyard queue`): recorded as command.queue / command.dequeue. */
  command?: { author: { login: string; id: bigint; type: 'User' | 'Bot' | 'Organization' | null }; commentId: bigint; url: string | null };
}

export interface EnterOptions {
  queueRule?: string;
  priority?: Priority;
}

/** The queue and priority rules a configuration file's conditions choose (DESIGN §13). */
export interface ChosenRules {
  queueRule: string;
  priority: Priority;
  priorityRuleName: string | null;
}

/**
 * Chooses by conditions when a configuration file governs the repository (null when none does:
 * the API configuration's branches and labels choose); refuses with an ApiError when no queue
 * rule's conditions hold.
 */
export type RuleChooser = (repository: RepositoryIdentity, number: bigint, asked: string | undefined) => Promise<ChosenRules | null>;

/** A queue as the read endpoints answer it: its state, plan and the facts they show. */
export interface QueueView {
  repository: RepositoryIdentity;
  queue: QueueRow | null;
  baseRef: string;
  config: MergeQueueConfig;
  holds: QueueHolds;
  state: QueueState;
  plan: QueuePlan;
  now: number;
  /** Stored batches of the state, with the executor's progress. */
  batches: ReadonlyMap<string, StoredBatch>;
  pulls: ReadonlyMap<bigint, QueuedPullFacts>;
  /** Recent check durations (ms), newest first, for estimates. */
  checkDurations: readonly number[];
  /** Each queued pull request's queue rule conditions as the rules engine last evaluated them (public JSON). */
  conditions: ReadonlyMap<bigint, unknown>;
}

export class MergeQueueService {
  private chooser: RuleChooser | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: () => number = Date.now,
    /** Told after a commit that changed a queue (the executor wakes). */
    private readonly onChanged: (queueId: string) => void = () => {},
  ) {}

  /** Queue and priority rules from the configuration file's conditions (the rules engine's). */
  useRuleChooser(chooser: RuleChooser): void {
    this.chooser = chooser;
  }

  async repository(owner: string, name: string): Promise<RepositoryIdentity> {
    const repository = await this.store.repositories.identify(owner, name);
    if (!repository) throw new ApiError('repository_not_found');
    return repository;
  }

  /** Queues a pull request; its entry id. Refusals are 409 (state) or 422 (options). */
  async enter(repository: RepositoryIdentity, number: bigint, options: EnterOptions, request: QueueRequest): Promise<{ baseRef: string; entryId: string }> {
    // A disabled product does nothing (DESIGN §13); what is queued stays, and waits.
    const products = (await this.store.repositories.byId(repository.id))?.products ?? [];
    if (!products.includes('merge_queue')) throw new ApiError('product_disabled', `The merge_queue product is not enabled on ${repository.owner}/${repository.name}; enable it with PUT /v1/products/${repository.owner}/${repository.name}.`);
    // Conditions read the platform: chosen before the transaction, never while it holds locks.
    const chosen = (await this.chooser?.(repository, number, options.queueRule)) ?? null;
    const now = this.clock();
    const result = await this.store.db
      .transaction()
      .execute(async (trx) => {
        await this.store.pullRequests.lock(trx, repository.id, number);
        const facts = (await this.store.mergeQueues.pullFacts(repository.id, [number], trx)).get(number);
        const pull = await this.store.pullRequests.find(repository.id, number, trx);
        if (!pull || !facts) throw new ApiError('pull_request_unknown', `Switchyard has no record of pull request #${number}: it is recorded from the hosting platform's pull_request webhooks or PUT /v1/admin/repos/{owner}/{repository}/pulls/{number}.`);
        if (pull.state !== 'open') throw new ApiError('pull_request_not_open', `Pull request #${number} is ${pull.state}; only open pull requests can be queued.`);
        if (facts.draft) throw new ApiError('pull_request_draft', `Pull request #${number} is a draft; mark it ready for review first.`);
        if (!pull.headSha || !pull.baseRef) throw new ApiError('pull_request_unknown', `The head or base branch of pull request #${number} is not known yet.`);
        const baseRef = pull.baseRef;
        const headSha = pull.headSha;
        // Entering needs the queue locked, its rules and its sizes, not its whole state.
        const queue = await this.store.mergeQueues.lockOrCreate(trx, repository.id, baseRef, randomUUID());
        const config = await readMergeQueueConfig(this.store, repository.id, trx);
        const rule = chosen?.queueRule ?? chooseRule(config, baseRef, options.queueRule, number);
        const already = await this.store.mergeQueues.activeEntryOf(repository.id, number, trx);
        if (already) throw new ApiError('pull_request_already_queued', `Pull request #${number} is already in the merge queue.`);
        const priority = chosen && !options.priority ? { priority: chosen.priority, ruleName: chosen.priorityRuleName } : choosePriority(config, facts.labels, options.priority);
        const entry: QueueEntry = {
          id: randomUUID(),
          number,
          headSha,
          queueRule: rule,
          priority: priority.priority,
          priorityRuleName: priority.ruleName,
          enteredAt: now,
          scopes: null,
          scopesAwaitedSince: now,
          embarkCount: 0,
        };
        await this.store.mergeQueues.insertEntry(trx, queue.id, repository.id, entry);
        const size = (await this.store.mergeQueues.sizesByRule(queue.id, trx)).get(rule) ?? 1;
        const events = [...commandEvents('command.queue', request, number, baseRef, entry.id, now), ...enterEvents({ baseRef, trigger: request.trigger, now }, entry, size)];
        await recordEvents(this.store, trx, repository.id, events, new Date(now));
        await this.store.mergeQueues.touch(trx, queue.id, undefined);
        return { baseRef, entryId: entry.id, queueId: queue.id };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new ApiError('pull_request_already_queued', `Pull request #${number} is already in the merge queue.`);
        throw error;
      });
    this.onChanged(result.queueId);
    return result;
  }

  /** Removes a queued pull request with `code`; false when it was not queued. */
  async dequeue(repository: RepositoryIdentity, number: bigint, code: string, request: QueueRequest, trx?: Transaction<Database>): Promise<boolean> {
    const queueId = trx
      ? await this.dequeueIn(trx, repository, number, code, request)
      : await this.store.db.transaction().execute((inner) => this.dequeueIn(inner, repository, number, code, request));
    if (queueId) this.onChanged(queueId);
    return queueId !== null;
  }

  private async dequeueIn(trx: Transaction<Database>, repository: RepositoryIdentity, number: bigint, code: string, request: QueueRequest): Promise<string | null> {
    await this.store.pullRequests.lock(trx, repository.id, number);
    const active = await this.store.mergeQueues.activeEntryOf(repository.id, number, trx);
    if (!active) return null;
    const queue = await this.store.mergeQueues.lock(trx, active.queueId);
    if (!queue) return null;
    const now = this.clock();
    const session = await QueueSession.load(this.store, trx, repository, queue, { trigger: request.trigger, now });
    if (code === 'PR_MANUALLY_DEQUEUED' && session.state.batches.some((b) => b.mergeStarted && b.entryIds.includes(active.entryId))) {
      throw new ApiError('pull_request_merging', `Pull request #${number} is being merged by the merge queue; it can no longer be dequeued.`);
    }
    await session.record(commandEvents('command.dequeue', request, number, queue.baseRef, active.entryId, now));
    await session.apply(removeEntry(session.state, active.entryId, code, now));
    await session.finish();
    return queue.id;
  }

  /** A base branch's queue as the read endpoints show it (empty when it was never used). */
  async view(repository: RepositoryIdentity, baseRef: string): Promise<QueueView> {
    const now = this.clock();
    return this.store.db.transaction().execute(async (trx) => {
      const queue = (await this.store.mergeQueues.find(repository.id, baseRef, trx)) ?? null;
      const session = queue ? await QueueSession.load(this.store, trx, repository, queue, { trigger: 'read', now }) : null;
      const config = session?.config ?? (await readMergeQueueConfig(this.store, repository.id, trx));
      const holds = session?.holds ?? (await queueHolds(this.store, repository.id, baseRef, new Date(now), trx));
      const state: QueueState = session?.state ?? { queueId: `${repository.id}:${baseRef}`, baseRef, config, entries: [], batches: [], holds: { paused: holds.paused, frozen: holds.frozen } };
      const plan = session ? session.plan() : planQueue(state, now);
      const pulls = session?.pulls ?? new Map<bigint, QueuedPullFacts>();
      const checkDurations = queue ? await this.store.mergeQueues.recentCheckDurations(queue.id, 20, trx) : [];
      const conditions = await this.store.rulesEngine.queueConditions(repository.id, state.entries.map((entry) => ({ number: entry.number, rule: entry.queueRule })), trx);
      return { repository, queue, baseRef, config, holds, state, plan, now, batches: session?.batches ?? new Map(), pulls, checkDurations, conditions };
    });
  }

  /** The view of the queue holding a pull request, or null when it is not queued. */
  async viewOfPull(repository: RepositoryIdentity, number: bigint): Promise<{ view: QueueView; entry: QueueEntry } | null> {
    const active = await this.store.mergeQueues.activeEntryOf(repository.id, number);
    if (!active) return null;
    const queue = await this.store.mergeQueues.findById(active.queueId);
    if (!queue) return null;
    const view = await this.view(repository, queue.baseRef);
    const entry = view.state.entries.find((e) => e.id === active.entryId);
    return entry ? { view, entry } : null;
  }

  async dequeueImpact(repository: RepositoryIdentity, number: bigint): Promise<DequeueImpact | null> {
    const found = await this.viewOfPull(repository, number);
    return found && dequeueImpact(found.view.state, found.entry.id, found.view.now);
  }

  /** Base branches with pull requests queued. */
  branches(repository: RepositoryIdentity): Promise<string[]> {
    return this.store.mergeQueues.activeBranches(repository.id);
  }

  /** Base branches whose queue held a pull request during [from, to). */
  branchesActiveBetween(repository: RepositoryIdentity, from: Date, to: Date): Promise<string[]> {
    return this.store.mergeQueues.branchesActiveBetween(repository.id, from, to);
  }
}

function chooseRule(config: MergeQueueConfig, baseRef: string, asked: string | undefined, number: bigint): string {
  const covers = (branches: string[]) => branches.length === 0 || branches.includes(baseRef);
  if (asked !== undefined) {
    const rule = config.queue_rules.find((r) => r.name === asked);
    if (!rule) throw new ApiError('queue_rule_unknown', `There is no queue rule named "${asked}"; the rules are: ${config.queue_rules.map((r) => r.name).join(', ')}.`);
    if (!covers(rule.branches)) throw new ApiError('no_queue_rule', `The queue rule "${asked}" does not cover the base branch "${baseRef}" of pull request #${number}.`);
    return rule.name;
  }
  const rule = config.queue_rules.find((r) => covers(r.branches));
  if (!rule) throw new ApiError('no_queue_rule', `No queue rule covers the base branch "${baseRef}" of pull request #${number}.`);
  return rule.name;
}

function choosePriority(config: MergeQueueConfig, labels: readonly string[], asked: Priority | undefined): { priority: Priority; ruleName: string | null } {
  if (asked) return { priority: asked, ruleName: null };
  const rule = config.priority_rules.find((r) => r.labels.length === 0 || r.labels.some((label) => labels.includes(label)));
  return rule ? { priority: rule.priority, ruleName: rule.name } : { priority: 'medium', ruleName: null };
}

function commandEvents(type: 'command.queue' | 'command.dequeue', request: QueueRequest, number: bigint, baseRef: string, sessionId: string, now: number): IngestEventInput[] {
  const command = request.command;
  if (!command) return [];
  return [
    {
      type,
      trigger: request.trigger,
      pull_request: number,
      base_ref: baseRef,
      received_at: new Date(now).toISOString(),
      metadata: {
        author: { login: command.author.login, id: command.author.id, type: command.author.type },
        comment_id: command.commentId,
        session_id: sessionId,
        command_trigger: 'comment',
        trigger_comment_url: command.url,
      },
    },
  ];
}
