// Properties of the merge queue's plan and transitions over random queues and random event
// sequences (fast-check): ordering of conflicting batches, the check-slot limit, queue order
// within a scope, determinism; every entry ends merged once or leaves with a reason; no batch
// merges before its parents or without passing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyBatchResult, baseMovedOutside, planQueue, removeEntry } from '../../src/domain/merge-queue/index.ts';
import type { BatchResult, QueueEntry, QueueState } from '../../src/domain/merge-queue/model.ts';
import { advance } from '../support/merge-queue-driver.ts';
import { entriesInTwoBatches, HistoryMonitor, queueOrderBreaks, unorderedConflicts } from '../support/merge-queue-invariants.ts';
import { queueConfig, queueState } from '../support/merge-queue-state.ts';

const SCOPES = ['a', 'b', 'c', 'd', 'e'];
const REMOVAL_CODES = ['PR_MANUALLY_DEQUEUED', 'PULL_REQUEST_UPDATED', 'PR_DEQUEUED', 'CONFLICT_WITH_PULL_AHEAD'];

const configArb = fc.record({
  mode: fc.constantFrom('serial' as const, 'parallel' as const, 'isolated' as const),
  maxParallelChecks: fc.integer({ min: 1, max: 4 }),
  batchSize: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.record({ min: fc.integer({ min: 1, max: 2 }), max: fc.integer({ min: 2, max: 5 }) })),
  batchMaxWaitTime: fc.integer({ min: 0, max: 120 }),
  maxChecksRetries: fc.integer({ min: 0, max: 1 }),
  checksTimeout: fc.integer({ min: 60, max: 600 }),
  missing: fc.constantFrom('wait' as const, 'barrier' as const),
  waitSeconds: fc.integer({ min: 0, max: 600 }),
});

const arrivalArb = fc.record({
  kind: fc.constant('arrive' as const),
  scopes: fc.option(fc.subarray(SCOPES, { maxLength: 3 }), { nil: null, freq: 6 }),
  barrier: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  priority: fc.constantFrom('high' as const, 'medium' as const, 'medium' as const, 'low' as const),
});

const commandArb = fc.oneof(
  { arbitrary: arrivalArb, weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('result' as const), pick: fc.nat(), result: fc.constantFrom<BatchResult['kind']>('passed', 'passed', 'failed', 'timed_out') }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(), code: fc.constantFrom(...REMOVAL_CODES) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 0, max: 900 }) }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'reset' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('hold' as const), paused: fc.boolean(), frozen: fc.boolean() }), weight: 1 },
);
type Command = typeof commandArb extends fc.Arbitrary<infer T> ? T : never;

function arrival(number: number, command: Extract<Command, { kind: 'arrive' }>, now: number): QueueEntry {
  return {
    id: `entry-${String(number).padStart(4, '0')}`,
    number: BigInt(number),
    headSha: number.toString(16).padStart(40, '0'),
    queueRule: 'default',
    priority: command.priority,
    priorityRuleName: null,
    enteredAt: now,
    scopes: command.scopes === null ? null : { scopes: [...command.scopes].sort(), allScopes: command.barrier },
    scopesAwaitedSince: now,
    embarkCount: 0,
  };
}

/** Applies one command; returns the new state, the time and the changes. */
function apply(state: QueueState, command: Command, now: number, arrived: number) {
  switch (command.kind) {
    case 'arrive':
      return { state: { ...state, entries: [...state.entries, arrival(arrived + 1, command, now)] }, now, changes: [] };
    case 'result': {
      const running = state.batches.filter((batch) => batch.phase === 'running');
      if (running.length === 0) return { state, now, changes: [] };
      const next = applyBatchResult(state, running[command.pick % running.length]!.id, { kind: command.result }, now);
      return { ...next, now };
    }
    case 'remove': {
      if (state.entries.length === 0) return { state, now, changes: [] };
      const next = removeEntry(state, state.entries[command.pick % state.entries.length]!.id, command.code, now);
      return { ...next, now };
    }
    case 'tick':
      return { state, now: now + command.seconds * 1000, changes: [] };
    case 'reset':
      return { ...baseMovedOutside(state, now), now };
    case 'hold':
      return { state: { ...state, holds: { paused: command.paused, frozen: command.frozen } }, now, changes: [] };
  }
}

function checkPlan(state: QueueState, now: number): void {
  const plan = planQueue(state, now);
  assert.deepEqual(unorderedConflicts(plan, state), []);
  assert.deepEqual(queueOrderBreaks(plan, state), []);
  const checking = state.batches.filter((batch) => batch.phase === 'preparing' || batch.phase === 'running').length;
  assert.ok(checking <= state.config.merge_queue.max_parallel_checks, `${checking} batches checking`);
  assert.ok(checking + plan.toStart.length <= state.config.merge_queue.max_parallel_checks, 'toStart over the free slots');
  assert.deepEqual(entriesInTwoBatches(state), []);
  const shuffled = { ...state, entries: [...state.entries].reverse(), batches: [...state.batches].reverse() };
  assert.deepEqual(planQueue(shuffled, now), plan, 'the plan depends on the state, not on the order it was loaded in');
}

/** Ends a run: holds lifted, every running batch passes, the clock jumps to each wake-up. */
function drain(state: QueueState, now: number, monitor: HistoryMonitor): QueueState {
  state = { ...state, holds: { paused: false, frozen: false } };
  for (let guard = 0; guard < 2000 && state.entries.length > 0; guard++) {
    const step = advance(state, now);
    monitor.observe(step.changes);
    state = step.state;
    const running = state.batches.find((batch) => batch.phase === 'running');
    if (running) {
      const passed = applyBatchResult(state, running.id, { kind: 'passed' }, now);
      monitor.observe(passed.changes);
      state = passed.state;
    } else if (step.plan.wakeAt !== null) {
      now = Math.max(now + 1, step.plan.wakeAt);
    } else if (state.entries.length > 0 && step.plan.toStart.length === 0 && step.plan.toMerge.length === 0) {
      assert.fail(`stuck with ${state.entries.length} entries: ${JSON.stringify(step.plan.batches.map((b) => [b.name, b.status]))}`);
    }
  }
  return state;
}

test('random queues under random events keep every invariant, and every entry ends once', () => {
  fc.assert(
    fc.property(configArb, fc.array(commandArb, { minLength: 1, maxLength: 60 }), (options, commands) => {
      let state = queueState(queueConfig(options), []);
      let now = 1_000_000;
      let arrived = 0;
      const monitor = new HistoryMonitor();
      for (const command of commands) {
        const applied = apply(state, command, now, arrived);
        if (command.kind === 'arrive') arrived++;
        monitor.observe(applied.changes);
        now = applied.now;
        const step = advance(applied.state, now);
        monitor.observe(step.changes);
        state = step.state;
        checkPlan(state, now);
      }
      state = drain(state, now, monitor);
      assert.deepEqual(monitor.problems, []);
      assert.deepEqual(state.entries, []);
      assert.equal(monitor.leaves.size, arrived, 'every entry left');
      for (const [id, codes] of monitor.leaves) assert.equal(codes.length, 1, `${id} left ${codes.join(', ')}`);
    }),
    { numRuns: 150 },
  );
});

test('the plan of a random queue with no batches yet keeps the invariants', () => {
  fc.assert(
    fc.property(configArb, fc.array(arrivalArb, { maxLength: 40 }), fc.integer({ min: 0, max: 1200 }), (options, arrivals, later) => {
      const entries = arrivals.map((command, i) => arrival(i + 1, command, 1_000_000 + i * 7_000));
      const state = queueState(queueConfig(options), entries);
      checkPlan(state, 1_000_000 + later * 1000);
    }),
    { numRuns: 300 },
  );
});
