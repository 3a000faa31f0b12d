// Evaluating every rule of a large configuration over one pull request (DESIGN.md §14): 200
// rules of 10 conditions of mixed kinds (bench/rules-workload.ts), parsed once, then evaluated
// over and over with the clock moving a second each time, as the engine re-evaluates a pull
// request. Per whole evaluation (all rules): wall and CPU p50/p99, the target being CPU p99 < 2 ms;
// beside it, the rules evaluated one by one (sharing no reads), and parsing them all.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { evaluateCondition, evaluateConditions, parseConditions, type Condition } from '../src/domain/rules/index.ts';
import { writeJsonResults } from './json-results.ts';
import { percentile } from './latency.ts';
import { benchRules, benchSnapshot } from './rules-workload.ts';

const { values: args } = parseArgs({
  options: {
    rules: { type: 'string', default: '200' },
    conditions: { type: 'string', default: '10' },
    samples: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '300' },
    json: { type: 'string' },
  },
});
const RULES = Number(args.rules);
const SAMPLES = Number(args.samples);
const WARMUP = Number(args.warmup);
const TARGET_P99_MS = 2;
const START = Date.parse('2024-05-03T12:00:00Z');

function parseAll(raw: unknown[][]): Condition[] {
  return raw.map((conditions, i) => {
    const parsed = parseConditions(conditions, ['pull_request_rules', i, 'conditions']);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return parsed.condition;
  });
}

interface Timing {
  wall: number[];
  cpu: number[];
}

function measure(samples: number, run: (i: number) => void): Timing {
  const timing: Timing = { wall: [], cpu: [] };
  for (let i = 0; i < WARMUP + samples; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    run(i);
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    if (i < WARMUP) continue;
    timing.wall.push(wall);
    timing.cpu.push((cpu.user + cpu.system) / 1000);
  }
  return timing;
}

const raw = benchRules(RULES, Number(args.conditions));
/** The leaves' texts: rules share some, and an evaluation of all the rules evaluates each text once. */
const texts = (node: unknown): string[] => (typeof node === 'string' ? [node] : Object.values(node as object).flatMap(texts));
const leaves = raw.flatMap(texts);
const snapshot = benchSnapshot();
const rules = parseAll(raw);
let matched = 0;
const evaluation = measure(SAMPLES, (i) => {
  const now = new Date(START + i * 1000);
  matched = evaluateConditions(rules, snapshot, now).filter((tree) => tree.match === 'true').length;
});
// For comparison: every rule on its own, sharing nothing (evaluateCondition once per rule).
const alone = measure(Math.max(100, Math.floor(SAMPLES / 4)), (i) => {
  const now = new Date(START + i * 1000);
  for (const rule of rules) evaluateCondition(rule, snapshot, now);
});
const parsing = measure(Math.max(20, Math.floor(SAMPLES / 20)), () => parseAll(raw));

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
console.log(`rules: ${RULES} rules × ${args.conditions} conditions (regex, glob, lists, teams, checks, times, schedule, or/not); ${SAMPLES} samples after ${WARMUP} warm-up; load average ${load()}`);
console.log(`${leaves.length} leaves, ${new Set(leaves).size} distinct; ${matched} rules match, the others are false or pending. CPU time is this process's (GC threads included).`);
console.log('| what | wall p50 ms | wall p99 ms | CPU p50 ms | CPU p99 ms | max CPU ms | CPU p99 < 2 ms |');
console.log('|---|---:|---:|---:|---:|---:|---|');
const row = (what: string, t: Timing, target: boolean) => {
  const cells = [percentile(t.wall, 50), percentile(t.wall, 99), percentile(t.cpu, 50), percentile(t.cpu, 99), Math.max(...t.cpu)].map((n) => n.toFixed(3));
  console.log(`| ${what} | ${cells.join(' | ')} | ${target ? (percentile(t.cpu, 99) < TARGET_P99_MS ? 'yes' : 'NO') : '—'} |`);
};
row(`evaluate all ${RULES} rules (evaluateConditions)`, evaluation, true);
row(`evaluate each rule alone (evaluateCondition × ${RULES})`, alone, false);
row(`parse all ${RULES} rules`, parsing, false);
console.log(`load average after: ${load()}`);
const met = percentile(evaluation.cpu, 99) < TARGET_P99_MS;
await writeJsonResults(args.json, 'rules-evaluation', [
  { backend: 'none', case: `evaluate ${RULES} rules × ${args.conditions}`, metrics: { 'CPU p50 ms': percentile(evaluation.cpu, 50), 'CPU p99 ms': percentile(evaluation.cpu, 99) }, verdict: met ? 'met' : 'missed' },
]);
