// The merge-queue simulation (issue 14): the production plan and transitions driven by a virtual
// clock and a simulated CI (merge-queue-sim-engine.ts) over one generated scenario
// (merge-queue-scenario.ts), comparing serial without batching, serial with batches and
// speculative checks, parallel and isolated, beside the ideal for the same CI budget
// (merge-queue-ideal.ts). Prints one table; `--json` writes its rows.
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { simulateIdeal } from './merge-queue-ideal.ts';
import { summarizeRun, type RunMetrics } from './merge-queue-metrics.ts';
import { generateScenario } from './merge-queue-scenario.ts';
import { simulateQueue } from './merge-queue-sim-engine.ts';
import { chooseStrategies, MERGE_QUEUE_FLAGS, queueStrategies, scenarioOptionsFrom, type MergeQueueFlags } from './merge-queue-strategies.ts';
import { writeJsonResults } from './json-results.ts';

const { values: args } = parseArgs({ options: { ...MERGE_QUEUE_FLAGS, only: { type: 'string' }, json: { type: 'string' } } });
const flags = args as MergeQueueFlags;
const scenarioOptions = scenarioOptionsFrom(flags);
const slots = Number(args.slots);
const filling = args.filling;
const strategies = queueStrategies(flags);
const chosen = chooseStrategies(strategies, args.only);

const scenario = generateScenario(scenarioOptions);
const bad = scenario.pulls.filter((pull) => pull.bad).length;
const p = scenarioOptions.failureRate;
const entropy = p <= 0 || p >= 1 ? 0 : -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
const runsPerHour = (slots * 60) / scenarioOptions.ciMinutes;
console.log(
  `Scenario: ${scenario.pulls.length} pull requests over ${scenarioOptions.hours} h (${scenarioOptions.arrivalsPerHour}/h, ${bad} bad), CI ${scenarioOptions.ciMinutes} min (${scenarioOptions.ciDistribution} ±${scenarioOptions.ciSpread}), ` +
    `${scenarioOptions.scopes} scopes (zipf ${scenarioOptions.zipfExponent}, second scope ${scenarioOptions.secondScopeRate}, barriers ${scenarioOptions.barrierRate}), ${slots} CI slots, ` +
    `batch_max_wait_time ${args.wait} s (${filling} filling rule), seed ${scenarioOptions.seed}`,
);
console.log(
  `CI budget: ${runsPerHour.toFixed(1)} runs/h. A run answers one yes/no question, so telling ${(p * 100).toFixed(0)}% bad pull requests from good ones takes at least ` +
    `H(${p}) = ${entropy.toFixed(3)} runs per pull request: ${(scenarioOptions.arrivalsPerHour * entropy).toFixed(1)} runs/h at ${scenarioOptions.arrivalsPerHour}/h` +
    `${scenarioOptions.arrivalsPerHour * entropy > runsPerHour ? ' — more than the budget: no strategy that checks every pull request can keep up' : ''}.`,
);
const rows: Array<RunMetrics & { settings: string; seconds: number }> = [];
for (const candidate of chosen) {
  const started = performance.now();
  const record = simulateQueue(scenario, candidate);
  rows.push({ ...summarizeRun(record, candidate.config.merge_queue.max_parallel_checks), settings: candidate.settings, seconds: (performance.now() - started) / 1000 });
}
const idealBatch = Math.max(1, ...strategies.map((candidate) => candidate.maxBatch));
rows.push({ ...summarizeRun(simulateIdeal(scenario, slots, idealBatch), slots), settings: 'knows the bad ones, never wastes a run', seconds: 0 });

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
console.log('| strategy | settings | merged | merged/h | in queue p50 min | p95 min | queued at end of each day | good dequeued | CI runs / merged | CI slot use |');
console.log('|---|---|---:|---:|---:|---:|---|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.label} | ${row.settings} | ${row.merged} | ${fmt(row.mergedPerHour, 1)} | ${fmt(row.queueP50)} | ${fmt(row.queueP95)} | ${row.queuedByDay.join(' / ')} | ${row.goodDequeued} | ${fmt(row.ciRunsPerMerged, 2)} | ${fmt(row.ciUse * 100)}% |`,
  );
}
const parallel = rows.find((row) => row.label === 'parallel');
if (parallel) console.log(`Target: parallel p50 ${fmt(parallel.queueP50)} min < 2 CI durations (${2 * scenarioOptions.ciMinutes} min): ${parallel.queueP50 < 2 * scenarioOptions.ciMinutes ? 'met' : 'MISSED'}`);
const badMerged = rows.reduce((sum, row) => sum + row.badMerged, 0);
if (badMerged > 0) console.log(`WRONG: ${badMerged} bad pull requests merged`);
console.log(`Simulated in ${rows.slice(0, -1).map((row) => `${fmt(row.seconds, 1)} s`).join(', ')}; load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
await writeJsonResults(
  args.json,
  'merge-queue-simulation',
  rows.map((row) => ({ backend: 'simulation', case: row.label, metrics: { 'merged/h': row.mergedPerHour, 'p50 min': row.queueP50, 'p95 min': row.queueP95, 'CI runs/merged': row.ciRunsPerMerged } })),
);
if (badMerged > 0) process.exitCode = 1;
