// Gauges told by interval: the queue's size (action.queue.change `size`) and the checks running
// (action.queue.checks.change `running_checks`) change in steps, each event giving the value
// from its instant on. Per interval: the time-weighted mean, the least and the most it held.
// Before a group's first change in the window, its value is the last one before the window
// (storage looks back a while); where it is not known, and after now, nothing is said.
import { byGroup, groupKey } from './stats-groups.ts';
import type { Edges } from './interval-series.ts';
import type { Intervals } from './stats-intervals.ts';
import { numberOf, type StatsGroup, type StatsRow } from './stats-rows.ts';
import type { TimeWindow } from '../activity-log/time-window.ts';

export type GaugeField = 'size' | 'running_checks';

export interface GaugeStat {
  avg: number;
  max: number;
  min: number;
}

interface Step {
  from: number;
  to: number;
  value: number;
}

/**
 * `changes` in the window, in time order; `before`: each group's last change before the window.
 * `field` is the value read; `withPriority` whether groups are told by priority rule.
 */
export function gaugeSeries<F extends GaugeField>(changes: readonly StatsRow<F>[], before: readonly StatsRow<F>[], field: F, context: { window: TimeWindow; now: number; intervals: Intervals; withPriority: boolean }) {
  const end = Math.min(context.window.to.getTime(), context.now);
  const initial = new Map(before.map((row) => [groupKey(row, context.withPriority), countOf(row[field])]));
  const groups = byGroup([...before, ...changes], context.withPriority).map(({ group, rows }) => {
    const inWindow = rows.filter((row) => row.at >= context.window.from.getTime());
    const steps = stepsOf(initial.get(groupKey(group, context.withPriority)), inWindow, field, context.window.from.getTime(), end);
    return { group, stats: context.intervals.list.flatMap((interval) => statOf(steps, interval)) };
  });
  return groups.filter((g) => g.stats.length > 0);
}

/** A size or a number of checks: an ingested event may say anything, and a negative count is no count. */
function countOf(value: unknown): number | undefined {
  const n = numberOf(value);
  return n !== undefined && n >= 0 ? n : undefined;
}

function stepsOf<F extends GaugeField>(start: number | undefined, rows: StatsRow<F>[], field: F, from: number, end: number): Step[] {
  const steps: Step[] = [];
  let value = start;
  let since = from;
  for (const row of [...rows].sort((a, b) => a.at - b.at)) {
    if (row.at >= end) break;
    if (value !== undefined && row.at > since) steps.push({ from: since, to: row.at, value });
    value = countOf(row[field]) ?? value;
    since = row.at;
  }
  if (value !== undefined && end > since) steps.push({ from: since, to: end, value });
  return steps;
}

function statOf(steps: Step[], interval: { startMs: number; endMs: number } & Edges): (Edges & GaugeStat)[] {
  let weighted = 0;
  let span = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const step of steps) {
    const overlap = Math.min(step.to, interval.endMs) - Math.max(step.from, interval.startMs);
    if (overlap <= 0) continue;
    weighted += step.value * overlap;
    span += overlap;
    min = Math.min(min, step.value);
    max = Math.max(max, step.value);
  }
  return span === 0 ? [] : [{ start: interval.start, end: interval.end, avg: weighted / span, max, min }];
}

export type GaugeGroup = { group: StatsGroup; stats: (Edges & GaugeStat)[] };
