// Mixed traffic (issue #8): scope reports, ingestion, activity-log pages and aggregates at once,
// in the fixed proportions of MIX (bench/mixed-traffic.ts), against a real Switchyard process
// (autocannon, 50 connections, each request's kind drawn at random) over a preloaded activity
// log. Reports per kind the requests served, req/s, p50, p99 and non-2xx answers, and the
// server's peak resident memory. Any non-2xx answer or failed request makes the exit code 1.
//
// `--without-aggregates` runs each backend a second time with the same mix but no aggregates,
// beside the first (issue 16: scope reports' p99 within 2× of that run's).
//
//   npx tsx bench/mixed.ts [--backend pglite|postgres|both] [--seconds 20] [--events 100000]
//                          [--without-aggregates] [--database-url postgres://…] [--json results.json]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { Backend } from '../src/storage/store.ts';
import { startSwitchyard, type SwitchyardProcess } from '../test/support/switchyard-process.ts';
import { SERVICE_TOKEN } from '../test/support/test-app.ts';
import { loadActivityLog } from './activity-log-data.ts';
import { createBenchStorage, type BenchStorage } from './bench-store.ts';
import { writeJsonResults, type BenchResult } from './json-results.ts';
import { percentile } from './latency.ts';
import { buildRequest, drawKind, ingestionBodies, INGEST_BATCH, KIND_LABELS, KINDS, MIX, type Kind, type TrafficContext } from './mixed-traffic.ts';
import { peakResidentBytes, residentBytes } from './process-memory.ts';
import { call, createCiKeys, writeScopeTargets } from './scope-report-load.ts';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '20' },
    events: { type: 'string', default: '100000' },
    'database-url': { type: 'string' },
    'without-aggregates': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const EVENTS = Number(args.events);
const CONNECTIONS = 50;
const RSS_SAMPLE_MS = 250;
const MB = 1024 * 1024;

interface KindStats {
  latencies: number[];
  non2xx: number;
  /** The first non-2xx answer, to say why. */
  firstFailure?: string;
}

interface Outcome {
  stats: Record<Kind, KindStats>;
  /** Requests that got no answer, connection errors and timeouts (autocannon does not say of which kind). */
  errors: number;
  /** Of those, timeouts. */
  timeouts: number;
  seconds: number;
  peakRssMb: number;
  peakRssUnderLoadMb: number;
}

/** Loads the activity log and the scope-report targets, before the server opens the storage. */
async function preload(storage: BenchStorage): Promise<void> {
  const store = await storage.open();
  try {
    await loadActivityLog(store, { events: EVENTS, elsewhere: EVENTS }, Date.now());
    await writeScopeTargets(store);
  } finally {
    await store.close();
  }
}

async function trafficContext(base: string): Promise<TrafficContext> {
  const ciKeys = await createCiKeys(base);
  const reader = await call(base, 'POST', '/v1/admin/keys', SERVICE_TOKEN, { owner: 'bench', scope: 'admin', name: 'bench reader' });
  return { ciKeys, readerKey: ((await reader.json()) as { key: string }).key, ingestBodies: ingestionBodies(Date.now()), ingestsBuilt: 0 };
}

/**
 * One autocannon run whose requests each draw their kind. autocannon keeps one latency histogram
 * for all; per kind, each request's kind rides in its context, and `onResponse` (called with the
 * context) hands it to the `response` event (called with the latency) that autocannon emits right
 * after, synchronously, for the same answer.
 */
async function drive(base: string, t: TrafficContext, pid: number, mix: Record<Kind, number>): Promise<Outcome> {
  const stats = Object.fromEntries(KINDS.map((kind) => [kind, { latencies: [], non2xx: 0 }])) as unknown as Record<Kind, KindStats>;
  let answered: Kind = KINDS[0]!;
  let peakUnderLoad = 0;
  const sampler = setInterval(() => void residentBytes(pid).then((rss) => (peakUnderLoad = Math.max(peakUnderLoad, rss)), () => undefined), RSS_SAMPLE_MS);
  const started = performance.now();
  const options: autocannon.Options = {
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (request, context) => {
          const kind = drawKind(mix);
          (context as { kind?: Kind }).kind = kind;
          return { ...request, ...buildRequest(kind, t) };
        },
        onResponse: (status, body, context) => {
          answered = (context as { kind: Kind }).kind;
          if (status >= 200 && status < 300) return;
          const kind = stats[answered];
          kind.non2xx++;
          kind.firstFailure ??= `${status} ${body.slice(0, 300)}`;
        },
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, ms) => stats[answered].latencies.push(ms));
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { stats, errors: result.errors, timeouts: result.timeouts, seconds, peakRssMb: (await peakResidentBytes(pid)) / MB, peakRssUnderLoadMb: peakUnderLoad / MB };
}

async function benchBackend(backend: Backend, mix: Record<Kind, number>): Promise<Outcome> {
  const storage = await createBenchStorage(backend, args['database-url']);
  let server: SwitchyardProcess | undefined;
  // Interrupted, it still stops its server and removes its schema or directory.
  const interrupted = () => void (async () => (await server?.kill(), await storage.remove()))().finally(() => process.exit(130));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const loadStart = Date.now();
    await preload(storage);
    console.error(`${backend}: preloaded in ${((Date.now() - loadStart) / 1000).toFixed(0)} s`);
    server = await startSwitchyard(storage.env, { LOG_LEVEL: 'warn' });
    const outcome = await drive(server.baseUrl, await trafficContext(server.baseUrl), server.child.pid!, mix);
    const code = await server.stop();
    if (code !== 0) throw new Error(`${backend}: the server stopped with exit code ${code}: ${server.output()}`);
    return outcome;
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    await server?.kill().catch(() => undefined);
    await storage.remove();
  }
}

/** NaN (null in JSON) for a kind that got no answer at all. */
const quantile = (latencies: number[], p: number) => (latencies.length === 0 ? NaN : Number(percentile(latencies, p).toFixed(1)));
const count = (n: number) => n.toLocaleString('en');

function resultRows(backend: Backend, outcome: Outcome): BenchResult[] {
  const served = KINDS.reduce((sum, kind) => sum + outcome.stats[kind].latencies.length, 0);
  const row = (name: string, mix: number, latencies: number[], non2xx: number, extra: Record<string, number> = {}): BenchResult => ({
    backend,
    case: name,
    metrics: { 'mix %': mix, served: latencies.length, 'share served %': Number(((100 * latencies.length) / served).toFixed(1)), 'req/s': Math.round(latencies.length / outcome.seconds), 'p50 ms': quantile(latencies, 50), 'p99 ms': quantile(latencies, 99), 'non-2xx': non2xx, ...extra },
    verdict: non2xx === 0 && (name !== 'all' || outcome.errors === 0) ? 'no failures' : 'FAILURES',
  });
  const all = KINDS.flatMap((kind) => outcome.stats[kind].latencies);
  const failures = KINDS.reduce((sum, kind) => sum + outcome.stats[kind].non2xx, 0);
  return [
    ...KINDS.map((kind) => row(KIND_LABELS[kind], MIX[kind], outcome.stats[kind].latencies, outcome.stats[kind].non2xx)),
    row('all', 100, all, failures, { 'no answer': outcome.errors, 'server peak RSS MB': Math.round(outcome.peakRssMb) }),
  ];
}

function printRows(rows: BenchResult[], outcome: Outcome): void {
  for (const r of rows) {
    const m = r.metrics;
    const rss = r.case === 'all' ? `${Math.round(outcome.peakRssMb)} (${Math.round(outcome.peakRssUnderLoadMb)} under load)` : '';
    const noAnswer = r.case === 'all' ? count(m['no answer']!) : '';
    console.log(`| ${r.backend} | ${r.case} | ${m['mix %']}% | ${count(m.served!)} | ${m['share served %']!.toFixed(1)}% | ${count(m['req/s']!)} | ${m['p50 ms']!.toFixed(1)} | ${m['p99 ms']!.toFixed(1)} | ${count(m['non-2xx']!)} | ${noAnswer} | ${rss} |`);
  }
}

function reportFailures(backend: Backend, outcome: Outcome): boolean {
  let failed = outcome.errors > 0;
  if (failed) console.error(`${backend}: ${outcome.errors} requests failed without an answer (${outcome.timeouts} of them timeouts)`);
  for (const kind of KINDS) {
    const { non2xx, firstFailure } = outcome.stats[kind];
    if (non2xx === 0) continue;
    failed = true;
    console.error(`${backend}: ${KIND_LABELS[kind]}: ${non2xx} non-2xx answers, the first: ${firstFailure}`);
  }
  return failed;
}

const chosen: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
const mix = KINDS.map((kind) => `${MIX[kind]}% ${KIND_LABELS[kind]}`).join(', ');
console.log(`mixed traffic: ${CONNECTIONS} connections, ${SECONDS} s per backend; ${mix}; activity log of ${count(EVENTS)} events in bench/busy's last day and ${count(EVENTS)} more elsewhere, ingestion batches of ${INGEST_BATCH}; ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)}`);
console.log('| backend | kind | share of mix | served | share served | req/s | p50 ms | p99 ms | non-2xx | no answer | server peak RSS MB |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const results: BenchResult[] = [];
let failed = false;
const mixes: [string, Record<Kind, number>][] = [['', MIX], ...(args['without-aggregates'] ? [[' without aggregates', { ...MIX, aggregate: 0 }] as [string, Record<Kind, number>]] : [])];
for (const backend of chosen) {
  for (const [label, mix] of mixes) {
    const outcome = await benchBackend(backend, mix);
    const rows = resultRows(backend, outcome).filter((row) => mix[KINDS.find((kind) => KIND_LABELS[kind] === row.case) ?? 'ingest'] > 0);
    for (const row of rows) row.backend = `${backend}${label}`;
    printRows(rows, outcome);
    results.push(...rows);
    failed = reportFailures(backend, outcome) || failed;
  }
}
await writeJsonResults(args.json, 'mixed', results);
process.exitCode = failed ? 1 : 0;
