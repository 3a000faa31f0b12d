// The public shapes of a queue's view (src/http/merge-queue/): estimates from recent check
// durations, batches in plan order with a bisection's parts nested, positions, the executor's
// progress, pauses and the pull requests waiting for scopes. Pure: views are built by hand from
// states the domain's transitions produce.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyBatchResult, planQueue } from '../../src/domain/merge-queue/index.ts';
import type { QueueState } from '../../src/domain/merge-queue/model.ts';
import { estimateBatches, median } from '../../src/http/merge-queue/estimates.ts';
import { queuePositions, renderQueuedPull, renderQueues } from '../../src/http/merge-queue/render-pull.ts';
import { renderStatus } from '../../src/http/merge-queue/render-status.ts';
import { newBatchRun, type BatchRun } from '../../src/services/merge-queue/batch-run.ts';
import type { QueueView } from '../../src/services/merge-queue/merge-queue-service.ts';
import type { QueuedPullFacts } from '../../src/storage/queries/merge-queues.ts';
import { advance } from '../support/merge-queue-driver.ts';
import { entryId, queueConfig, queueEntry, queueState, type ConfigOptions } from '../support/merge-queue-state.ts';

const NOW = 1_700_000_000_000;
const MIN = 60_000;
const iso = (time: number) => new Date(time).toISOString();

interface ViewOptions {
  durations?: number[];
  runs?: Record<string, BatchRun>;
  facts?: Record<number, Partial<QueuedPullFacts>>;
  pause?: { reason: string; pausedAt: Date };
}

function viewOf(state: QueueState, now: number, options: ViewOptions = {}): QueueView {
  const holds = { paused: options.pause !== undefined, frozen: false, pause: options.pause ?? null, freeze: null };
  state = { ...state, holds: { paused: holds.paused, frozen: false } };
  const facts = (n: bigint): QueuedPullFacts => ({ title: null, authorLogin: null, authorId: null, labels: [], draft: false, state: 'open', headSha: null, url: null, ...options.facts?.[Number(n)] });
  return {
    repository: { id: '1', owner: 'acme', name: 'widgets' } as QueueView['repository'],
    queue: null,
    baseRef: 'main',
    config: state.config,
    holds,
    state,
    plan: planQueue(state, now),
    now,
    batches: new Map(state.batches.map((batch) => [batch.id, { ...batch, finishedAt: null, frozenSince: null, frozenMs: 0, run: options.runs?.[batch.id] ?? null, cleaned: false }])),
    pulls: new Map(state.entries.map((entry) => [entry.number, facts(entry.number)])),
    checkDurations: options.durations ?? [],
    conditions: new Map(),
  };
}

/** A queue of `count` entries (#1…) advanced at NOW as an executor would: batches started and running. */
function started(count: number, options: ConfigOptions = {}): QueueState {
  return advance(queueState(queueConfig(options), Array.from({ length: count }, (_, i) => queueEntry(i + 1))), NOW).state;
}

const numbers = (pulls: { number: bigint }[]) => pulls.map((pull) => Number(pull.number));

test('median of recent durations: the middle one, or the mean of the two middle ones', () => {
  assert.equal(median([]), null);
  assert.equal(median([7]), 7);
  assert.equal(median([9, 1, 5]), 5);
  assert.equal(median([4, 1, 3, 2]), 3);
});

test('running batches end their checks at checks_started_at plus the median; they merge after their parents', () => {
  const state = started(3, { maxParallelChecks: 3 });
  const status = renderStatus(viewOf(state, NOW + 2 * MIN, { durations: [10 * MIN, 30 * MIN, 20 * MIN] }));
  assert.deepEqual(status.batches.map((b) => b.status.code), ['running', 'running', 'running']);
  assert.deepEqual(status.batches.map((b) => b.started_at), [iso(NOW), iso(NOW), iso(NOW)]);
  assert.deepEqual(status.batches.map((b) => b.estimated_ci_finish_at), [iso(NOW + 20 * MIN), iso(NOW + 20 * MIN), iso(NOW + 20 * MIN)]);
  assert.deepEqual(status.batches.map((b) => b.estimated_merge_at), [iso(NOW + 20 * MIN), iso(NOW + 20 * MIN), iso(NOW + 20 * MIN)]);
  assert.deepEqual(status.batches.map((b) => b.checks_timeout_at), [iso(NOW + 60 * MIN), iso(NOW + 60 * MIN), iso(NOW + 60 * MIN)]);
  assert.deepEqual(status.batches.map((b) => b.ci_finished_at), [null, null, null]);
});

test("with no check ended yet, the estimate is the rule's checks_timeout; checks overdue are estimated to end now", () => {
  const state = started(1, { checksTimeout: 1800 });
  assert.equal(estimateBatches(viewOf(state, NOW + MIN)).get(state.batches[0]!.id)?.ciFinishAt, NOW + 30 * MIN);
  assert.equal(estimateBatches(viewOf(state, NOW + 45 * MIN, { durations: [10 * MIN] })).get(state.batches[0]!.id)?.ciFinishAt, NOW + 45 * MIN);
});

test('a batch waiting for a check slot starts when its parent ends, then takes the median', () => {
  const state = started(2, { maxParallelChecks: 1 });
  const status = renderStatus(viewOf(state, NOW, { durations: [10 * MIN] }));
  assert.deepEqual(status.batches.map((b) => [b.status.code, b.started_at]), [['running', iso(NOW)], ['waiting_for_checks_slot', null]]);
  assert.deepEqual(status.batches.map((b) => b.estimated_ci_finish_at), [iso(NOW + 10 * MIN), iso(NOW + 20 * MIN)]);
  assert.deepEqual(status.batches.map((b) => b.estimated_merge_at), [iso(NOW + 10 * MIN), iso(NOW + 20 * MIN)]);
  assert.deepEqual(status.batches[1]!.parent_ids, [status.batches[0]!.id]);
  assert.deepEqual(status.batches[1]!.pull_requests.map((p) => p.estimated_merge_at), [iso(NOW + 20 * MIN)], "a pull request's estimates are its batch's");
});

test('a paused queue shows its pause and estimates no merge', () => {
  const state = started(1);
  const status = renderStatus(viewOf(state, NOW, { durations: [10 * MIN], pause: { reason: 'release', pausedAt: new Date(NOW - MIN) } }));
  assert.deepEqual(status.pause, { paused: true, reason: 'release', paused_at: iso(NOW - MIN) });
  assert.equal(status.batches[0]!.estimated_merge_at, null);
  assert.equal(status.batches[0]!.estimated_ci_finish_at, iso(NOW + 10 * MIN), 'running checks go on');
  assert.equal(renderStatus(viewOf(state, NOW)).pause, null);
});

test('a filling batch says how full it is and when it starts at the latest', () => {
  const state = queueState(queueConfig({ batchSize: 3, batchMaxWaitTime: 120, mode: 'parallel' }), [queueEntry(1, { scopes: ['api'], at: NOW / 1000 }), queueEntry(2, { scopes: ['web'], at: NOW / 1000 })]);
  const status = renderStatus(viewOf(state, NOW + 1000));
  const filling = status.batches.filter((b) => b.status.code === 'waiting_for_batch');
  assert.ok(filling.length > 0, JSON.stringify(status.batches.map((b) => b.status)));
  for (const batch of filling) {
    assert.deepEqual([batch.status.batch_filled_slots, batch.status.max_batch_slots, batch.status.batch_max_start_at], [1, 3, iso(NOW + 120_000)]);
    assert.equal(batch.estimated_ci_finish_at, iso(NOW + 120_000 + 3_600_000), 'starts when its wait ends');
  }
});

test('a bisecting batch holds its parts; positions count through the parts', () => {
  let state = started(4, { batchSize: 4 });
  const original = state.batches[0]!;
  state = advance(applyBatchResult(state, original.id, { kind: 'failed' }, NOW + MIN).state, NOW + MIN).state;
  const view = viewOf(state, NOW + 2 * MIN, { durations: [10 * MIN] });
  const status = renderStatus(view);
  assert.equal(status.batches.length, 1, 'the parts are nested, not listed beside it');
  const bisecting = status.batches[0]!;
  assert.deepEqual([bisecting.id, bisecting.status.code], [original.id, 'bisecting']);
  assert.deepEqual(bisecting.sub_batches?.map((sub) => [sub.status.code, numbers(sub.pull_requests)]), [['running', [1, 2]], ['running', [3, 4]]]);
  assert.deepEqual(bisecting.sub_batches?.map((sub) => sub.sub_batches), [null, null]);
  assert.equal(bisecting.ci_finished_at, iso(NOW + MIN), 'its own checks ended when they failed');
  assert.equal(bisecting.estimated_ci_finish_at, iso(NOW + 11 * MIN), 'it is done when its parts are');
  assert.deepEqual(bisecting.sub_batches?.map((sub) => sub.estimated_ci_finish_at), [iso(NOW + 11 * MIN), iso(NOW + 11 * MIN)]);
  assert.deepEqual([...queuePositions(view).values()], [0, 1, 2, 3]);
  assert.equal(renderQueuedPull(view, state.entries.find((e) => e.number === 3n)!).position, 2);
});

test("the executor's progress: checks summary, the check pull request, the mergeability check", () => {
  const state = started(1);
  const batch = state.batches[0]!;
  const run: BatchRun = { ...newBatchRun(0, 'switchyard/merge-queue/main/x', 'switchyard-tmp/merge-queue/main/x'), checkPull: { number: '9223372036854775807', inPlace: false }, checks: { passed: 3, total: 5 } };
  run.unsuccessfulChecks = [{ name: 'lint', description: 'failed', url: null, state: 'failure', avatar_url: null }];
  const view = viewOf(state, NOW + MIN, { runs: { [batch.id]: run } });
  const status = renderStatus(view);
  assert.deepEqual(status.batches[0]!.checks_summary, { passed: 3, total: 5 });
  assert.equal(status.batches[0]!.queue_pull_request_number, 9223372036854775807n);
  const pull = renderQueuedPull(view, state.entries[0]!);
  assert.deepEqual(pull.mergeability_check, {
    check_type: 'draft_pr',
    queue_pull_request_number: 9223372036854775807n,
    started_at: iso(NOW),
    ci_ended_at: null,
    ci_state: 'pending',
    state: 'pending',
    checks: run.unsuccessfulChecks,
    conditions_evaluation: null,
  });
  assert.equal(pull.checks_timeout_at, iso(NOW + 60 * MIN));
  const queued = renderQueues([view]).queues[0]!.pull_requests[0]!;
  assert.deepEqual(queued.mergeability_check, { check_type: 'draft_pr', pull_request_number: 9223372036854775807n, started_at: iso(NOW), ended_at: null, state: 'pending' });
  assert.equal(renderQueuedPull(viewOf(state, NOW + MIN), state.entries[0]!).mergeability_check, null, 'no check pull request yet');
});

test('pull requests waiting for scopes come after the batches, with no estimate; known facts only', () => {
  const state = queueState(queueConfig({ mode: 'parallel' }), [queueEntry(1, { scopes: ['api'] }), queueEntry(2, { scopes: null }), queueEntry(3, { scopes: ['web'] })]);
  const view = viewOf(state, 2000, { facts: { 1: { title: 'Add API', authorLogin: 'alice', authorId: 42n, labels: ['api'] }, 2: { title: 'Draft idea', authorLogin: 'bob' } } });
  const status = renderStatus(view);
  assert.deepEqual(status.batches.map((b) => numbers(b.pull_requests)), [[1], [3]]);
  assert.deepEqual(numbers(status.waiting_pull_requests), [2]);
  const waiting = status.waiting_pull_requests[0]!;
  assert.deepEqual([waiting.estimated_merge_at, waiting.estimated_ci_finish_at, waiting.scopes, waiting.all_scopes], [null, null, [], null]);
  assert.equal(waiting.author, null, 'an author without an id is not shown');
  assert.deepEqual(status.batches[0]!.pull_requests[0]!.author, { id: 42n, login: 'alice' });
  assert.deepEqual(status.scope_queues, { api: [status.batches[0]!.id], web: [status.batches[1]!.id] });
  assert.equal(status.mode, 'parallel');
  assert.deepEqual(Object.fromEntries(queuePositions(view)), { [entryId(1)]: 0, [entryId(3)]: 1, [entryId(2)]: 2 });
});
