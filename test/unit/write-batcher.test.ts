// Group commit: writes arriving while statements are in flight share the next statement; each
// caller is answered after its own statement; a bad write fails alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { WriteBatcher, type WriteBatcherOptions } from '../../src/storage/write-batcher.ts';
import { DatabaseUnavailableError } from '../../src/storage/drivers/database-errors.ts';

const options = (changes: Partial<WriteBatcherOptions<number>>): WriteBatcherOptions<number> => ({ maxBatch: 500, maxInFlight: 1, maxQueued: 10_000, maxWeight: Infinity, weigh: () => 1, keyOf: String, ...changes });

function recorder(fail: (item: number) => boolean = () => false) {
  const statements: number[][] = [];
  const committed = new Set<number>();
  const writeMany = async (items: number[]) => {
    statements.push(items);
    await sleep(5);
    if (items.some(fail)) throw new Error(`bad write in ${items.join(',')}`);
    for (const item of items) committed.add(item);
    return items.map((item) => item * 10);
  };
  return { statements, committed, writeMany };
}

test('an idle batcher writes at once; writes arriving meanwhile share the next statements', async () => {
  const r = recorder();
  const batcher = new WriteBatcher(r.writeMany, options({}));
  await batcher.write(0);
  assert.deepEqual(r.statements, [[0]]);
  const answered: number[] = [];
  await Promise.all(Array.from({ length: 20 }, (_, i) => batcher.write(i + 1).then(() => (assert.ok(r.committed.has(i + 1), 'answered before its statement ended'), answered.push(i + 1)))));
  assert.ok(r.statements.length <= 3, `20 writes at once took ${r.statements.length - 1} statements`);
  assert.deepEqual(r.statements.slice(1).flat(), Array.from({ length: 20 }, (_, i) => i + 1), 'in arrival order');
  assert.equal(answered.length, 20);
});

test('statements hold at most maxBatch writes, and at most maxInFlight run at once', async () => {
  const r = recorder();
  let running = 0;
  let most = 0;
  const batcher = new WriteBatcher<number, number>(async (items) => {
    most = Math.max(most, ++running);
    const results = await r.writeMany(items);
    running--;
    return results;
  }, options({ maxBatch: 7, maxInFlight: 2 }));
  assert.deepEqual(await Promise.all(Array.from({ length: 50 }, (_, i) => batcher.write(i))), Array.from({ length: 50 }, (_, i) => i * 10), 'each caller gets its own result');
  assert.ok(r.statements.every((items) => items.length <= 7));
  assert.equal(most, 2);
  assert.deepEqual([...r.committed].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
});

test('a write that fails its statement fails alone (the batch is halved down to it); the others are written', async () => {
  const r = recorder((item) => item === 13);
  const batcher = new WriteBatcher(r.writeMany, options({}));
  const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => batcher.write(i)));
  outcomes.forEach((outcome, i) => assert.equal(outcome.status, i === 13 ? 'rejected' : 'fulfilled', `write ${i}`));
  assert.equal(r.committed.size, 19);
  assert.ok(!r.committed.has(13));
});

test('storage out of reach fails the whole statement at once, without trying each write alone', async () => {
  let statements = 0;
  const batcher = new WriteBatcher<number>(async () => {
    statements++;
    await sleep(5);
    throw new DatabaseUnavailableError('connection refused');
  }, options({}));
  const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => batcher.write(i)));
  assert.ok(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof DatabaseUnavailableError));
  assert.ok(statements <= 2, `${statements} statements for 30 writes`);
});

test('past maxQueued waiting writes, a write is refused at once as storage unavailable', async () => {
  const r = recorder();
  const batcher = new WriteBatcher(r.writeMany, options({ maxQueued: 5 }));
  const writes = Array.from({ length: 12 }, (_, i) => batcher.write(i));
  const outcomes = await Promise.allSettled(writes);
  // The first goes out at once; five wait; the other six are refused.
  assert.deepEqual(outcomes.map((outcome) => outcome.status), [...Array(6).fill('fulfilled'), ...Array(6).fill('rejected')]);
  assert.ok(outcomes.slice(6).every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof DatabaseUnavailableError));
});

test('a statement carries at most maxWeight, and a heavier write goes alone', async () => {
  const r = recorder();
  // Writes weigh their tens: 1, 4, 4, 4, 12, 3, 3.
  const batcher = new WriteBatcher(r.writeMany, options({ maxWeight: 10, weigh: (item) => Math.floor(item / 10) }));
  await Promise.all([10, 40, 41, 42, 120, 30, 31].map((item) => batcher.write(item)));
  assert.deepEqual(r.statements, [[10], [40, 41], [42], [120], [30, 31]]);
});

test('writes to one key in a statement are folded into the later, and every caller gets its result', async () => {
  const statements: { key: string; version: number }[][] = [];
  const batcher = new WriteBatcher<{ key: string; version: number }, string>(async (items) => {
    statements.push(items);
    await sleep(5);
    return items.map((item) => `${item.key}@${item.version}`);
  }, { maxBatch: 500, maxInFlight: 1, maxQueued: 100, maxWeight: Infinity, weigh: () => 1, keyOf: (item) => item.key });
  await batcher.write({ key: 'warm-up', version: 0 });
  const writes = [{ key: 'a', version: 1 }, { key: 'b', version: 1 }, { key: 'a', version: 2 }, { key: 'a', version: 3 }];
  const answers = await Promise.all(writes.map((write) => batcher.write(write)));
  assert.deepEqual(statements.slice(1), [[{ key: 'a', version: 3 }, { key: 'b', version: 1 }]], 'one row per key, the latest');
  assert.deepEqual(answers, ['a@3', 'b@1', 'a@3', 'a@3']);
});
