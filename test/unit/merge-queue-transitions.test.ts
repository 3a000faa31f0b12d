// The merge queue's transitions (DESIGN §10): results, retries, bisection, parking, aborts,
// timeouts, merges and resets, with the changes storage turns into events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyBatchResult,
  baseMovedOutside,
  dequeueImpact,
  markChecksStarted,
  mergeBatch,
  planQueue,
  removeEntry,
  resetQueue,
  startBatches,
} from '../../src/domain/merge-queue/index.ts';
import type { QueueChange, QueueState } from '../../src/domain/merge-queue/model.ts';
import { advance, planSummary, report, runningBatchOf } from '../support/merge-queue-driver.ts';
import { entryId, queueConfig, queueEntry, queueState, type ConfigOptions } from '../support/merge-queue-state.ts';

const NOW = 1_000_000;

function queue(count: number, options: ConfigOptions = {}): QueueState {
  return advance(queueState(queueConfig(options), Array.from({ length: count }, (_, i) => queueEntry(i + 1))), NOW).state;
}

const kinds = (changes: readonly QueueChange[]) => changes.map((change) => change.kind);
const left = (changes: readonly QueueChange[]) =>
  changes.flatMap((change) => (change.kind === 'entry_left' ? [`${change.entryId.replace('entry-000', '#')} ${change.code}`] : []));
const aborted = (changes: readonly QueueChange[]) => changes.flatMap((change) => (change.kind === 'batch_aborted' ? [change.code] : []));
const requeued = (changes: readonly QueueChange[]) => changes.flatMap((change) => (change.kind === 'entry_requeued' ? [change.entryId] : []));
const ofKind = <K extends QueueChange['kind']>(changes: readonly QueueChange[], kind: K) =>
  changes.filter((change): change is Extract<QueueChange, { kind: K }> => change.kind === kind);

test('starting stores the batch as preparing and counts the embark; checks started make it running', () => {
  const state = queueState(queueConfig(), [queueEntry(1)]);
  const plan = planQueue(state, NOW);
  const started = startBatches(state, plan, NOW);
  assert.deepEqual(kinds(started.changes), ['batch_started']);
  assert.equal(started.state.batches[0]?.phase, 'preparing');
  assert.equal(started.state.batches[0]?.startedAt, NOW);
  assert.equal(started.state.entries[0]?.embarkCount, 1);
  assert.equal(state.entries[0]?.embarkCount, 0, 'the input state is left alone');
  const running = markChecksStarted(started.state, plan.toStart[0]!, NOW + 5);
  assert.deepEqual(running.changes, [{ kind: 'batch_phase', batchId: plan.toStart[0], phase: 'running', at: NOW + 5 }]);
  assert.equal(running.state.batches[0]?.checksStartedAt, NOW + 5);
  assert.throws(() => startBatches(started.state, plan, NOW), /not waiting in the queue/);
});

test('passed: a batch waits for its parents to merge, then merges and its entries leave PR_MERGED', () => {
  let step = { state: queue(2, { maxParallelChecks: 2 }) };
  step = report(step.state, 2, 'passed', NOW + 10);
  assert.deepEqual(planSummary(planQueue(step.state, NOW + 10)), ['#1: running', '#2: waiting_for_merge']);
  const second = runningBatchOf(queue(2, { maxParallelChecks: 2 }), 2).id;
  assert.throws(() => mergeBatch(step.state, second, NOW + 10), /before its parent/);
  const done = report(step.state, 1, 'passed', NOW + 20);
  assert.deepEqual(left(done.changes), ['#1 PR_MERGED', '#2 PR_MERGED']);
  assert.deepEqual(done.state.entries, []);
  assert.deepEqual(done.state.batches, [], 'merged batches are dropped from the state');
});

test('mergeBatch refuses a batch that did not pass, and one held by a pause', () => {
  const state = queue(1);
  const id = state.batches[0]!.id;
  assert.throws(() => mergeBatch(state, id, NOW), /is running, not passed/);
  const passed = applyBatchResult(state, id, { kind: 'passed' }, NOW).state;
  assert.throws(() => mergeBatch({ ...passed, holds: { paused: true, frozen: false } }, id, NOW), /pause or freeze/);
});

test('a failure is retried while retries remain, then the single entry leaves CHECKS_FAILED', () => {
  const state = queue(1, { maxChecksRetries: 1 });
  const id = state.batches[0]!.id;
  const first = applyBatchResult(state, id, { kind: 'failed' }, NOW + 1);
  assert.deepEqual(first.changes, [
    { kind: 'checks_ended', batchId: id, conclusion: 'failure', retries: 0, at: NOW + 1 },
    { kind: 'batch_retried', batchId: id, retries: 1, phase: 'preparing' },
  ]);
  assert.equal(first.state.batches[0]?.phase, 'preparing');
  const again = markChecksStarted(first.state, id, NOW + 2).state;
  const second = applyBatchResult(again, id, { kind: 'failed' }, NOW + 3);
  assert.deepEqual(kinds(second.changes), ['checks_ended', 'batch_phase', 'entry_left']);
  assert.deepEqual(left(second.changes), ['#1 CHECKS_FAILED']);
  assert.equal(ofKind(second.changes, 'checks_ended')[0]?.retries, 1);
});

test('a failed batch aborts its descendants, whose entries go back to the queue', () => {
  const state = queue(3, { maxParallelChecks: 3 });
  const failed = report(state, 1, 'failed', NOW + 1);
  assert.deepEqual(left(failed.changes), ['#1 CHECKS_FAILED']);
  assert.deepEqual(aborted(failed.changes), ['BATCH_AHEAD_FAILED', 'BATCH_AHEAD_FAILED']);
  assert.deepEqual(requeued(failed.changes), [entryId(2), entryId(3)]);
  assert.ok(ofKind(failed.changes, 'batch_aborted').every((change) => change.status === 'REEMBARKED' && change.phaseBefore === 'running'));
  // Re-planned and started again at once, with new batch ids.
  assert.deepEqual(planSummary(failed.plan), ['#2: running', '#3: running']);
  assert.ok(!failed.plan.batches.some((batch) => state.batches.some((old) => old.id === batch.id)));
});

test('bisection finds one culprit: first half on the parents, the rest on top of it', () => {
  let step = { state: queue(4, { batchSize: 4 }), changes: [] as QueueChange[] };
  const original = step.state.batches[0]!;
  step = report(step.state, 1, 'failed', NOW + 1);
  const start = ofKind(step.changes, 'bisection_started')[0]!;
  assert.equal(start.batchId, original.id);
  assert.equal(start.depth, 1);
  const [first, rest] = start.subBatches;
  assert.deepEqual([first?.name, rest?.name], ['#1 #2', '#3 #4']);
  assert.deepEqual(first?.parentIds, original.parentIds);
  assert.deepEqual(rest?.parentIds, [...original.parentIds, first?.id]);
  assert.deepEqual(first?.bisection, { of: original.id, depth: 1 });
  const plan = planQueue(step.state, NOW + 1);
  assert.deepEqual(planSummary(plan), ['#1 #2 #3 +1: bisecting', '#1 #2: running', '#3 #4: running']);
  assert.deepEqual(plan.batches[0]?.subBatchIds, [first?.id, rest?.id]);
  assert.equal(plan.batches[1]?.subBatchOf, original.id);

  // #3 is bad: the first half passes, the rest fails and splits again (depth 2).
  step = report(step.state, 1, 'passed', NOW + 2);
  assert.deepEqual(left(step.changes), ['#1 PR_MERGED', '#2 PR_MERGED'], 'a passed half merges at once');
  step = report(step.state, 3, 'failed', NOW + 3);
  assert.equal(ofKind(step.changes, 'bisection_started')[0]?.depth, 2);
  step = report(step.state, 3, 'failed', NOW + 4);
  assert.deepEqual(left(step.changes), ['#3 CHECKS_FAILED']);
  assert.deepEqual(requeued(step.changes), [entryId(4)], '#4 was checked on top of #3: checked again');
  const ends = ofKind(step.changes, 'bisection_ended');
  assert.deepEqual(
    ends.map((end) => [end.batchId === original.id ? 'top' : 'inner', end.culpritEntryIds, end.remainingEntryIds]),
    [
      ['inner', [entryId(3)], [entryId(4)]],
      ['top', [entryId(3)], [entryId(1), entryId(2), entryId(4)]],
    ],
  );
  step = report(step.state, 4, 'passed', NOW + 5);
  assert.deepEqual(left(step.changes), ['#4 PR_MERGED']);
  assert.deepEqual(step.state.batches, []);
});

test('bisection with two bad pull requests: both leave CHECKS_FAILED, the others merge', () => {
  const bad = new Set([2, 4]);
  let state = queue(6, { batchSize: 6, maxParallelChecks: 4 });
  const culprits: string[][] = [];
  const leaves: string[] = [];
  for (let round = 0; round < 30 && state.entries.length > 0; round++) {
    const running = state.batches.filter((batch) => batch.phase === 'running');
    const batch = running[0]!;
    const closure = new Set(batch.entryIds);
    for (const parentId of batch.parentIds) for (const id of state.batches.find((b) => b.id === parentId)?.entryIds ?? []) closure.add(id);
    const verdict = [...closure].some((id) => bad.has(Number(id.slice(6)))) ? 'failed' : 'passed';
    const applied = applyBatchResult(state, batch.id, { kind: verdict }, NOW + round);
    const next = advance(applied.state, NOW + round);
    for (const change of [...applied.changes, ...next.changes]) if (change.kind === 'bisection_ended' && change.culpritEntryIds.length > 0) culprits.push([...change.culpritEntryIds]);
    leaves.push(...left([...applied.changes, ...next.changes]));
    state = next.state;
  }
  assert.deepEqual(state.entries, []);
  assert.deepEqual(leaves.filter((line) => line.endsWith('CHECKS_FAILED')).sort(), ['#2 CHECKS_FAILED', '#4 CHECKS_FAILED']);
  assert.deepEqual(leaves.filter((line) => line.endsWith('PR_MERGED')).sort(), ['#1 PR_MERGED', '#3 PR_MERGED', '#5 PR_MERGED', '#6 PR_MERGED']);
  assert.ok(culprits.flat().includes(entryId(2)) && culprits.flat().includes(entryId(4)));
});

test('a flaky failure: both halves pass, no culprit, every entry merges', () => {
  let step = report(queue(2, { batchSize: 2 }), 1, 'failed', NOW + 1);
  step = report(step.state, 2, 'passed', NOW + 2);
  assert.deepEqual(left(step.changes), [], 'the rest waits for the first half to merge');
  step = report(step.state, 1, 'passed', NOW + 3);
  assert.deepEqual(left(step.changes), ['#1 PR_MERGED', '#2 PR_MERGED']);
  const end = ofKind(step.changes, 'bisection_ended')[0]!;
  assert.deepEqual([end.culpritEntryIds, end.remainingEntryIds], [[], [entryId(1), entryId(2)]]);
});

test('a failure under a parent still running parks; the parent passing makes it its own', () => {
  let step = report(queue(2, { maxParallelChecks: 2 }), 2, 'failed', NOW + 1);
  assert.deepEqual(left(step.changes), []);
  assert.deepEqual(planSummary(step.plan), ['#1: running', '#2: waiting_for_previous_batches']);
  assert.equal(step.state.batches[1]?.phase, 'parked');
  step = report(step.state, 1, 'passed', NOW + 2);
  assert.deepEqual(left(step.changes), ['#2 CHECKS_FAILED', '#1 PR_MERGED']);
});

test('a parked batch with retries left is retried once its parents pass, waiting for a slot', () => {
  let step = report(queue(2, { maxParallelChecks: 2, maxChecksRetries: 1 }), 2, 'failed', NOW + 1);
  assert.deepEqual(kinds(step.changes), ['checks_ended', 'batch_phase'], 'parked: no retry spent yet');
  const parkedId = step.state.batches[1]!.id;
  const passed = applyBatchResult(step.state, step.state.batches[0]!.id, { kind: 'passed' }, NOW + 2);
  assert.deepEqual(ofKind(passed.changes, 'batch_retried'), [{ kind: 'batch_retried', batchId: parkedId, retries: 1, phase: 'pending' }]);
  assert.deepEqual(planQueue(passed.state, NOW + 2).toStart, [parkedId]);
});

test('a parked batch whose parent fails is aborted and checked again', () => {
  let step = report(queue(2, { maxParallelChecks: 2 }), 2, 'failed', NOW + 1);
  step = report(step.state, 1, 'failed', NOW + 2);
  assert.deepEqual(left(step.changes), ['#1 CHECKS_FAILED']);
  assert.deepEqual(ofKind(step.changes, 'batch_aborted').map((change) => [change.code, change.phaseBefore]), [['BATCH_AHEAD_FAILED', 'parked']]);
  assert.deepEqual(planSummary(step.plan), ['#2: running']);
});

test('a proposed batch descending from a bisecting batch waits for the bisection', () => {
  const state = queue(2, { batchSize: 2, maxParallelChecks: 5 });
  const bisecting = report(state, 1, 'failed', NOW + 1).state;
  const plan = planQueue({ ...bisecting, entries: [...bisecting.entries, queueEntry(3)] }, NOW + 1);
  assert.deepEqual(planSummary(plan), ['#1 #2: bisecting', '#1: running', '#2: running', '#3: waiting_for_previous_batches']);
});

test('a timeout is retried, then its entries leave CHECKS_TIMEOUT and its descendants are aborted', () => {
  const state = queue(2, { maxParallelChecks: 2, maxChecksRetries: 1, checksTimeout: 60 });
  assert.deepEqual(planQueue(state, NOW + 59_999).toTimeOut, []);
  assert.deepEqual(planQueue(state, NOW + 60_000).toTimeOut, state.batches.map((batch) => batch.id));
  let step = report(state, 1, 'timed_out', NOW + 60_000);
  assert.deepEqual(kinds(step.changes).slice(0, 2), ['checks_ended', 'batch_retried']);
  assert.equal(ofKind(step.changes, 'checks_ended')[0]?.conclusion, 'timed_out');
  step = report(step.state, 1, 'timed_out', NOW + 120_000);
  assert.deepEqual(left(step.changes), ['#1 CHECKS_TIMEOUT']);
  assert.deepEqual(aborted(step.changes), ['BATCH_AHEAD_FAILED']);
});

test('a result for a batch that is not running changes nothing', () => {
  const state = queue(1);
  const id = state.batches[0]!.id;
  const done = applyBatchResult(state, id, { kind: 'passed' }, NOW);
  assert.deepEqual(applyBatchResult(done.state, id, { kind: 'failed' }, NOW).changes, []);
  assert.deepEqual(applyBatchResult(state, 'no-such-batch', { kind: 'failed' }, NOW).changes, []);
});

test('an entry leaving aborts its batch (its code) and the descendants (PR_AHEAD_DEQUEUED)', () => {
  const state = queue(5, { batchSize: 2, maxParallelChecks: 3 });
  const removed = removeEntry(state, entryId(2), 'PULL_REQUEST_UPDATED', NOW + 1);
  assert.deepEqual(left(removed.changes), ['#2 PULL_REQUEST_UPDATED']);
  assert.equal(ofKind(removed.changes, 'entry_left')[0]?.batchId, state.batches[0]?.id);
  assert.deepEqual(aborted(removed.changes), ['PULL_REQUEST_UPDATED', 'PR_AHEAD_DEQUEUED', 'PR_AHEAD_DEQUEUED']);
  assert.deepEqual(requeued(removed.changes), [entryId(1), entryId(3), entryId(4), entryId(5)]);
  assert.deepEqual(removed.state.batches, []);
  const impact = dequeueImpact(state, entryId(2), NOW + 1);
  assert.deepEqual(impact, { interrupted_batches: 3, rechecked_pull_requests: 4, cascaded_pull_requests: 0 });
});

test('an entry not yet embarked leaves alone; an unknown one changes nothing', () => {
  const state = queue(3, { maxParallelChecks: 1 });
  const removed = removeEntry(state, entryId(3), 'PR_DEQUEUED', NOW);
  assert.deepEqual(removed.changes, [{ kind: 'entry_left', entryId: entryId(3), code: 'PR_DEQUEUED', batchId: null }]);
  assert.deepEqual(dequeueImpact(state, entryId(3), NOW), { interrupted_batches: 0, rechecked_pull_requests: 0, cascaded_pull_requests: 0 });
  assert.deepEqual(removeEntry(state, 'entry-9999', 'PR_DEQUEUED', NOW).changes, []);
});

test('an entry leaving from a bisection half ends the bisection with what it found so far', () => {
  const bisecting = report(queue(4, { batchSize: 4 }), 1, 'failed', NOW + 1).state;
  const removed = removeEntry(bisecting, entryId(1), 'PR_MANUALLY_DEQUEUED', NOW + 2);
  assert.deepEqual(kinds(removed.changes), [
    'entry_left',
    'batch_aborted',
    'entry_requeued',
    'batch_aborted',
    'entry_requeued',
    'entry_requeued',
    'bisection_ended',
    'batch_phase',
  ]);
  assert.deepEqual(aborted(removed.changes), ['PR_MANUALLY_DEQUEUED', 'PR_AHEAD_DEQUEUED']);
  assert.deepEqual(planSummary(planQueue(removed.state, NOW + 2)), ['#2 #3 #4: preparing']);
});

test('a reset aborts every unfinished batch and requeues its entries; "never" ignores outside pushes', () => {
  let state = queue(4, { batchSize: 2, maxParallelChecks: 2 });
  state = report(state, 3, 'passed', NOW + 1).state;
  const reset = baseMovedOutside(state, NOW + 2);
  assert.deepEqual(aborted(reset.changes), ['MERGE_QUEUE_RESET', 'MERGE_QUEUE_RESET']);
  assert.deepEqual(ofKind(reset.changes, 'batch_aborted').map((change) => change.phaseBefore), ['running', 'passed']);
  assert.deepEqual(requeued(reset.changes), [1, 2, 3, 4].map(entryId));
  assert.deepEqual(reset.state.batches, []);
  assert.equal(reset.state.entries.length, 4);
  const never = { ...state, config: queueConfig({ batchSize: 2, maxParallelChecks: 2, resetOnExternalMerge: 'never' }) };
  assert.deepEqual(baseMovedOutside(never, NOW + 2).changes, []);
  assert.deepEqual(kinds(resetQueue(never, NOW + 2).changes).filter((kind) => kind === 'batch_aborted').length, 2);
});

test('a pending sub-batch waits for a check slot like any batch', () => {
  const config = queueConfig({ mode: 'parallel', batchSize: 2, maxParallelChecks: 2 });
  const entries = [queueEntry(1, { scopes: ['a'] }), queueEntry(2, { scopes: ['a'] }), queueEntry(3, { scopes: ['b'] })];
  let step = advance(queueState(config, entries), NOW);
  assert.deepEqual(planSummary(step.plan), ['#1 #2: running', '#3: running']);
  step = report(step.state, 1, 'failed', NOW + 1);
  // #3 keeps one slot: the first half takes the other, the rest waits.
  assert.deepEqual(planSummary(step.plan), ['#1 #2: bisecting', '#3: running', '#1: running', '#2: waiting_for_checks_slot']);
  assert.equal(step.state.batches.find((batch) => batch.name === '#2')?.phase, 'pending');
  step = report(step.state, 3, 'passed', NOW + 2);
  assert.deepEqual(left(step.changes), ['#3 PR_MERGED']);
  assert.deepEqual(planSummary(step.plan), ['#1 #2: bisecting', '#1: running', '#2: running']);
  assert.deepEqual(
    step.changes.filter((change) => change.kind === 'batch_phase').map((change) => (change.kind === 'batch_phase' ? change.phase : '')),
    ['passed', 'merged', 'preparing', 'running'],
  );
});
