// Activity log listing latency (issue #6): p50 and p99 of pages through HTTP (GET
// /v1/repos/{o}/{r}/logs on loopback, keep-alive) beside the floor, the same page SQL executed
// directly through the store in the same process, over a repository with a million events in its
// last day (and more in another repository and in earlier days). Targets: HTTP within twice the
// floor plus 2 ms; a page deep in a walk costs no more than a first page.
//
//   npx tsx bench/logs-list.ts [--backend pglite|postgres|both] [--events 1000000] [--elsewhere 400000]
//                              [--samples 300] [--database-url postgres://…] [--explain] [--json results.json]
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { Backend, Store } from '../src/storage/store.ts';
import { loadActivityLog } from './activity-log-data.ts';
import { BENCH_TOKEN as TOKEN, openBenchStore, startBenchApp } from './bench-store.ts';
import { writeJsonResults, type BenchResult } from './json-results.ts';
import { closeHttpAgent, httpGet, percentile, timed, type HttpAnswer } from './latency.ts';
import { buildScenarios, type Scenario } from './logs-list-scenarios.ts';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    events: { type: 'string', default: '1000000' },
    elsewhere: { type: 'string', default: '400000' },
    samples: { type: 'string', default: '300' },
    'database-url': { type: 'string' },
    explain: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const SAMPLES = Number(args.samples);
const WARMUP = 20;
const SLOW_SAMPLES = 60;
const HEADERS = { authorization: `Bearer ${TOKEN}` };

interface Percentiles {
  p50: number;
  p99: number;
}

interface Result {
  name: string;
  rows: number;
  floor: Percentiles;
  http: Percentiles;
  /** GET /v1/default_products/bench, interleaved: HTTP, a credential and one storage read. */
  reference: Percentiles;
}

async function explain(store: Store, scenario: Scenario): Promise<void> {
  const compiled = store.eventLog.pageQuery(scenario.request).compile();
  const plan = await store.db.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `EXPLAIN (ANALYZE, BUFFERS) ${compiled.sql}` });
  console.log(`\n-- ${scenario.name}\n${plan.rows.map((row) => Object.values(row)[0]).join('\n')}`);
}

async function measure(store: Store, baseUrl: string, scenario: Scenario): Promise<Result> {
  const compiled = store.eventLog.pageQuery(scenario.request).compile();
  const url = `${baseUrl}/v1/repos/bench/busy/logs?${scenario.search}`;
  const floor: number[] = [];
  const viaHttp: number[] = [];
  const reference: number[] = [];
  let answer: HttpAnswer | undefined;
  let samples = SAMPLES;
  for (let i = 0; i < WARMUP + samples; i++) {
    // Interleaved, so all three see the same state of caches and of the machine.
    const httpMs = await timed(async () => (answer = await httpGet(url, HEADERS)));
    if (answer?.status !== 200) throw new Error(`${scenario.name}: HTTP ${answer?.status} ${answer?.body}`);
    const floorMs = await timed(() => store.db.executeQuery(compiled));
    const referenceMs = await timed(() => httpGet(`${baseUrl}/v1/default_products/bench`, HEADERS));
    if (i >= WARMUP) (viaHttp.push(httpMs), floor.push(floorMs), reference.push(referenceMs));
    // A page slower than 20 ms gets fewer samples, so a worst case does not take minutes.
    if (i === 0 && floorMs > 20) samples = Math.min(SAMPLES, SLOW_SAMPLES);
  }
  const rows = (JSON.parse(answer!.body) as { size: number }).size;
  return { name: scenario.name, rows, floor: summary(floor), http: summary(viaHttp), reference: summary(reference) };
}

const summary = (samples: number[]): Percentiles => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });

const ms = (value: number) => value.toFixed(2).padStart(7);

/** The target: HTTP within twice the floor plus 2 ms. */
const withinTarget = (http: number, floor: number) => http <= 2 * floor + 2;

function report(backend: Backend, results: Result[]): void {
  console.log(`\n${backend}: page latency in ms (per_page 10, ${SAMPLES} samples each, ${SLOW_SAMPLES} for pages over 20 ms)`);
  console.log('| page | rows | floor p50 | HTTP p50 | ≤ 2×floor+2 | floor p99 | HTTP p99 | ≤ 2×floor+2 | reference p50 / p99 |');
  console.log('|---|---:|---:|---:|---|---:|---:|---|---:|');
  for (const r of results) {
    const verdict = (http: number, floor: number) => (withinTarget(http, floor) ? 'yes' : 'NO');
    const cells = [r.name, r.rows, ms(r.floor.p50), ms(r.http.p50), verdict(r.http.p50, r.floor.p50), ms(r.floor.p99), ms(r.http.p99), verdict(r.http.p99, r.floor.p99), `${ms(r.reference.p50)} / ${ms(r.reference.p99)}`];
    console.log(`| ${cells.join(' | ')} |`);
  }
  const first = results[0]!;
  for (const deep of results.filter((r) => r.name.startsWith('deep'))) {
    console.log(`${deep.name}: floor p50 ${(deep.floor.p50 / first.floor.p50).toFixed(2)}× the first page's, HTTP p50 ${(deep.http.p50 / first.http.p50).toFixed(2)}×`);
  }
}

/** The backend's pages in one row: how many meet the target, the slowest HTTP p50 and p99. */
function summaryRow(backend: Backend, results: Result[]): BenchResult {
  const p50Met = results.filter((r) => withinTarget(r.http.p50, r.floor.p50)).length;
  const p99Met = results.filter((r) => withinTarget(r.http.p99, r.floor.p99)).length;
  const slowest = (pick: (r: Result) => number) => Number(Math.max(...results.map(pick)).toFixed(2));
  return {
    backend,
    case: `${results.length} pages`,
    metrics: { 'slowest HTTP p50 ms': slowest((r) => r.http.p50), 'slowest HTTP p99 ms': slowest((r) => r.http.p99) },
    verdict: `HTTP ≤ 2×floor+2 ms: p50 on ${p50Met}/${results.length} pages, p99 on ${p99Met}/${results.length}`,
  };
}

const summaries: BenchResult[] = [];

async function run(backend: Backend): Promise<void> {
  const { store, dispose } = await openBenchStore(backend, args['database-url']);
  // Interrupted, it still removes its schema or directory.
  const interrupted = () => void dispose().finally(() => process.exit(130));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const loadStart = Date.now();
    const loaded = await loadActivityLog(store, { events: Number(args.events), elsewhere: Number(args.elsewhere) }, Date.now());
    const { count } = await store.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    const busy = await sql<{ n: string }>`SELECT count(*) AS n FROM events WHERE repository_id = ${loaded.repositoryId} AND received_at >= ${new Date(loaded.start)}`.execute(store.db);
    console.log(`\n${backend}: loaded ${count} events (${busy.rows[0]!.n} in the busy repository's last day) in ${((Date.now() - loadStart) / 1000).toFixed(0)} s`);
    const { app, baseUrl } = await startBenchApp(store);
    const scenarios = await buildScenarios(store, loaded);
    if (args.explain) for (const scenario of scenarios) await explain(store, scenario);
    const results: Result[] = [];
    const loadBefore = loadavg()[0]!;
    for (const scenario of scenarios) results.push(await measure(store, baseUrl, scenario));
    report(backend, results);
    summaries.push(summaryRow(backend, results));
    // The machine's other work shows in the p99s: say how busy it was.
    console.log(`load average (1 min) ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after; ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
    closeHttpAgent();
    await app.close();
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    await dispose();
  }
}

for (const backend of (args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend]) as Backend[]) await run(backend);
await writeJsonResults(args.json, 'logs-list', summaries);
