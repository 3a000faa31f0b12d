// The rules engine end to end (issue 30, Performance): Switchyard in this process with its rules
// engine, the fake hosting platform over real git, on PGlite and PostgreSQL.
//  1. Webhook to Summary: --rate changes a second (a label added or removed, a check run
//     completed) across --pulls open pull requests for --seconds, each of which the pull
//     request's Summary must show; per change, the time until the platform received a Summary
//     showing it (target p50 < 300 ms, p99 < 1 s), once per coalescing window of --coalesce.
//  2. Platform reads per evaluation beside it (target p50 ≤ 2 with webhooks keeping the snapshot
//     fresh): the service's own count (the snapshot) and every GET the evaluation made.
//  3. A configuration change (a push to the default branch touching .mergify.yml) re-evaluating
//     --config-pulls open pull requests: until all were evaluated, and until all Summaries show
//     it when it shows (target 60 s), and the writes where no Summary changed (target 0); with
//     the snapshot cache warm, and cold (Switchyard restarted, as when the parts aged out).
//
//   npx tsx bench/rules-engine.ts [--backend pglite|postgres|both] [--full] [--pulls 100] [--rate 20] [--seconds 10]
//     [--config-pulls 100] [--coalesce 1000,100] [--write-interval-ms 0] [--only latency,config] [--seed 1] [--json file]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Backend } from '../src/storage/store.ts';
import { postgresAvailable } from '../test/support/backends.ts';
import { writeJsonResults, type BenchResult } from './json-results.ts';
import { percentile } from './latency.ts';
import type { EvaluationCalls } from './rules-engine-calls.ts';
import { changeConfiguration, type ConfigChangeResult } from './rules-engine-config-change.ts';
import { createRepository, engineIdle, evaluateAll, openPulls, ticked, type ScenePull } from './rules-engine-scene.ts';
import { summaryWrites } from './rules-engine-writes.ts';
import { latencies, sendChanges, type ChangeLatency } from './rules-engine-traffic.ts';
import { RulesWorld } from './rules-engine-world.ts';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    full: { type: 'boolean', default: false },
    pulls: { type: 'string' },
    rate: { type: 'string', default: '20' },
    seconds: { type: 'string' },
    'config-pulls': { type: 'string' },
    coalesce: { type: 'string', default: '1000,100' },
    'write-interval-ms': { type: 'string', default: '0' },
    'platform-latency-ms': { type: 'string', default: '0' },
    'engine-concurrency': { type: 'string' },
    only: { type: 'string', default: 'latency,config' },
    seed: { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});
// Quick: every case at a size that shows it works; --full: the issue's figures.
const size = args.full ? { pulls: 200, seconds: 60, configPulls: 1000 } : { pulls: 100, seconds: 10, configPulls: 100 };
const pullCount = Number(args.pulls ?? size.pulls);
const seconds = Number(args.seconds ?? size.seconds);
const configPulls = Math.max(Number(args['config-pulls'] ?? size.configPulls), pullCount);
const rate = Number(args.rate);
const windows = args.coalesce.split(',').map(Number);
// What every start of Switchyard gets besides its coalescing window.
const settings = {
  writeIntervalMs: Number(args['write-interval-ms']),
  platformLatencyMs: Number(args['platform-latency-ms']),
  ...(args['engine-concurrency'] === undefined ? {} : { concurrency: Number(args['engine-concurrency']) }),
};
const only = new Set(args.only.split(','));
const backends: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
for (const backend of backends) if (backend !== 'pglite' && backend !== 'postgres') throw new Error(`--backend: pglite, postgres or both, not ${backend}`);
if (backends.includes('postgres') && !(await postgresAvailable())) throw new Error('PostgreSQL does not answer at TEST_DATABASE_URL');

const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
const loadBefore = load();
const machine = `${cpus().length} × ${readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU'}`;
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(`Rules engine: ${pullCount} pull requests changed at ${rate}/s for ${seconds} s per coalescing window (${windows.join(', ')} ms); a configuration change over ${configPulls}; write pacing ${settings.writeIntervalMs} ms, ${settings.platformLatencyMs} ms added to each platform answer, engine concurrency ${settings.concurrency ?? 'default'}`);
console.log(`Machine: ${machine}; Node ${process.version}; ${new Date().toISOString()}; commit ${commit}; load average ${loadBefore}`);

interface LatencyRow {
  backend: Backend;
  coalesceMs: number;
  samples: ChangeLatency[];
  evaluations: EvaluationCalls[];
  /** This process's CPU time (Switchyard, the fake platform, PGlite) per change, webhooks and drain included. */
  cpuMsPerChange: number;
}
interface ConfigRow {
  backend: Backend;
  label: string;
  visible: boolean;
  result: ConfigChangeResult;
}
const latencyRows: LatencyRow[] = [];
const configRows: ConfigRow[] = [];
const setupRows: { backend: Backend; text: string }[] = [];

for (const backend of backends) {
  const world = await RulesWorld.open(backend);
  try {
    await world.start({ coalesceMs: windows[0]!, ...settings });
    const began = Date.now();
    await createRepository(world);
    const pulls = await openPulls(world, configPulls);
    const opened = Date.now();
    await engineIdle(world, 30 * 60_000);
    const first = world.switchyard.calls.evaluations;
    setupRows.push({ backend, text: `${pulls.length} pull requests opened in ${((opened - began) / 1000).toFixed(1)} s; their first evaluations (nothing cached) done ${((Date.now() - opened) / 1000).toFixed(1)} s later: ${first.length} evaluations, ${fmt(mean(first.map((e) => e.reads)), 1)} snapshot reads and ${fmt(mean(first.map((e) => e.reads + e.lookups)), 1)} GETs each (mean), ${fmt(percentile(first.map((e) => e.ms), 50))} ms each (p50)` });
    console.log(`\n${backend}: ${setupRows.at(-1)!.text}; load ${load()}`);
    if (only.has('config')) {
      // Warm: every pull request was just evaluated by this Switchyard; cold: one just restarted.
      configRows.push(await configCase(world, backend, 'warm, no Summary changes', false, pulls));
      configRows.push(await configCase(world, backend, 'warm, every Summary changes', true, pulls));
      await world.start({ coalesceMs: windows[0]!, ...settings });
      configRows.push(await configCase(world, backend, 'cold, no Summary changes', false, pulls));
      await world.start({ coalesceMs: windows[0]!, ...settings });
      configRows.push(await configCase(world, backend, 'cold, every Summary changes', true, pulls));
    }
    const ci = world.platform.createApp('bench-ci');
    if (only.has('latency')) {
      for (const coalesceMs of windows) latencyRows.push(await latencyCase(world, ci, backend, coalesceMs, pulls.slice(0, pullCount)));
    }
    if (world.engineErrors.length) console.log(`  engine errors: ${world.engineErrors.length}, first: ${world.engineErrors[0]}`);
  } finally {
    await world.close();
  }
}

async function latencyCase(world: RulesWorld, ci: Parameters<typeof sendChanges>[1], backend: Backend, coalesceMs: number, pulls: ScenePull[]): Promise<LatencyRow> {
  // A fresh Switchyard with this window, its snapshot cache filled as webhooks keep it in production.
  await world.start({ coalesceMs, ...settings });
  await evaluateAll(world, pulls, 10 * 60_000);
  const logIndex = world.platform.requestLog.length;
  const evaluationsBefore = world.switchyard.calls.evaluations.length;
  const cpuBefore = process.cpuUsage();
  const profiling = process.env.RULES_BENCH_PROFILE ? await startProfile() : null;
  const changes = await sendChanges(world, ci, pulls, { ratePerSecond: rate, seconds, drainMs: 0, seed: Number(args.seed) });
  await engineIdle(world, 5 * 60_000);
  if (profiling) await profiling(`${process.env.RULES_BENCH_PROFILE}-${backend}-${coalesceMs}.cpuprofile`);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerChange = (cpu.user + cpu.system) / 1000 / changes.length;
  const evaluations = world.switchyard.calls.evaluations.slice(evaluationsBefore);
  const samples = latencies(world, changes, logIndex, evaluations);
  const shown = samples.flatMap((s) => (s.summaryMs === null ? [] : [s.summaryMs]));
  const never = samples.filter((s) => s.summaryMs === null && !s.superseded);
  const lostInFlight = never.filter((s) => s.duringEvaluation).length;
  console.log(`  ${backend}, coalescing ${coalesceMs} ms: ${changes.length} changes, Summary p50 ${p(shown, 50)} ms, p99 ${p(shown, 99)} ms, ${never.length} never shown (${lostInFlight} of them with a webhook answered during an evaluation of the same pull request); ${evaluations.length} evaluations; load ${load()}`);
  if (process.env.RULES_BENCH_DEBUG) {
    const writes = summaryWrites(world.platform, logIndex);
    for (const s of never.slice(0, 5)) {
      const c = s.change;
      console.log(`    never: #${c.pull.number} ${c.kind} ${c.condition}=${c.ticked} at +${c.at - changes[0]!.at} webhook +${s.webhookMs}`);
      for (const e of evaluations.filter((e) => e.number === c.pull.number)) console.log(`      eval +${e.startedAt - changes[0]!.at}..+${e.endedAt - changes[0]!.at} reads ${e.reads} writes ${e.writes}`);
      for (const w of writes.filter((w) => w.head === c.pull.head)) console.log(`      write +${w.at - changes[0]!.at} ${ticked(w.summary, c.condition)}`);
    }
  }
  return { backend, coalesceMs, samples, evaluations, cpuMsPerChange };
}

async function configCase(world: RulesWorld, backend: Backend, label: string, visible: boolean, pulls: ScenePull[]): Promise<ConfigRow> {
  const result = await changeConfiguration(world, pulls, visible, 30 * 60_000);
  console.log(`  ${backend}, configuration change (${label}): ${result.evaluations.length} evaluations in ${fmt(result.evaluatedMs / 1000, 1)} s, ${result.summaryWrites} Summary writes; load ${load()}`);
  return { backend, label, visible, result };
}

/** RULES_BENCH_PROFILE=path: a CPU profile of this process over the changes of each latency case. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
}

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '–';
}

function p(values: number[], q: number, digits = 0): string {
  return values.length ? fmt(percentile(values, q), digits) : '–';
}

function readsCells(evaluations: EvaluationCalls[]): string {
  const snapshot = evaluations.map((e) => e.reads);
  const gets = evaluations.map((e) => e.reads + e.lookups);
  return `${p(snapshot, 50)} / ${fmt(mean(snapshot), 2)} | ${p(gets, 50)} / ${fmt(mean(gets), 2)} | ${fmt(mean(evaluations.map((e) => e.writes)), 2)}`;
}

console.log(`\nLoad average ${loadBefore} → ${load()}`);
const results: BenchResult[] = [];
if (latencyRows.length) {
  console.log(`\n1–2. Webhook to Summary: ${rate} changes/s (label ready added/removed, check run ${'ci/test'} completed) across ${pullCount} pull requests for ${seconds} s; ms from the change on the platform`);
  console.log('| backend | coalesce ms | changes | never shown | webhooks answered p50 / p99 | Summary shown p50 | p99 | max | target p50 < 300, p99 < 1000 | evaluations | snapshot reads / eval p50 / mean | GETs / eval p50 / mean | writes / eval | eval ms p50 / p99 | of which platform p50 | CPU ms / change |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of latencyRows) {
    const shown = row.samples.flatMap((s) => (s.summaryMs === null ? [] : [s.summaryMs]));
    const hooks = row.samples.flatMap((s) => (s.webhookMs === null ? [] : [s.webhookMs]));
    const superseded = row.samples.filter((s) => s.superseded).length;
    const missed = row.samples.length - shown.length - superseded;
    const [p50, p99] = [percentile(shown, 50), percentile(shown, 99)];
    const verdict = missed === 0 && p50 < 300 && p99 < 1000 ? 'met' : 'MISSED';
    const ms = row.evaluations.map((e) => e.ms);
    const platformMs = row.evaluations.map((e) => e.platformMs);
    console.log(`| ${row.backend} | ${row.coalesceMs} | ${row.samples.length} | ${missed}${superseded ? ` (+${superseded} superseded)` : ''} | ${p(hooks, 50)} / ${p(hooks, 99)} | ${fmt(p50)} | ${fmt(p99)} | ${p(shown, 100)} | ${verdict} | ${row.evaluations.length} | ${readsCells(row.evaluations)} | ${p(ms, 50)} / ${p(ms, 99)} | ${p(platformMs, 50)} | ${fmt(row.cpuMsPerChange, 1)} |`);
    results.push({ backend: row.backend, case: `webhook to Summary, coalesce ${row.coalesceMs} ms`, metrics: { 'p50 ms': p50, 'p99 ms': p99, 'never shown': missed, 'GETs/eval p50': percentile(row.evaluations.map((e) => e.reads + e.lookups), 50), 'snapshot reads/eval mean': mean(row.evaluations.map((e) => e.reads)) }, verdict });
  }
}
if (configRows.length) {
  console.log(`\n3. Configuration change (push to main touching .mergify.yml) with ${configPulls} open pull requests; s from the push`);
  console.log('| backend | case | evaluations | all evaluated s | all Summaries show it s | Summary writes | all platform writes | target ≤ 60 s, 0 writes when unchanged | snapshot reads / eval p50 / mean | GETs / eval p50 / mean | writes / eval | eval ms p50 / p99 | of which platform p50 |');
  console.log('|---|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|');
  for (const { backend, label, visible, result } of configRows) {
    const seconds = (visible ? result.shownMs ?? Infinity : result.evaluatedMs) / 1000;
    const complete = visible ? result.shown === configPulls : result.summaryWrites === 0;
    const verdict = seconds <= 60 && complete ? 'met' : 'MISSED';
    const others = [...result.mutations].map(([kind, n]) => `${n} ${kind}`).join(', ');
    const ms = result.evaluations.map((e) => e.ms);
    const platformMs = result.evaluations.map((e) => e.platformMs);
    console.log(`| ${backend} | ${label} | ${result.evaluations.length} | ${fmt(result.evaluatedMs / 1000, 1)} | ${visible ? `${fmt((result.shownMs ?? NaN) / 1000, 1)} (${result.shown} of ${configPulls})` : '–'} | ${result.summaryWrites} | ${others || 'none'} | ${verdict} | ${readsCells(result.evaluations)} | ${p(ms, 50)} / ${p(ms, 99)} | ${p(platformMs, 50)} |`);
    results.push({ backend, case: `configuration change, ${label}`, metrics: { 'evaluated s': result.evaluatedMs / 1000, ...(visible ? { 'shown s': (result.shownMs ?? NaN) / 1000 } : {}), 'Summary writes': result.summaryWrites, 'GETs/eval mean': mean(result.evaluations.map((e) => e.reads + e.lookups)) }, verdict });
  }
}
for (const { backend, text } of setupRows) console.log(`\nSet-up, ${backend}: ${text}`);
await writeJsonResults(args.json, 'rules-engine', results);
process.exit(0);
