// skip_intermediate_results (issue 26, item 3): a later batch that passes with an earlier batch's
// changes merges them without waiting for the earlier result, which ends INTERMEDIATE_RESULTS_SKIPPED
// (one that failed while the batch ahead was undecided too). Off, nothing changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queueChangeEvents } from '../../src/domain/merge-queue/queue-events.ts';
import type { QueueChange, QueueState } from '../../src/domain/merge-queue/model.ts';
import { advance, planSummary, report, runningBatchOf } from '../support/merge-queue-driver.ts';
import { queueConfig, queueEntry, queueState } from '../support/merge-queue-state.ts';

const NOW = 1_000_000;

/** Serial, batches of one, three checked at once: #1, then #2 on #1, then #3 on both. */
function chain(skip: boolean): QueueState {
  return advance(queueState(queueConfig({ maxParallelChecks: 3, skipIntermediateResults: skip }), [queueEntry(1), queueEntry(2), queueEntry(3)]), NOW).state;
}

const leaves = (changes: readonly QueueChange[]) => changes.flatMap((change) => (change.kind === 'entry_left' ? [`${change.entryId.replace('entry-000', '#')} ${change.code}`] : []));

test('on: a later batch passing merges the batches it holds, their results skipped', () => {
  const state = chain(true);
  const first = runningBatchOf(state, 1);
  const second = runningBatchOf(state, 2);
  const step = report(state, 2, 'passed', NOW + 1000);
  const skipped = step.changes.filter((change) => change.kind === 'intermediate_skipped');
  assert.deepEqual(skipped, [{ kind: 'intermediate_skipped', batchId: first.id, phaseBefore: 'running', byBatchId: second.id }]);
  assert.deepEqual(leaves(step.changes), ['#1 PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED', '#2 PR_MERGED']);
  assert.deepEqual(planSummary(step.plan), ['#3: running'], 'the batch behind goes on');
});

test('off: a later batch that passed waits for the result of the batch ahead', () => {
  const state = chain(false);
  const step = report(state, 2, 'passed', NOW + 1000);
  assert.equal(step.changes.some((change) => change.kind === 'intermediate_skipped'), false);
  assert.deepEqual(leaves(step.changes), []);
  assert.deepEqual(planSummary(step.plan), ['#1: running', '#2: waiting_for_merge', '#3: running']);
});

test('on: a batch that failed while the one ahead was undecided merges when a later batch holding both passes', () => {
  const state = chain(true);
  const parked = report(state, 2, 'failed', NOW + 1000);
  assert.deepEqual(planSummary(parked.plan), ['#1: running', '#2: waiting_for_previous_batches', '#3: running']);
  const passed = report(parked.state, 3, 'passed', NOW + 2000);
  assert.deepEqual(leaves(passed.changes), ['#1 PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED', '#2 PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED', '#3 PR_MERGED']);
  assert.deepEqual(passed.state.entries, []);
});

test('on: a batch whose own checks fail is handled at once, not held for the later batches holding it', () => {
  const step = report(chain(true), 1, 'failed', NOW + 1000);
  assert.deepEqual(leaves(step.changes), ['#1 CHECKS_FAILED']);
  assert.deepEqual(step.changes.flatMap((change) => (change.kind === 'batch_aborted' ? [change.code] : [])), ['BATCH_AHEAD_FAILED', 'BATCH_AHEAD_FAILED']);
});

test('the skipped batch\'s running checks end INTERMEDIATE_RESULTS_SKIPPED; its pull request leaves merged', () => {
  const state = chain(true);
  const first = runningBatchOf(state, 1);
  const step = report(state, 2, 'passed', NOW + 1000);
  const batches = new Map([...state.batches, ...step.state.batches].map((batch) => [batch.id, batch]));
  const events = queueChangeEvents(
    {
      baseRef: 'main',
      config: state.config,
      before: state,
      after: step.state,
      now: NOW + 1000,
      trigger: 'test',
      batchOf: (id) => batches.get(id),
      checkPullOf: () => ({ number: 99n, inPlace: false, unsuccessfulChecks: [] }),
      freezeSecondsOf: () => 0,
      mergeCommitShaOf: () => 'c'.repeat(40),
    },
    step.changes,
  );
  const ofFirst = events.filter((event) => event.pull_request === 1n);
  const end = ofFirst.find((event) => event.type === 'action.queue.checks_end')!;
  assert.deepEqual([end.metadata.aborted, end.metadata.abort_code, end.metadata.abort_status, end.metadata.batch_id], [true, 'INTERMEDIATE_RESULTS_SKIPPED', 'DEFINITIVE', first.id]);
  const leave = ofFirst.find((event) => event.type === 'action.queue.leave')!;
  assert.deepEqual([leave.metadata.merged, leave.metadata.dequeue_code], [true, 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED']);
  assert.ok(ofFirst.some((event) => event.type === 'action.queue.merged'));
});
