// The statistics' pure maths (src/domain/merge-queue-stats/): percentiles as PostgreSQL's
// percentile_cont, intervals as the activity log's histogram, the window's rules, gauges
// weighted by time, and the bounded labels of /metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distributionOf } from '../../src/domain/merge-queue-stats/distribution.ts';
import { windowIntervals } from '../../src/domain/merge-queue-stats/stats-intervals.ts';
import { statsWindow } from '../../src/domain/merge-queue-stats/stats-window.ts';
import { gaugeSeries } from '../../src/domain/merge-queue-stats/gauge-stats.ts';
import { LabelBudget, OTHER } from '../../src/domain/merge-queue-stats/label-budget.ts';
import { observationsOf, type MetricEvent } from '../../src/domain/merge-queue-stats/metric-observations.ts';
import { ValidationError } from '../../src/errors.ts';

const H = 3_600_000;

test('percentiles interpolate between the closest ranks; nothing has no distribution', () => {
  const d = distributionOf([4, 1, 3, 2])!;
  assert.deepEqual([d.count, d.sum, d.mean, d.min, d.max], [4, 10, 2.5, 1, 4]);
  assert.equal(d.percentile(0.5), 2.5);
  assert.ok(Math.abs(d.percentile(0.95) - 3.85) < 1e-12);
  assert.equal(d.percentile(0), 1);
  assert.equal(distributionOf([7])!.percentile(0.95), 7);
  assert.equal(distributionOf([]), undefined);
});

test('intervals: the histogram steps, epoch-aligned, covering the window', () => {
  const day = windowIntervals({ from: new Date(Date.UTC(2024, 4, 1, 0, 5)), to: new Date(Date.UTC(2024, 4, 2, 0, 5)) });
  assert.equal(day.stepSeconds, 600);
  assert.equal(day.list.length, 145, 'the first and last intervals are partly outside the window');
  assert.equal(day.list[0]!.start, '2024-05-01T00:00:00.000Z');
  assert.equal(day.of(Date.UTC(2024, 4, 1, 0, 4)), undefined, 'before the window');
  assert.equal(day.of(Date.UTC(2024, 4, 1, 12, 34))!.start, '2024-05-01T12:30:00.000Z');
  assert.equal(windowIntervals({ from: new Date(0), to: new Date(93 * 24 * H) }).stepSeconds, 86400);
});

test('the window: defaults, order and length, each refused with the parameter it names', () => {
  const now = new Date(Date.UTC(2024, 4, 10));
  assert.deepEqual(statsWindow({}, now), { from: new Date(now.getTime() - 24 * H), to: now });
  const issue = (params: object) => {
    try {
      statsWindow(params, now);
    } catch (error) {
      return (error as ValidationError).issues.map((i) => `${i.loc.join('.')} ${i.type}`);
    }
    return [];
  };
  assert.deepEqual(issue({ start_at: '2024-05-10T00:00:00Z' }), ['query.start_at window_order']);
  assert.deepEqual(issue({ start_at: '2024-01-01T00:00:00Z' }), ['query.start_at window_too_long']);
  assert.deepEqual(issue({ start_at: 'soon', end_at: '2024-05-01' }), ['query.end_at format', 'query.start_at format']);
});

test('a gauge is weighted by the time it held each value, from its last value before the window', () => {
  const from = Date.UTC(2024, 4, 1);
  const window = { from: new Date(from), to: new Date(from + 24 * H) };
  const row = (at: number, size: number, base = 'main') => ({ id: String(at), at, base_ref: base, queue_name: 'default', priority_rule_name: null, size });
  const [group] = gaugeSeries([row(from + 10 * 60_000 + 2 * 60_000, 5)], [row(from - H, 2)], 'size', { window, now: from + 25 * H, intervals: windowIntervals(window), withPriority: true });
  assert.deepEqual(group!.stats[0], { start: '2024-05-01T00:00:00.000Z', end: '2024-05-01T00:10:00.000Z', avg: 2, max: 2, min: 2 });
  // 2 for 2 minutes, then 5 for 8.
  assert.deepEqual(group!.stats[1], { start: '2024-05-01T00:10:00.000Z', end: '2024-05-01T00:20:00.000Z', avg: 4.4, max: 5, min: 2 });
  const unknown = gaugeSeries([row(from + 3 * H, 1)], [], 'size', { window, now: from + 4 * H, intervals: windowIntervals(window), withPriority: true });
  assert.equal(unknown[0]!.stats[0]!.start, '2024-05-01T03:00:00.000Z', 'nothing said before the first value');
  assert.equal(unknown[0]!.stats.at(-1)!.start, '2024-05-01T03:50:00.000Z', 'nor after now');
});

test('metric labels: each pair its own series up to the limit, then (other), for good', () => {
  const budget = new LabelBudget(2);
  assert.deepEqual(budget.labels('a/x', 'main'), { repository: 'a/x', branch: 'main' });
  assert.deepEqual(budget.labels('a/x', 'dev'), { repository: 'a/x', branch: 'dev' });
  assert.deepEqual(budget.labels('b/y', 'main'), { repository: OTHER, branch: OTHER });
  assert.deepEqual(budget.labels('a/x', 'main'), { repository: 'a/x', branch: 'main' });
});

test('metric observations: a leave is a time in queue and an exit; a concluded attempt a CI duration, once', () => {
  const base = { repository: 'a/x', branch: 'main', queued_at: null, dequeue_code: null, aborted: null, batch_id: null, checks_started_at: null, checks_ended_at: null };
  const end = (extra: Partial<MetricEvent>): MetricEvent => ({ ...base, type: 'action.queue.checks_end', at: 0, batch_id: 'b', checks_started_at: '2024-05-01T00:00:00Z', checks_ended_at: '2024-05-01T00:05:00Z', aborted: false, ...extra });
  const observed = observationsOf([
    { ...base, type: 'action.queue.leave', at: Date.UTC(2024, 4, 1, 1), queued_at: '2024-05-01T00:00:00Z', dequeue_code: 'PR_MERGED' },
    { ...base, type: 'action.queue.leave', at: 0, dequeue_code: 'SOMETHING_NEW' },
    end({}),
    end({}),
    end({ aborted: true, batch_id: 'c' }),
  ]);
  assert.deepEqual(observed.map((o) => ('seconds' in o ? [o.kind, o.seconds] : [o.kind, o.reason])), [['time_in_queue', 3600], ['exit', 'PR_MERGED'], ['exit', 'other'], ['ci_duration', 300]]);
});
