// The ideal for the same CI budget: an oracle that knows which pull requests are bad and never
// wastes a run. It has the same CI slots and CI durations as the strategies; whenever a slot is
// free and good pull requests wait, it checks up to `maxBatch` of them in one run (it cannot
// fail), and merges them when the run ends; bad pull requests never take a run. So each good
// pull request waits only for a free slot, then one CI run: no strategy with these slots and
// batch sizes can merge sooner on average, and none spends fewer runs per merged pull request.
import type { RunRecord, PullOutcome } from './merge-queue-metrics.ts';
import type { Scenario } from './merge-queue-scenario.ts';

export function simulateIdeal(scenario: Scenario, slots: number, maxBatch: number): RunRecord {
  const end = scenario.options.hours * 3_600_000 * scenario.scale;
  // Bad pull requests are turned away on arrival: the oracle needs no run to know.
  const outcomes = new Map<number, PullOutcome>(
    scenario.pulls.map((pull) => [pull.number, { number: pull.number, arrivesAt: pull.arrivesAt, leftAt: pull.bad ? pull.arrivesAt : null, merged: false, code: pull.bad ? 'CHECKS_FAILED' : null, bad: pull.bad }]),
  );
  const good = scenario.pulls.filter((pull) => !pull.bad);
  const slotFreeAt = Array.from({ length: slots }, () => 0);
  let runs = 0;
  let busyMs = 0;
  let next = 0;
  while (next < good.length) {
    const slot = slotFreeAt.indexOf(Math.min(...slotFreeAt));
    const startsAt = Math.max(slotFreeAt[slot]!, good[next]!.arrivesAt);
    if (startsAt >= end) break;
    const batch: number[] = [];
    while (next < good.length && batch.length < maxBatch && good[next]!.arrivesAt <= startsAt) batch.push(next++);
    const duration = scenario.ciDuration(runs++);
    const endsAt = startsAt + duration;
    slotFreeAt[slot] = endsAt;
    busyMs += Math.min(endsAt, end) - startsAt;
    if (endsAt > end) continue;
    for (const index of batch) {
      const outcome = outcomes.get(good[index]!.number)!;
      outcome.leftAt = endsAt;
      outcome.merged = true;
    }
  }
  return { label: `ideal (oracle, ${slots} slots, batches ≤ ${maxBatch})`, outcomes: [...outcomes.values()], ciRuns: runs, ciBusyMs: busyMs, periodMs: end };
}
