// `npm run bench`: every benchmark in sequence, each as a child process with its own table on the
// terminal, at modest sizes (whole run: minutes, not hours) unless --full, then one summary table
// built from the rows each writes with --json. Exit code 1 when any benchmark failed.
//
//   npm run bench [-- --backend pglite|postgres|both] [--full] [--only ingest,mixed]
//
// Ctrl-C reaches the running benchmark too (same process group): it cleans up and exits, and the
// run stops there. SIGTERM to this process alone is passed on to the running benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readJsonResults, type BenchResult } from './json-results.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    full: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});

interface Plan {
  name: string;
  /** Options of the modest run; --full passes none, so the benchmark's own defaults apply. */
  modest: string[];
  /** Takes one backend a run (no --backend both). */
  oneBackendPerRun?: boolean;
}

const PLANS: Plan[] = [
  { name: 'ingest', modest: ['--events', '5000', '--rounds', '3'] },
  { name: 'logs-list', modest: ['--events', '100000', '--elsewhere', '40000', '--samples', '100'] },
  { name: 'logs-aggregate', modest: ['--events', '100000', '--per-day', '20000', '--days', '7', '--runs', '3'] },
  { name: 'scope-reports', modest: ['--seconds', '5'] },
  { name: 'soak', modest: ['--minutes', '1', '--warmup-minutes', '0.25', '--sample-seconds', '3'], oneBackendPerRun: true },
  { name: 'mixed', modest: ['--seconds', '10', '--events', '100000'] },
];

interface Run {
  plan: Plan;
  backend: string;
}

interface Finished {
  run: Run;
  code: number;
  results: BenchResult[];
}

function runsOf(plan: Plan): Run[] {
  if (!plan.oneBackendPerRun || args.backend !== 'both') return [{ plan, backend: args.backend }];
  return ['pglite', 'postgres'].map((backend) => ({ plan, backend }));
}

let running: ChildProcess | undefined;
let interrupted = false;
process.on('SIGINT', () => (interrupted = true));
process.on('SIGTERM', () => ((interrupted = true), running?.kill('SIGTERM')));

/** The benchmark's exit code, or 128 + the signal that ended it. */
function spawnBenchmark(run: Run, jsonFile: string): Promise<number> {
  const options = [...(args.full ? [] : run.plan.modest), '--backend', run.backend, '--json', jsonFile];
  const child = spawn(process.execPath, ['--import', 'tsx', `bench/${run.plan.name}.ts`, ...options], { cwd: ROOT, stdio: 'inherit' });
  running = child;
  return new Promise((resolve) => child.on('exit', (code, signal) => ((running = undefined), resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)))));
}

async function runOne(run: Run, dir: string, index: number): Promise<Finished> {
  const jsonFile = join(dir, `${index}-${run.plan.name}.json`);
  const started = Date.now();
  console.log(`\n== ${run.plan.name} (${run.backend}${args.full ? ', full size' : ''})`);
  const code = await spawnBenchmark(run, jsonFile);
  console.log(`== ${run.plan.name}: exit ${code} after ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const results = await readJsonResults(jsonFile).then((report) => report.results, () => []);
  return { run, code, results };
}

const number = (value: number | null) => (value === null ? '–' : Number.isInteger(value) ? value.toLocaleString('en') : String(value));
const headline = (metrics: Record<string, number | null>) => Object.entries(metrics).map(([name, value]) => `${name} ${number(value)}`).join(', ');

function printSummary(finished: Finished[]): void {
  console.log('\n| benchmark | backend | case | headline | verdict |');
  console.log('|---|---|---|---|---|');
  for (const { run, code, results } of finished) {
    for (const r of results) console.log(`| ${run.plan.name} | ${r.backend} | ${r.case} | ${headline(r.metrics)} | ${r.verdict ?? ''} |`);
    if (code !== 0) console.log(`| ${run.plan.name} | ${run.backend} | – | – | FAILED: exit ${code} |`);
    else if (results.length === 0) console.log(`| ${run.plan.name} | ${run.backend} | – | – | FAILED: no results |`);
  }
}

if (!['pglite', 'postgres', 'both'].includes(args.backend)) throw new Error(`--backend: pglite, postgres or both, not ${args.backend}`);
const only = args.only?.split(',');
const unknown = only?.filter((name) => !PLANS.some((plan) => plan.name === name)) ?? [];
if (unknown.length > 0) throw new Error(`--only: no benchmark ${unknown.join(', ')}; there are ${PLANS.map((plan) => plan.name).join(', ')}`);
const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-results-'));
const started = Date.now();
const finished: Finished[] = [];
try {
  for (const run of PLANS.filter((plan) => !only || only.includes(plan.name)).flatMap(runsOf)) {
    const result = await runOne(run, dir, finished.length);
    finished.push(result);
    if (interrupted) break;
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
printSummary(finished);
const failed = finished.filter((f) => f.code !== 0 || f.results.length === 0);
console.log(`\n${finished.length} benchmark runs in ${((Date.now() - started) / 60_000).toFixed(1)} min${args.full ? '' : ' (modest sizes; --full for each benchmark\'s own)'}; ${failed.length === 0 ? 'none failed' : `failed: ${failed.map((f) => `${f.run.plan.name} (${f.run.backend})`).join(', ')}`}`);
process.exitCode = failed.length === 0 ? 0 : 1;
