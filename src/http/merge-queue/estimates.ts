// When each batch of a queue's plan should finish its checks and merge, for the public status
// (DESIGN.md §9: "estimates from recent check durations"). Pure: computed from the view a read
// endpoint loaded. A running batch ends its checks at checks_started_at plus the typical
// duration; a batch not started yet starts once its parents' checks end (or when it stops
// filling), then takes the typical duration; a batch merges once it and its parents are done.
import { checksTimeoutAt } from '../../domain/merge-queue/assign-statuses.ts';
import type { PlannedBatch } from '../../domain/merge-queue/model.ts';
import { queueRule } from '../../domain/merge-queue/queue-rule.ts';
import type { QueueView } from '../../services/merge-queue/merge-queue-service.ts';

export interface BatchTimes {
  /** When its checks end (ended, or estimated); null when it cannot be estimated. */
  ciFinishAt: number | null;
  /** When its checks ended; null while they have not. */
  ciFinishedAt: number | null;
  /** When it merges; null when it cannot be estimated (paused, frozen with no end, failed). */
  mergeAt: number | null;
  /** When its running checks time out. */
  checksTimeoutAt: number | null;
}

export type EstimateInput = Pick<QueueView, 'plan' | 'state' | 'batches' | 'checkDurations' | 'holds' | 'now'>;

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : Math.round(((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2);
}

/**
 * The duration checks are expected to take: the median of the queue's recent check durations;
 * with none yet, the rule's checks_timeout, the longest checks can run before they time out (so
 * a first estimate is late rather than early).
 */
export function typicalCheckMs(view: Pick<EstimateInput, 'checkDurations' | 'state'>, ruleName: string): number {
  return median(view.checkDurations) ?? queueRule(view.state.config, ruleName).checks_timeout * 1000;
}

const latest = (times: readonly (number | null)[]): number | null => (times.some((t) => t === null) ? null : Math.max(...(times as number[])));

export function estimateBatches(view: EstimateInput): Map<string, BatchTimes> {
  const planned = new Map(view.plan.batches.map((batch) => [batch.id, batch]));
  const stored = new Map(view.state.batches.map((batch) => [batch.id, batch]));
  const times = new Map<string, BatchTimes>();
  const { paused, frozen } = view.holds;
  const freezeEnd = view.holds.freeze?.end?.getTime() ?? null;

  const visiting = new Set<string>();
  const UNKNOWN: BatchTimes = { ciFinishAt: null, ciFinishedAt: null, mergeAt: null, checksTimeoutAt: null };

  const timesOf = (batch: PlannedBatch): BatchTimes => {
    const known = times.get(batch.id);
    if (known) return known;
    // A cycle (a sub-batch naming the batch it splits as a parent) is not estimated.
    if (visiting.has(batch.id)) return UNKNOWN;
    visiting.add(batch.id);
    const parents = batch.parentIds.flatMap((id) => planned.get(id) ?? []).map(timesOf);
    const run = stored.get(batch.id) ?? null;
    const typical = typicalCheckMs(view, batch.queueRule);
    let ciFinishAt: number | null;
    // A bisecting batch is done when its parts are, whenever its own checks ended.
    if (batch.subBatchIds.length > 0) ciFinishAt = latest(batch.subBatchIds.flatMap((id) => planned.get(id) ?? []).map((sub) => timesOf(sub).ciFinishAt));
    else if (run?.checksEndedAt != null) ciFinishAt = run.checksEndedAt;
    else if (run?.checksStartedAt != null) ciFinishAt = Math.max(view.now, run.checksStartedAt + typical);
    else if (run?.phase === 'preparing') ciFinishAt = view.now + typical;
    else {
      const start = latest([view.now, batch.startsAt ?? view.now, ...parents.map((p) => p.ciFinishAt)]);
      ciFinishAt = start === null ? null : start + typical;
    }
    const mergeable = !paused && !(frozen && freezeEnd === null) && run?.phase !== 'parked';
    const mergeAt = mergeable ? latest([ciFinishAt, ...parents.map((p) => p.mergeAt), ...(frozen ? [freezeEnd] : [])]) : null;
    const result: BatchTimes = {
      ciFinishAt,
      ciFinishedAt: run?.checksEndedAt ?? null,
      mergeAt,
      checksTimeoutAt: run?.phase === 'running' ? checksTimeoutAt(run, view.state) : null,
    };
    times.set(batch.id, result);
    return result;
  };
  for (const batch of view.plan.batches) timesOf(batch);
  return times;
}
