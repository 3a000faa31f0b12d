// What a run through the real executor achieved, read from its activity log in the scenario's
// time (real milliseconds divided by the scale), as a RunRecord that merge-queue-metrics.ts sums
// up exactly as it does the simulation's; and the real overheads the simulation has none of.
import type { LogEvent } from '../test/support/merge-queue-process.ts';
import type { PullOutcome, RunRecord } from './merge-queue-metrics.ts';
import type { ScenarioPull } from './merge-queue-scenario.ts';

export interface TimedEvent extends LogEvent {
  received_at: string;
}

export interface ArrivedPull {
  scenario: ScenarioPull;
  number: bigint;
  /** Real time (ms) the scenario said it arrives. */
  scheduledAt: number;
}

export interface StoredBatchTimes {
  id: string;
  startedAt: number;
  checksStartedAt: number | null;
}

export interface RealRunFacts {
  label: string;
  /** Real time (ms) of the scenario's instant 0. */
  startedAt: number;
  /** Real milliseconds per scenario millisecond. */
  scale: number;
  /** Length of the measured period in the scenario's time. */
  periodMs: number;
  pulls: readonly ArrivedPull[];
  log: readonly TimedEvent[];
  batches: readonly StoredBatchTimes[];
  /** Real time the fake CI decided the checks of a check pull request's head, by its number. */
  verdictAt: ReadonlyMap<string, number>;
}

/** Real milliseconds each step took, one sample per pull request or batch. */
export interface Overheads {
  /** From the scenario's arrival to action.queue.enter: its scopes reported, the queue command's webhook and permission check. */
  enterLag: number[];
  /** From the plan starting a batch to its checks starting: branch, merges, check pull request. */
  prepare: number[];
  /** From the CI's verdict to the queue recording it (checks_end): webhook, wake-up, reading the checks. */
  verdictRecorded: number[];
  /** From a passed batch being free to merge (checks passed, parents merged) to its pull requests merged. */
  merge: number[];
}

const at = (event: TimedEvent) => Date.parse(event.received_at);

/** A batch attempt's checks: one per (batch, start), whichever entry's event told it. */
const attemptKey = (event: TimedEvent) => `${event.metadata.batch_id} ${event.metadata.speculative_check_pull_request?.checks_started_at}`;

export function realRunRecord(facts: RealRunFacts): RunRecord {
  const toScenario = (real: number) => (real - facts.startedAt) / facts.scale;
  const byNumber = groupByPull(facts.log);
  const outcomes: PullOutcome[] = facts.pulls.map(({ scenario, number }) => {
    const mine = byNumber.get(number) ?? [];
    const enter = mine.find((e) => e.type === 'action.queue.enter');
    const leave = mine.find((e) => e.type === 'action.queue.leave');
    const leftAt = leave && toScenario(at(leave)) <= facts.periodMs ? toScenario(at(leave)) : null;
    const code = leftAt === null ? null : String(leave?.metadata.dequeue_code);
    const merged = code === 'PR_MERGED' || code === 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED';
    return { number: scenario.number, arrivesAt: enter ? toScenario(at(enter)) : scenario.arrivesAt, leftAt, merged, code: merged ? null : code, bad: scenario.bad };
  });
  const starts = uniqueAttempts(facts.log, 'action.queue.checks_start').filter((e) => toScenario(at(e)) <= facts.periodMs);
  const ends = new Map(uniqueAttempts(facts.log, 'action.queue.checks_end').map((e) => [attemptKey(e), at(e)]));
  let busyMs = 0;
  for (const start of starts) busyMs += Math.min(toScenario(ends.get(attemptKey(start)) ?? Infinity), facts.periodMs) - toScenario(at(start));
  return { label: facts.label, outcomes, ciRuns: starts.length, ciBusyMs: busyMs, periodMs: facts.periodMs };
}

export function realOverheads(facts: RealRunFacts): Overheads {
  const byNumber = groupByPull(facts.log);
  const enterLag = facts.pulls.flatMap(({ number, scheduledAt }) => {
    const enter = byNumber.get(number)?.find((e) => e.type === 'action.queue.enter');
    return enter ? [at(enter) - scheduledAt] : [];
  });
  const prepare = facts.batches.flatMap((batch) => (batch.checksStartedAt === null ? [] : [batch.checksStartedAt - batch.startedAt]));
  const ended = uniqueAttempts(facts.log, 'action.queue.checks_end').filter((e) => !e.metadata.aborted);
  const verdictRecorded = ended.flatMap((end) => {
    const decided = facts.verdictAt.get(String(end.metadata.speculative_check_pull_request?.number));
    return decided === undefined ? [] : [at(end) - decided];
  });
  return { enterLag, prepare, verdictRecorded, merge: mergeDelays(facts.log, ended) };
}

/** Per merged batch: its merge time less the later of its checks passing and its parents merging. */
function mergeDelays(log: readonly TimedEvent[], ended: readonly TimedEvent[]): number[] {
  const mergedAt = new Map<string, number>();
  for (const leave of log) {
    if (leave.type !== 'action.queue.leave' || !leave.metadata.merged) continue;
    const id = String(leave.metadata.batch_id);
    mergedAt.set(id, Math.max(mergedAt.get(id) ?? 0, at(leave)));
  }
  const parents = new Map<string, string[]>();
  for (const start of log) if (start.type === 'action.queue.checks_start') parents.set(String(start.metadata.batch_id), start.metadata.parent_batch_ids ?? []);
  const passedAt = new Map(ended.filter((e) => e.metadata.speculative_check_pull_request?.checks_conclusion === 'success').map((e) => [String(e.metadata.batch_id), at(e)]));
  const delays: number[] = [];
  for (const [id, merged] of mergedAt) {
    const passed = passedAt.get(id);
    if (passed === undefined) continue;
    const free = Math.max(passed, ...(parents.get(id) ?? []).map((parent) => mergedAt.get(parent) ?? 0));
    delays.push(merged - free);
  }
  return delays;
}

function groupByPull(log: readonly TimedEvent[]): Map<bigint, TimedEvent[]> {
  const byNumber = new Map<bigint, TimedEvent[]>();
  for (const event of log) {
    if (event.pull_request === null) continue;
    const number = BigInt(event.pull_request);
    const mine = byNumber.get(number);
    if (mine) mine.push(event);
    else byNumber.set(number, [event]);
  }
  return byNumber;
}

function uniqueAttempts(log: readonly TimedEvent[], type: string): TimedEvent[] {
  const seen = new Map<string, TimedEvent>();
  for (const event of log) if (event.type === type && !seen.has(attemptKey(event))) seen.set(attemptKey(event), event);
  return [...seen.values()];
}
