// At most `limit` at once, the rest in arrival order, and a bounded line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConcurrencyLimit } from '../../src/storage/concurrency-limit.ts';
import { DatabaseUnavailableError } from '../../src/storage/drivers/database-errors.ts';

test('runs at most `limit` tasks at once, the others in arrival order, each to its own result', async () => {
  const limit = new ConcurrencyLimit(2, 100);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const results = await Promise.all(Array.from({ length: 9 }, (_, i) => limit.run(async () => {
    started.push(i);
    most = Math.max(most, ++running);
    await sleep(3);
    running--;
    if (i === 4) throw new Error('task 4 fails');
    return i * 2;
  }).catch((error: Error) => error.message)));
  assert.equal(most, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(results, [0, 2, 4, 6, 'task 4 fails', 10, 12, 14, 16], 'a failing task frees its slot too');
  assert.equal(await limit.run(async () => 'after'), 'after');
});

test('past maxWaiting tasks in line, a task is refused at once as storage unavailable', async () => {
  const limit = new ConcurrencyLimit(1, 2);
  const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => limit.run(() => sleep(3))));
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
  assert.ok(outcomes.slice(3).every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof DatabaseUnavailableError));
});
