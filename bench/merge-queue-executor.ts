// The merge-queue simulation re-run through the real executor (issue 15): the scenario of
// merge-queue-simulation.ts, from the same flags, at a reduced size and with its time scaled
// down (a scenario minute takes --minute-ms real milliseconds), run for each setting compared by
// Switchyard's executor against the fake platform (merge-queue-executor-run.ts) and by the
// simulation over the same period; one table of both side by side, with the real overheads the
// simulation has none of. Exit 1 when a run went wrong: a pull request not merged once or
// dequeued with a reason, a culprit merged or a good one failed (queueProblems).
//
//   npx tsx bench/merge-queue-executor.ts [--backend pglite|postgres] [--arrivals 20] [--hours 1.5] [--drain-hours 1]
//     [--minute-ms 500] [--only serial-1,serial-batch,parallel] [--tick-ms 100] [--poll-ms 1000] [simulation flags]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Backend } from '../src/storage/store.ts';
import { postgresAvailable } from '../test/support/backends.ts';
import { runThroughExecutor, type ExecutorRun } from './merge-queue-executor-run.ts';
import { percentileOf, summarizeRun, type RunMetrics } from './merge-queue-metrics.ts';
import { generateScenario } from './merge-queue-scenario.ts';
import { simulateQueue } from './merge-queue-sim-engine.ts';
import { chooseStrategies, MERGE_QUEUE_FLAGS, queueStrategies, scenarioOptionsFrom, type MergeQueueFlags } from './merge-queue-strategies.ts';
import { writeJsonResults } from './json-results.ts';

const { values: args } = parseArgs({
  options: {
    ...MERGE_QUEUE_FLAGS,
    // A reduced size: 31 pull requests (3 bad) at the default seed.
    arrivals: { type: 'string', default: '20' },
    hours: { type: 'string', default: '1.5' },
    'drain-hours': { type: 'string', default: '1' },
    'minute-ms': { type: 'string', default: '500' },
    backend: { type: 'string', default: 'pglite' },
    only: { type: 'string', default: 'serial-1,serial-batch,parallel' },
    'tick-ms': { type: 'string', default: '100' },
    'poll-ms': { type: 'string', default: '1000' },
    'finish-seconds': { type: 'string', default: '180' },
    json: { type: 'string' },
  },
});
const flags = args as MergeQueueFlags;
const backend = args.backend as Backend;
if (backend !== 'pglite' && backend !== 'postgres') throw new Error(`--backend: pglite or postgres, not ${args.backend}`);
if (backend === 'postgres' && !(await postgresAvailable())) throw new Error('PostgreSQL does not answer at TEST_DATABASE_URL');
if (Number(args['flaky-rate']) > 0) throw new Error('--flaky-rate: the fake CI here fails bad pull requests only, not flaky runs');

const MINUTE = 60_000;
const scale = Number(args['minute-ms']) / MINUTE;
const scenario = generateScenario(scenarioOptionsFrom(flags));
const periodHours = Number(args.hours) + Number(args['drain-hours']);
const periodMs = periodHours * 3_600_000;
// batch_max_wait_time is whole seconds in the service: the simulation gets what the scaled setting amounts to.
const realWait = Math.round(Number(args.wait) * scale);
const strategies = chooseStrategies(queueStrategies(flags, realWait / scale), args.only);
// The simulation's period is the real run's: arrivals for --hours, then --drain-hours without.
const simulated = { ...scenario, options: { ...scenario.options, hours: periodHours } };

const machine = `${cpus().length} × ${readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU'}`;
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
const loadBefore = load();
const bad = scenario.pulls.filter((pull) => pull.bad).length;
console.log(
  `Scenario: ${scenario.pulls.length} pull requests over ${args.hours} h (${args.arrivals}/h, ${bad} bad), then ${args['drain-hours']} h without arrivals; CI ${args['ci-minutes']} min (${args['ci-distribution']} ±${args['ci-spread']}), ` +
    `${args.scopes} scopes (zipf ${args.zipf}), ${args.slots} CI slots, batch_max_wait_time ${realWait} s real = ${(realWait / scale / 60).toFixed(1)} scenario min, seed ${args.seed}`,
);
console.log(`Scale: a scenario minute takes ${args['minute-ms']} ms (a ${args['ci-minutes']}-minute CI run ${((Number(args['ci-minutes']) * MINUTE * scale) / 1000).toFixed(1)} s); executor tick ${args['tick-ms']} ms, poll ${args['poll-ms']} ms; ${backend}`);
console.log(`Machine: ${machine}; ${new Date().toISOString()}; commit ${commit}; load average ${loadBefore}`);

interface Row {
  label: string;
  settings: string;
  sim: RunMetrics;
  real: RunMetrics;
  run: ExecutorRun;
}

const rows: Row[] = [];
let failed = false;
for (const strategy of strategies) {
  const slots = strategy.config.merge_queue.max_parallel_checks;
  const sim = summarizeRun(simulateQueue(simulated, strategy), slots);
  console.log(`\n${strategy.label} (${strategy.settings}): load ${load()}`);
  const run = await runThroughExecutor({ backend, scenario, strategy, scale, periodMs, tickMs: Number(args['tick-ms']), pollMs: Number(args['poll-ms']), finishWithinMs: Number(args['finish-seconds']) * 1000, say: (line) => console.log(`  ${line}`) });
  const real = summarizeRun(run.record, slots);
  for (const problem of run.problems) console.log(`  PROBLEM: ${problem}`);
  failed ||= run.problems.length > 0;
  const caught = run.record.outcomes.filter((pull) => pull.bad && pull.code === 'CHECKS_FAILED').length;
  console.log(`  ${run.problems.length === 0 ? 'ok' : 'FAILED'}: ${real.merged} merged in the period, ${caught} of ${bad} culprits dequeued CHECKS_FAILED in it, ${run.closedAtEnd} still queued at its end, closed; ${run.ciPushes} fake CI runs (one per push to a queue branch) for ${run.branchAttempts} batch attempts on a branch; ${(run.wallMs / 1000).toFixed(0)} s`);
  console.log(`  platform writes of the queue: ${[...run.writes.byKind].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
  rows.push({ label: strategy.label, settings: strategy.settings, sim, real, run });
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
console.log(`\nLoad average ${loadBefore} → ${load()}`);
console.log('| setting | settings | merged/h sim | merged/h real | in queue p50 / p95 min, sim | real | CI runs / merged, sim | real |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const { label, settings, sim, real } of rows) {
  console.log(`| ${label} | ${settings} | ${fmt(sim.mergedPerHour, 1)} | ${fmt(real.mergedPerHour, 1)} | ${fmt(sim.queueP50)} / ${fmt(sim.queueP95)} | ${fmt(real.queueP50)} / ${fmt(real.queueP95)} | ${fmt(sim.ciRunsPerMerged, 2)} | ${fmt(real.ciRunsPerMerged, 2)} |`);
}

// Issue 26: what a batch costs in CI runs, and the platform in writes (target ≤ 3 content-creating
// writes per merged pull request: GitHub allows about 80 a minute and 500 an hour per client).
console.log('\nCost of the whole run (drain included): CI runs started per batch attempt checked on a queue branch, platform writes per pull request merged');
// A batch's own size beside the merges into batch commits per attempt: writes proportional to the
// batch, not to the queue ahead of it.
console.log('| setting | batch attempts on a branch | pull requests / attempt | merges into batch commits / attempt | CI runs | CI runs / attempt | merged | content writes / merged | all writes / merged | longest executor pass ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const { label, run } of rows) {
  const perMerged = (n: number) => fmt(n / run.mergedOnPlatform, 2);
  const perAttempt = (n: number) => fmt(n / run.branchAttempts, 2);
  console.log(
    `| ${label} | ${run.branchAttempts} | ${perAttempt(run.branchAttemptPulls)} | ${perAttempt(run.writes.byKind.get('POST /merges') ?? 0)} | ${run.ciPushes} | ${perAttempt(run.ciPushes)} | ${run.mergedOnPlatform} | ${perMerged(run.writes.content)} | ${perMerged(run.writes.all)} | ${fmt(percentileOf(run.overheads.pass, 100))} |`,
  );
}

const STEPS: Array<[keyof ExecutorRun['overheads'], string]> = [
  ['enterLag', 'arrival → entered'],
  ['prepare', 'batch started → checks started'],
  ['verdictRecorded', 'CI verdict → recorded'],
  ['merge', 'free to merge → merged'],
  ['pass', 'one pass of the executor'],
];
const inMinutes = (ms: number) => fmt(ms / scale / MINUTE, 1);
console.log('\nReal overheads, p50 / p95 / max in ms (in scenario minutes), n samples: the simulation takes each as 0');
console.log(`| setting | ${STEPS.map(([, name]) => name).join(' | ')} |`);
console.log(`|---|${STEPS.map(() => '---:').join('|')}|`);
for (const { label, run } of rows) {
  const cells = STEPS.map(([key]) => {
    const samples = run.overheads[key];
    const [p50, p95, max] = [percentileOf(samples, 50), percentileOf(samples, 95), percentileOf(samples, 100)];
    return `${fmt(p50)} / ${fmt(p95)} / ${fmt(max)} (${inMinutes(p50)} / ${inMinutes(p95)} / ${inMinutes(max)}), n ${samples.length}`;
  });
  console.log(`| ${label} | ${cells.join(' | ')} |`);
}

await writeJsonResults(
  args.json,
  'merge-queue-executor',
  rows.map(({ label, sim, real, run }) => ({
    backend,
    case: label,
    metrics: { 'CI runs/attempt': run.ciPushes / run.branchAttempts, 'content writes/merged': run.writes.content / run.mergedOnPlatform, 'writes/merged': run.writes.all / run.mergedOnPlatform, 'longest pass ms': percentileOf(run.overheads.pass, 100), 'merged/h sim': sim.mergedPerHour, 'merged/h real': real.mergedPerHour, 'p50 min sim': sim.queueP50, 'p50 min real': real.queueP50, 'p95 min sim': sim.queueP95, 'p95 min real': real.queueP95, 'CI runs/merged sim': sim.ciRunsPerMerged, 'CI runs/merged real': real.ciRunsPerMerged },
    verdict: run.problems.length === 0 ? 'ok' : 'FAILED',
  })),
);
console.log(failed ? '\nFAILED: see the problems above' : '\nEvery pull request merged once or dequeued with a reason; no culprit merged, no good one failed.');
process.exit(failed ? 1 : 0);
