// Drives the production plan and transitions (src/domain/merge-queue) with a virtual clock and a
// simulated CI: pull requests arrive as the scenario says, each batch's checks take the next CI
// duration and fail when any pull request whose changes they include (the batch's own and its
// parents' closure) is bad, or when the run is flaky. Nothing here decides what to plan: the
// plan does, exactly as it does in the service.
import {
  applyBatchResult,
  markChecksStarted,
  mergeBatch,
  planQueue,
  startBatches,
} from '../src/domain/merge-queue/index.ts';
import type { PlanOptions } from '../src/domain/merge-queue/index.ts';
import type { MergeQueueConfig, QueueChange, QueueEntry, QueueState, QueueTransition } from '../src/domain/merge-queue/model.ts';
import type { PullOutcome, RunRecord } from './merge-queue-metrics.ts';
import type { Scenario, ScenarioPull } from './merge-queue-scenario.ts';

export interface Strategy {
  label: string;
  config: MergeQueueConfig;
  /** Experiments only (the service plans with the defaults). */
  planOptions?: PlanOptions;
}

interface CiRun {
  batchId: string;
  token: number;
  startedAt: number;
  endsAt: number;
  passes: boolean;
}

/** Start of the virtual clock: any fixed instant (the plan only compares times). */
const EPOCH = Date.UTC(2026, 0, 5);

/** Sees every change the transitions make, with the virtual time and the state after it. */
export type SimulationObserver = (change: QueueChange, now: number, state: QueueState) => void;

export function simulateQueue(scenario: Scenario, strategy: Strategy, observer?: SimulationObserver): RunRecord {
  const sim = new Simulation(scenario, strategy, observer);
  return sim.run();
}

class Simulation {
  private state: QueueState;
  private now = EPOCH;
  private readonly end: number;
  private readonly pullByEntry = new Map<string, ScenarioPull>();
  private readonly outcomes = new Map<number, PullOutcome>();
  private readonly runs = new Map<string, CiRun>();
  private runCount = 0;
  private busyMs = 0;
  private nextArrival = 0;

  constructor(
    private readonly scenario: Scenario,
    private readonly strategy: Strategy,
    private readonly observer?: SimulationObserver,
  ) {
    this.state = { queueId: `sim-${strategy.label}`, baseRef: 'main', config: strategy.config, entries: [], batches: [], holds: { paused: false, frozen: false } };
    this.end = EPOCH + scenario.options.hours * 3_600_000 * scenario.scale;
  }

  run(): RunRecord {
    for (;;) {
      const wakeAt = this.settle();
      const arrival = this.scenario.pulls[this.nextArrival];
      const next = Math.min(arrival ? EPOCH + arrival.arrivesAt : Infinity, this.nextRunEnd(), wakeAt ?? Infinity);
      if (next >= this.end) break;
      this.now = Math.max(this.now, next);
      this.arrive();
      this.finishRuns();
    }
    for (const run of this.runs.values()) this.busyMs += this.end - run.startedAt;
    return { label: this.strategy.label, outcomes: [...this.outcomes.values()], ciRuns: this.runCount, ciBusyMs: this.busyMs, periodMs: this.end - EPOCH };
  }

  /** Merges, times out and starts whatever the plan says now, until it says nothing more. */
  private settle(): number | null {
    for (;;) {
      for (const batch of this.state.batches) if (batch.phase === 'preparing') this.startRun(batch.id);
      const plan = planQueue(this.state, this.now, this.strategy.planOptions);
      if (plan.toMerge.length > 0) {
        for (const id of plan.toMerge) this.apply(mergeBatch(this.state, id, this.now));
        continue;
      }
      if (plan.toTimeOut.length > 0) {
        for (const id of plan.toTimeOut) this.apply(applyBatchResult(this.state, id, { kind: 'timed_out' }, this.now));
        continue;
      }
      if (plan.toStart.length === 0) return plan.wakeAt;
      this.apply(startBatches(this.state, plan, this.now));
    }
  }

  private startRun(batchId: string): void {
    this.apply(markChecksStarted(this.state, batchId, this.now));
    const token = this.runCount++;
    const bad = this.closureHasBadPull(batchId) || this.scenario.ciFlaky(token);
    this.runs.set(batchId, { batchId, token, startedAt: this.now, endsAt: this.now + this.scenario.ciDuration(token), passes: !bad });
  }

  /** The batch's checks include its own changes and those of every unmerged ancestor. */
  private closureHasBadPull(batchId: string): boolean {
    const byId = new Map(this.state.batches.map((batch) => [batch.id, batch]));
    const seen = new Set<string>();
    const stack = [batchId];
    while (stack.length > 0) {
      const batch = byId.get(stack.pop() as string);
      if (!batch || seen.has(batch.id)) continue;
      seen.add(batch.id);
      if (batch.entryIds.some((id) => this.pullByEntry.get(id)?.bad)) return true;
      stack.push(...batch.parentIds);
    }
    return false;
  }

  private nextRunEnd(): number {
    let next = Infinity;
    for (const run of this.runs.values()) next = Math.min(next, run.endsAt);
    return next;
  }

  private arrive(): void {
    const entries: QueueEntry[] = [];
    for (;;) {
      const pull = this.scenario.pulls[this.nextArrival];
      if (!pull || EPOCH + pull.arrivesAt > this.now) break;
      this.nextArrival++;
      const id = `entry-${pull.number}`;
      this.pullByEntry.set(id, pull);
      this.outcomes.set(pull.number, { number: pull.number, arrivesAt: pull.arrivesAt, leftAt: null, merged: false, code: null, bad: pull.bad });
      entries.push({
        id,
        number: BigInt(pull.number),
        headSha: pull.number.toString(16).padStart(40, '0'),
        queueRule: 'default',
        priority: 'medium',
        priorityRuleName: null,
        enteredAt: EPOCH + pull.arrivesAt,
        scopes: { scopes: pull.scopes, allScopes: pull.barrier },
        scopesAwaitedSince: EPOCH + pull.arrivesAt,
        embarkCount: 0,
      });
    }
    if (entries.length > 0) this.state = { ...this.state, entries: [...this.state.entries, ...entries] };
  }

  private finishRuns(): void {
    const due = [...this.runs.values()].filter((run) => run.endsAt <= this.now).sort((a, b) => a.endsAt - b.endsAt || a.token - b.token);
    for (const run of due) {
      if (this.runs.get(run.batchId)?.token !== run.token) continue;
      this.runs.delete(run.batchId);
      this.busyMs += run.endsAt - run.startedAt;
      this.apply(applyBatchResult(this.state, run.batchId, { kind: run.passes ? 'passed' : 'failed' }, this.now));
    }
  }

  private apply(transition: QueueTransition): void {
    this.state = transition.state;
    for (const change of transition.changes) {
      this.observe(change);
      this.observer?.(change, this.now, this.state);
    }
  }

  private observe(change: QueueChange): void {
    if (change.kind === 'entry_left') {
      const pull = this.pullByEntry.get(change.entryId);
      const outcome = pull && this.outcomes.get(pull.number);
      if (!outcome) return;
      outcome.leftAt = this.now - EPOCH;
      outcome.merged = change.code === 'PR_MERGED' || change.code === 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED';
      outcome.code = outcome.merged ? null : change.code;
    } else if (change.kind === 'batch_aborted' || change.kind === 'batch_retried' || change.kind === 'intermediate_skipped') {
      // The run is cancelled (an aborted batch, or one a later batch's result vouched for) or
      // replaced (a retry starts a fresh one).
      const run = this.runs.get(change.batchId);
      if (run) {
        this.busyMs += this.now - run.startedAt;
        this.runs.delete(change.batchId);
      }
    }
  }
}
