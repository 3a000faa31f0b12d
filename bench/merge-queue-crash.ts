// The merge queue's crash run at full length (issue 15): `switchyard serve` drives a queue of pull
// requests on the fake platform (test/support/fake-platform/) and is SIGKILLed at seeded random
// points, 20 times by default, restarted each time on the same store; then the queue must finish
// with every pull request merged once or dequeued with a reason, one action.queue.leave per stay,
// the base holding exactly the merged changes, no check pull request opened twice for a batch
// branch, no merge repeated or unpinned (test/support/merge-queue-process.ts, queueProblems).
// test/merge-queue/executor-crash.test.ts runs the same with a few kills in `npm test`.
//
//   npx tsx bench/merge-queue-crash.ts [--backend postgres|pglite|both] [--kills 20] [--pulls 8] [--seed N] [--json file]
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import type { Backend } from '../src/storage/store.ts';
import { postgresAvailable } from '../test/support/backends.ts';
import { runCrashScenario } from '../test/support/merge-queue-crash-run.ts';
import { writeJsonResults } from './json-results.ts';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'postgres' },
    kills: { type: 'string', default: '20' },
    pulls: { type: 'string', default: '8' },
    seed: { type: 'string' },
    json: { type: 'string' },
  },
});
const seed = Number(args.seed ?? Math.floor(Math.random() * 2 ** 31));
const backends: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
if (backends.includes('postgres') && !(await postgresAvailable())) throw new Error('PostgreSQL does not answer at TEST_DATABASE_URL');

const rows = [];
let failed = false;
for (const backend of backends) {
  const load = loadavg()[0]!.toFixed(1);
  console.log(`${backend}: seed ${seed}, ${args.kills} kills, ${args.pulls} pull requests (#4 fails its checks), load ${load}`);
  const result = await runCrashScenario({ backend, seed, kills: Number(args.kills), pulls: Number(args.pulls), failing: [4], ciDelayMs: 300, finishWithinMs: 600_000, log: (line) => console.log(`  ${line}`) });
  const restarts = [...result.restartsMs].sort((a, b) => a - b);
  const verdict = result.problems.length === 0 ? 'ok' : 'FAILED';
  failed ||= verdict !== 'ok';
  for (const problem of result.problems) console.log(`  PROBLEM: ${problem}`);
  const row = { backend, case: `${args.kills} kills, ${args.pulls} pull requests`, seed, kills: result.kills.length, merged: result.merged, dequeued: result.dequeued, restartMedianMs: restarts[Math.floor(restarts.length / 2)] ?? 0, totalS: Math.round(result.totalMs / 1000), load, verdict };
  rows.push(row);
  console.log(`  ${verdict}: ${result.kills.length} kills, ${result.merged} merged, ${result.dequeued} dequeued, restart median ${row.restartMedianMs} ms, ${row.totalS} s in all`);
}
console.table(rows);
if (args.json) await writeJsonResults(args.json, 'merge-queue-crash', rows.map((row) => ({ backend: row.backend, case: row.case, metrics: { kills: row.kills, merged: row.merged, dequeued: row.dequeued, restart_median_ms: row.restartMedianMs, total_s: row.totalS }, verdict: row.verdict })));
process.exit(failed ? 1 : 0);
