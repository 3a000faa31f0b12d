// What a merge-queue run achieved, computed the same way for the simulation, the oracle and (in
// issue 15) the real executor: pull requests merged per hour, time in queue, CI spent.

export interface PullOutcome {
  number: number;
  arrivesAt: number;
  /** When it merged or left; null while still queued at the end. */
  leftAt: number | null;
  merged: boolean;
  /** Dequeue code when it left without merging. */
  code: string | null;
  bad: boolean;
}

export interface RunRecord {
  label: string;
  outcomes: PullOutcome[];
  /** CI runs started (aborted ones included). */
  ciRuns: number;
  /** Milliseconds of CI slots used (an aborted run counts until it was stopped). */
  ciBusyMs: number;
  /** Length of the run (arrivals end at the same time for every strategy). */
  periodMs: number;
}

export interface RunMetrics {
  label: string;
  merged: number;
  mergedPerHour: number;
  /** Minutes in queue of good pull requests: until merged, or until the end if still queued. */
  queueP50: number;
  queueP95: number;
  /** Pull requests in the queue at the end of each day: growth shows here. */
  queuedByDay: number[];
  queuedAtEnd: number;
  /** Good pull requests that left without merging (a strategy's wrongly blamed ones). */
  goodDequeued: number;
  /** Bad pull requests merged (never expected: a correctness check). */
  badMerged: number;
  ciRuns: number;
  ciRunsPerMerged: number;
  /** Share of the CI slots' time used. */
  ciUse: number;
}

const DAY = 86_400_000;
const MINUTE = 60_000;

export function percentileOf(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summarizeRun(record: RunRecord, slots: number): RunMetrics {
  const { outcomes, periodMs } = record;
  const good = outcomes.filter((pull) => !pull.bad);
  const timeInQueue = (pull: PullOutcome) => ((pull.leftAt ?? periodMs) - pull.arrivesAt) / MINUTE;
  const waited = good.filter((pull) => pull.merged || pull.leftAt === null);
  const days = Math.ceil(periodMs / DAY);
  const queuedByDay = Array.from({ length: days }, (_, day) => {
    const at = Math.min(periodMs, (day + 1) * DAY);
    return outcomes.filter((pull) => pull.arrivesAt <= at && (pull.leftAt === null || pull.leftAt > at)).length;
  });
  const merged = outcomes.filter((pull) => pull.merged).length;
  return {
    label: record.label,
    merged,
    mergedPerHour: merged / (periodMs / 3_600_000),
    queueP50: percentileOf(waited.map(timeInQueue), 50),
    queueP95: percentileOf(waited.map(timeInQueue), 95),
    queuedByDay,
    queuedAtEnd: outcomes.filter((pull) => pull.leftAt === null).length,
    goodDequeued: good.filter((pull) => !pull.merged && pull.leftAt !== null).length,
    badMerged: outcomes.filter((pull) => pull.bad && pull.merged).length,
    ciRuns: record.ciRuns,
    ciRunsPerMerged: merged === 0 ? Number.POSITIVE_INFINITY : record.ciRuns / merged,
    ciUse: record.ciBusyMs / (slots * periodMs),
  };
}
