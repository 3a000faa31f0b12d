// Crashes of the merge queue (issue 15, DESIGN §10 "durable and restartable"): `switchyard serve`
// drives a queue on the fake platform and is SIGKILLed at seeded random points (just after the
// platform answered one of its changes, or at a random time), restarted each time on the same
// PostgreSQL schema. The queue still finishes: each pull request merged once, pinned to its
// checked head, after its batch head's checks were read and passed, or dequeued with a reason;
// one action.queue.leave per stay; the base holding exactly the merged changes; never two check
// pull requests for one batch branch. A short run here; bench/merge-queue-crash.ts kills 20 times.
// SWITCHYARD_CRASH_SEED replays a run (the seed is printed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresAvailable } from '../support/backends.ts';
import { runCrashScenario } from '../support/merge-queue-crash-run.ts';

const seed = Number(process.env.SWITCHYARD_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

test('SIGKILLed at random points while it runs a queue, restarted on the same PostgreSQL: the queue finishes with every step done once', { timeout: 600_000, skip: !(await postgresAvailable()) && 'PostgreSQL does not answer' }, async (t) => {
  t.diagnostic(`seed ${seed} (SWITCHYARD_CRASH_SEED=${seed} replays the kill points)`);
  const result = await runCrashScenario({ backend: 'postgres', seed, kills: 3, pulls: 4, failing: [3], ciDelayMs: 150, finishWithinMs: 180_000, log: (line) => t.diagnostic(line) });
  t.diagnostic(`${result.merged} merged, ${result.dequeued} dequeued, ${result.kills.length} kills, restarts ${result.restartsMs.join('/')} ms, ${result.totalMs} ms in all`);
  assert.deepEqual(result.problems, [], `seed ${seed}`);
  assert.equal(result.merged, 3);
});
