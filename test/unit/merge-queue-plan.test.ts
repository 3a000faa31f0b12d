// The merge queue's plan (DESIGN §9) as a pure function: batches, parents, statuses, what starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planQueue, removeEntry } from '../../src/domain/merge-queue/index.ts';
import { advance, parentsByName, planSummary } from '../support/merge-queue-driver.ts';
import { entryId, queueConfig, queueEntry, queueState } from '../support/merge-queue-state.ts';

const NOW = 1_000_000; // well after every entry time below, so no batch is still filling

test('serial: one batch per entry, a chain, all started speculatively within the slots', () => {
  const plan = planQueue(queueState(queueConfig({ maxParallelChecks: 2 }), [queueEntry(1), queueEntry(2), queueEntry(3)]), NOW);
  assert.deepEqual(planSummary(plan), ['#1: preparing', '#2: preparing', '#3: waiting_for_checks_slot']);
  assert.deepEqual(parentsByName(plan, '#1'), []);
  assert.deepEqual(parentsByName(plan, '#2'), ['#1']);
  assert.deepEqual(parentsByName(plan, '#3'), ['#2']);
  assert.equal(plan.toStart.length, 2);
  assert.deepEqual(plan.scopeQueues, {});
});

test('serial: consecutive entries share a batch up to batch_size, whatever their scopes', () => {
  const entries = [queueEntry(1, { scopes: ['a'] }), queueEntry(2, { scopes: ['b'] }), queueEntry(3, { scopes: null }), queueEntry(4), queueEntry(5)];
  const plan = planQueue(queueState(queueConfig({ batchSize: 2 }), entries), NOW);
  assert.deepEqual(planSummary(plan), ['#1 #2: preparing', '#3 #4: preparing', '#5: preparing']);
  assert.deepEqual(parentsByName(plan, '#5'), ['#3 #4']);
  assert.deepEqual(plan.batches[0]?.scopes, [], 'a serial queue is not scoped');
  assert.deepEqual(plan.waiting, [], 'only a parallel queue waits for scopes');
});

test('order: priority first, then entry time, then entry id; a batch never mixes queue rules', () => {
  const config = queueConfig({ batchSize: 3, extraRules: [{ ...queueConfig().queue_rules[0]!, name: 'urgent', batch_size: 3 }] });
  const entries = [
    queueEntry(1, { at: 10 }),
    queueEntry(2, { at: 5, priority: 'low' }),
    queueEntry(3, { at: 20, priority: 'high' }),
    queueEntry(4, { at: 10 }),
    queueEntry(5, { at: 11, rule: 'urgent' }),
    queueEntry(6, { at: 12 }),
  ];
  const plan = planQueue(queueState(config, entries), NOW);
  // #1 and #4 entered at the same time: the entry id decides.
  assert.deepEqual(planSummary(plan).map((line) => line.split(':')[0]), ['#3 #1 #4', '#5', '#6 #2']);
});

test('parallel: equal scope sets share a batch; overlapping ones depend on the latest holder of each scope', () => {
  const entries = [
    queueEntry(1, { scopes: ['a'] }),
    queueEntry(2, { scopes: ['b'] }),
    queueEntry(3, { scopes: ['a'] }),
    queueEntry(4, { scopes: ['a', 'b'] }),
    queueEntry(5, { scopes: ['c'] }),
    queueEntry(6, { scopes: ['b'] }),
  ];
  const plan = planQueue(queueState(queueConfig({ mode: 'parallel', batchSize: 4, maxParallelChecks: 10 }), entries), NOW);
  assert.deepEqual(planSummary(plan), ['#1 #3: preparing', '#2: preparing', '#4: preparing', '#5: preparing', '#6: preparing']);
  assert.deepEqual(parentsByName(plan, '#1 #3'), []);
  assert.deepEqual(parentsByName(plan, '#4').sort(), ['#1 #3', '#2']);
  assert.deepEqual(parentsByName(plan, '#5'), []);
  // #6 could not join #2: it would pass #4, which shares scope b with it.
  assert.deepEqual(parentsByName(plan, '#6'), ['#4']);
  assert.deepEqual(plan.scopeQueues, {
    a: [plan.batches[0]?.id, plan.batches[2]?.id],
    b: [plan.batches[1]?.id, plan.batches[2]?.id, plan.batches[4]?.id],
    c: [plan.batches[3]?.id],
  });
});

test('parallel: joining never moves an entry ahead of an earlier one sharing a scope', () => {
  const entries = [queueEntry(1, { scopes: ['a'] }), queueEntry(2, { scopes: ['a', 'b'] }), queueEntry(3, { scopes: ['a'] })];
  const plan = planQueue(queueState(queueConfig({ mode: 'parallel', batchSize: 3 }), entries), NOW);
  assert.deepEqual(planSummary(plan).map((line) => line.split(':')[0]), ['#1', '#2', '#3']);
  assert.deepEqual(parentsByName(plan, '#3'), ['#2']);
});

test('parallel: a barrier depends on every earlier batch and every later batch depends on it', () => {
  const entries = [
    queueEntry(1, { scopes: ['a'] }),
    queueEntry(2, { scopes: ['b'] }),
    queueEntry(3, { scopes: ['a'] }),
    queueEntry(4, { scopes: [], barrier: true }),
    queueEntry(5, { scopes: ['c'] }),
    queueEntry(6, { scopes: [] }),
    queueEntry(7, { scopes: [], barrier: true }),
  ];
  const plan = planQueue(queueState(queueConfig({ mode: 'parallel', maxParallelChecks: 10 }), entries), NOW);
  // The frontier stands for every earlier batch: #1 is reached through #3.
  assert.deepEqual(parentsByName(plan, '#4').sort(), ['#2', '#3']);
  assert.deepEqual(parentsByName(plan, '#5'), ['#4']);
  assert.deepEqual(parentsByName(plan, '#6'), ['#4'], 'no scopes: depends on the barrier alone');
  assert.deepEqual(parentsByName(plan, '#7').sort(), ['#5', '#6']);
  assert.equal(plan.batches[3]?.allScopes, true);
  assert.deepEqual(plan.scopeQueues.c, [plan.batches[3]?.id, plan.batches[4]?.id, plan.batches[6]?.id], 'a barrier is in every scope queue');
});

test('parallel: two barriers in a row share a batch; a barrier never joins one with batches after it', () => {
  const entries = [queueEntry(1, { scopes: [], barrier: true }), queueEntry(2, { scopes: [], barrier: true }), queueEntry(3, { scopes: ['a'] }), queueEntry(4, { scopes: [], barrier: true })];
  const plan = planQueue(queueState(queueConfig({ mode: 'parallel', batchSize: 5 }), entries), NOW);
  assert.deepEqual(planSummary(plan).map((line) => line.split(':')[0]), ['#1 #2', '#3', '#4']);
});

test('isolated: batches of equal scope sets, no parents, unreported entries grouped as no scopes', () => {
  const entries = [queueEntry(1, { scopes: ['a'] }), queueEntry(2, { scopes: ['a', 'b'] }), queueEntry(3, { scopes: ['a'] }), queueEntry(4, { scopes: null }), queueEntry(5, { scopes: [] })];
  const plan = planQueue(queueState(queueConfig({ mode: 'isolated', batchSize: 3 }), entries), NOW);
  assert.deepEqual(planSummary(plan), ['#1 #3: preparing', '#2: preparing', '#4 #5: preparing']);
  assert.ok(plan.batches.every((batch) => batch.parentIds.length === 0));
  assert.deepEqual(plan.waiting, []);
});

test('parallel: an entry without a report waits wait_seconds, then is planned as a barrier', () => {
  const config = queueConfig({ mode: 'parallel', waitSeconds: 600 });
  const state = queueState(config, [queueEntry(1, { scopes: null, at: 100 }), queueEntry(2, { scopes: ['a'], at: 200 })]);
  const before = planQueue(state, 500_000);
  assert.deepEqual(before.waiting, [{ entryId: entryId(1), reason: 'waiting_for_scopes', until: 700_000 }]);
  assert.deepEqual(planSummary(before), ['#2: preparing']);
  assert.equal(before.wakeAt, 700_000);
  const after = planQueue(state, 700_000);
  assert.deepEqual(after.waiting, []);
  assert.deepEqual(planSummary(after), ['#1: preparing', '#2: preparing']);
  assert.equal(after.batches[0]?.allScopes, true);
  assert.deepEqual(parentsByName(after, '#2'), ['#1']);
});

test('parallel with missing: barrier: an unreported entry is a barrier at once', () => {
  const state = queueState(queueConfig({ mode: 'parallel', missing: 'barrier' }), [queueEntry(1, { scopes: null })]);
  const plan = planQueue(state, 2000);
  assert.deepEqual(plan.waiting, []);
  assert.equal(plan.batches[0]?.allScopes, true);
});

test('filling: a short batch that new entries could still join waits batch_max_wait_time from its first entry', () => {
  const config = queueConfig({ mode: 'parallel', batchSize: 3, batchMaxWaitTime: 60 });
  const behind = queueState(config, [queueEntry(1, { scopes: ['a'], at: 10 }), queueEntry(2, { scopes: ['a', 'b'], at: 20 })]);
  // #1 cannot grow (#2 is queued behind it in scope a): it starts; #2 is last in a and b: it waits.
  const early = planQueue(behind, 30_000);
  assert.deepEqual(planSummary(early), ['#1: preparing', '#2: waiting_for_batch']);
  assert.equal(early.batches[1]?.startsAt, 80_000);
  assert.equal(early.wakeAt, 80_000);
  assert.deepEqual(planSummary(planQueue(behind, 80_000)), ['#1: preparing', '#2: preparing']);
  // Serial: the last batch of the queue fills.
  const last = queueState(queueConfig({ batchSize: 3, batchMaxWaitTime: 60 }), [queueEntry(1, { at: 10 })]);
  const plan = planQueue(last, 30_000);
  assert.deepEqual(planSummary(plan), ['#1: waiting_for_batch']);
  assert.deepEqual(plan.toStart, []);
  assert.equal(plan.wakeAt, 70_000);
  assert.deepEqual(planSummary(planQueue(last, 70_000)), ['#1: preparing']);
});

test('filling: a full batch starts at once, whatever the wait', () => {
  const config = queueConfig({ batchSize: 2, batchMaxWaitTime: 600 });
  const state = queueState(config, [queueEntry(1, { at: 10 }), queueEntry(2, { at: 20 }), queueEntry(3, { at: 30 })]);
  assert.deepEqual(planSummary(planQueue(state, 30_000)), ['#1 #2: preparing', '#3: waiting_for_batch']);
});

test('filling, the literal reading of DESIGN §9 (kept for the simulation): a batch waits only when something is queued behind it', () => {
  const config = queueConfig({ mode: 'parallel', batchSize: 3, batchMaxWaitTime: 60 });
  const behind = queueState(config, [queueEntry(1, { scopes: ['a'], at: 10 }), queueEntry(2, { scopes: ['a', 'b'], at: 20 })]);
  assert.deepEqual(planSummary(planQueue(behind, 30_000, { fillingRule: 'literal' })), ['#1: waiting_for_batch', '#2: waiting_for_checks_slot']);
  const serial = queueState(queueConfig({ batchSize: 3, batchMaxWaitTime: 60 }), [queueEntry(1, { at: 10 })]);
  assert.deepEqual(planSummary(planQueue(serial, 10_000, { fillingRule: 'literal' })), ['#1: preparing']);
});

test('dynamic batch size: the waiting entries spread over the free slots, within min and max', () => {
  const entries = (count: number) => Array.from({ length: count }, (_, i) => queueEntry(i + 1));
  const sizes = (count: number, batchSize: { min: number; max: number }, slots: number) =>
    planQueue(queueState(queueConfig({ batchSize, maxParallelChecks: slots }), entries(count)), NOW).batches.map((batch) => batch.entryIds.length);
  assert.deepEqual(sizes(8, { min: 1, max: 4 }, 2), [4, 4]);
  assert.deepEqual(sizes(3, { min: 1, max: 4 }, 2), [2, 1]);
  assert.deepEqual(sizes(3, { min: 1, max: 8 }, 5), [1, 1, 1], 'slots to spare: min');
  assert.deepEqual(sizes(20, { min: 1, max: 4 }, 2), [4, 4, 4, 4, 4], 'never over max');
  assert.deepEqual(sizes(1, { min: 2, max: 4 }, 2), [1], 'short of min only when nothing more waits');
  assert.deepEqual(sizes(5, { min: 2, max: 4 }, 8), [2, 2, 1], 'never under min');
});

test('dynamic batch size counts only the free slots: a running batch leaves fewer to spread over', () => {
  const config = queueConfig({ batchSize: { min: 1, max: 8 }, maxParallelChecks: 3 });
  const first = advance(queueState(config, [queueEntry(1)]), NOW).state;
  const withMore = { ...first, entries: [...first.entries, ...[2, 3, 4, 5].map((n) => queueEntry(n))] };
  // One slot taken, two free: four waiting entries make two batches of two.
  assert.deepEqual(planSummary(planQueue(withMore, NOW)), ['#1: running', '#2 #3: preparing', '#4 #5: preparing']);
});

test('check slots: at most max_parallel_checks batches run; stored ones count first', () => {
  const entries = Array.from({ length: 6 }, (_, i) => queueEntry(i + 1, { scopes: [`s${i}`] }));
  const config = queueConfig({ mode: 'parallel', maxParallelChecks: 3 });
  const plan = planQueue(queueState(config, entries), NOW);
  assert.equal(plan.toStart.length, 3);
  assert.equal(plan.batches.filter((batch) => batch.status === 'waiting_for_checks_slot').length, 3);
  const started = advance(queueState(config, entries), NOW);
  assert.equal(started.plan.toStart.length, 0, 'all three slots are taken by stored batches');
  assert.deepEqual(started.plan.batches.map((batch) => batch.status), ['running', 'running', 'running', 'waiting_for_checks_slot', 'waiting_for_checks_slot', 'waiting_for_checks_slot']);
});

test('a batch starts only when its parents are stored or start with it', () => {
  const entries = [queueEntry(1, { scopes: ['a'] }), queueEntry(2, { scopes: ['b'] }), queueEntry(3, { scopes: ['a'] })];
  const plan = planQueue(queueState(queueConfig({ mode: 'parallel', maxParallelChecks: 1 }), entries), NOW);
  assert.deepEqual(planSummary(plan), ['#1: preparing', '#2: waiting_for_checks_slot', '#3: waiting_for_checks_slot']);
});

test('re-planning after a leave: the batch is aborted, its other entries get a new batch id', () => {
  const config = queueConfig({ batchSize: 2, maxParallelChecks: 2 });
  const started = advance(queueState(config, [1, 2, 3, 4].map((n) => queueEntry(n))), NOW);
  const firstId = started.plan.batches[0]?.id;
  const left = removeEntry(started.state, entryId(1), 'PR_MANUALLY_DEQUEUED', NOW + 1);
  const plan = planQueue(left.state, NOW + 1);
  assert.deepEqual(planSummary(plan), ['#2 #3: preparing', '#4: preparing']);
  assert.notEqual(plan.batches[0]?.id, firstId);
  assert.ok(!plan.batches.some((batch) => batch.id === firstId));
});

test('a paused queue starts and merges nothing; a freeze holds passed batches as frozen', () => {
  const config = queueConfig({ maxParallelChecks: 2 });
  const paused = planQueue(queueState(config, [queueEntry(1)], [], { paused: true, frozen: false }), NOW);
  assert.deepEqual(paused.toStart, []);
  assert.deepEqual(planSummary(paused), ['#1: waiting_for_checks_slot']);
  const running = advance(queueState(config, [queueEntry(1)]), NOW).state;
  const batchId = running.batches[0]!.id;
  const passed = { ...running, batches: running.batches.map((batch) => ({ ...batch, phase: 'passed' as const })) };
  assert.deepEqual(planQueue(passed, NOW).toMerge, [batchId]);
  assert.deepEqual(planQueue({ ...passed, holds: { paused: true, frozen: false } }, NOW).toMerge, []);
  const frozen = planQueue({ ...passed, holds: { paused: false, frozen: true } }, NOW);
  assert.deepEqual(frozen.toMerge, []);
  assert.deepEqual(planSummary(frozen), ['#1: frozen']);
});

test('running batches: their checks timeout is a wake-up time, then listed in toTimeOut', () => {
  const config = queueConfig({ checksTimeout: 120 });
  const running = advance(queueState(config, [queueEntry(1)]), NOW).state;
  assert.equal(planQueue(running, NOW).wakeAt, NOW + 120_000);
  assert.deepEqual(planQueue(running, NOW + 119_999).toTimeOut, []);
  assert.deepEqual(planQueue(running, NOW + 120_000).toTimeOut, [running.batches[0]?.id]);
});

test('the same state plans the same; ids depend on the entries and how often they were embarked', () => {
  const entries = [queueEntry(1, { scopes: ['a'] }), queueEntry(2, { scopes: ['a'] })];
  const config = queueConfig({ mode: 'parallel', batchSize: 2 });
  const once = planQueue(queueState(config, entries), NOW);
  assert.deepEqual(planQueue(queueState(config, [...entries].reverse()), NOW), once);
  assert.match(once.batches[0]!.id, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const again = planQueue(queueState(config, [queueEntry(1, { scopes: ['a'], embarkCount: 1 }), entries[1]!]), NOW);
  assert.notEqual(again.batches[0]?.id, once.batches[0]?.id);
  const otherQueue = planQueue({ ...queueState(config, entries), queueId: 'queue-2' }, NOW);
  assert.notEqual(otherQueue.batches[0]?.id, once.batches[0]?.id);
});

test('batch names show the first three pull requests and how many more', () => {
  const plan = planQueue(queueState(queueConfig({ batchSize: 5 }), [11, 12, 13, 14, 15].map((n) => queueEntry(n))), NOW);
  assert.equal(plan.batches[0]?.name, '#11 #12 #13 +2');
});

test('stored batches keep their parents; proposed ones follow them', () => {
  const config = queueConfig({ mode: 'parallel', maxParallelChecks: 1 });
  const first = advance(queueState(config, [queueEntry(1, { scopes: ['a'] })]), NOW).state;
  const plan = planQueue({ ...first, entries: [...first.entries, queueEntry(2, { scopes: ['a'] }), queueEntry(3, { scopes: ['b'] })] }, NOW);
  assert.deepEqual(planSummary(plan), ['#1: running', '#2: waiting_for_checks_slot', '#3: waiting_for_checks_slot']);
  assert.deepEqual(parentsByName(plan, '#2'), ['#1']);
  assert.deepEqual(plan.batches.map((batch) => batch.stored), [true, false, false]);
});
