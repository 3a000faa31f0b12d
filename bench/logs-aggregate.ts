// Aggregation cost (issues #7 and 16): GET .../logs/aggregate through HTTP beside DuckDB (an
// in-process column store, bench/duckdb-aggregate.ts) computing the same answer over a copy of
// the same rows, for two data sets: one day holding --events events (as many again elsewhere),
// and --days days of --per-day events each (the longest window the API allows is 93 days).
// Every single filter of the API and three common pairs; median of --runs after one warm-up.
// On PGlite the aggregate runs in slices (src/storage/queries/event-aggregate.ts): the longest
// time one statement held the session is printed, and `--unsliced` measures each case again in
// one transaction (the code before slicing) beside it.
// Each Switchyard answer is compared with DuckDB's (total, histogram, every facet); a
// difference stops the benchmark. Targets (issue 16): every 93-day aggregate under 1 s, and
// within 3× of DuckDB's time; on PGlite, within 2× of PostgreSQL (compare the two tables).
//
//   npx tsx bench/logs-aggregate.ts [--backend postgres|pglite|both] [--events 1000000] [--per-day 100000] [--days 93]
//        [--sets day,long] [--runs 5] [--storage] [--unsliced] [--json results.json]
// Aggregates are answered by the columnar copy (src/storage/columnar/), built before the cases;
// --storage measures each case again with the copy off (storage's own path, PGlite's sliced),
// and --unsliced PGlite's whole-transaction path too.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { Backend, Store } from '../src/storage/store.ts';
import { intervalSizeSeconds } from '../src/domain/activity-log/histogram.ts';
import { loadActivityLog, loadLongActivityLog, type LoadedLog } from './activity-log-data.ts';
import { BENCH_TOKEN as TOKEN, openBenchStore, startBenchApp } from './bench-store.ts';
import { EventAggregateQueries, type AggregateMode } from '../src/storage/queries/event-aggregate.ts';
import { DuckDbReference } from './duckdb-aggregate.ts';
import { writeJsonResults, type BenchResult } from './json-results.ts';
import { closeHttpAgent, httpGet, percentile, timed } from './latency.ts';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    events: { type: 'string', default: '1000000' },
    'per-day': { type: 'string', default: '100000' },
    days: { type: 'string', default: '93' },
    sets: { type: 'string', default: 'day,long' },
    runs: { type: 'string', default: '5' },
    unsliced: { type: 'boolean', default: false },
    storage: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const DAY_MS = 86_400_000;

async function median(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm caches and plans
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await timed(run));
  return percentile(samples, 50);
}

/** Filter values that exist in the data: a pull request of about 31 events, a busy batch, a rule's trigger. */
async function cases(store: Store, repositoryId: string, from: Date, to: Date): Promise<[string, string][]> {
  const inWindow = sql`repository_id = ${repositoryId} AND received_at >= ${from} AND received_at < ${to}`;
  const pull = (await sql<{ v: string }>`SELECT pull_request AS v FROM events WHERE ${inWindow} AND pull_request IS NOT NULL GROUP BY 1 ORDER BY abs(count(*) - 31), 1 LIMIT 1`.execute(store.db)).rows[0]!.v;
  const batch = (await sql<{ v: string }>`SELECT batch_pull_request AS v FROM events WHERE ${inWindow} AND batch_pull_request IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`.execute(store.db)).rows[0]!.v;
  const rule = 'Rule: automatic merge';
  const checksEnd = 'action.queue.checks_end';
  return [
    ['no filter', ''],
    ['outcome=failure', 'outcome=failure'],
    ['not_outcome=success', 'not_outcome=success'],
    ['event_type=checks_end', `event_type=${checksEnd}`],
    ['not_event_type=checks_start', 'not_event_type=action.queue.checks_start'],
    ['base_ref=main', 'base_ref=main'],
    [`trigger=${rule}`, `trigger=${encodeURIComponent(rule)}`],
    ['not_trigger=merge queue', 'not_trigger=merge%20queue'],
    [`pull_request=${pull}`, `pull_request=${pull}`],
    [`not_pull_request=${pull}`, `not_pull_request=${pull}`],
    [`batch_pull=${batch}`, `batch_pull=${batch}`],
    [`not_batch_pull=${batch}`, `not_batch_pull=${batch}`],
    ['outcome=failure + event_type=checks_end', `outcome=failure&event_type=${checksEnd}`],
    ['base_ref=main + outcome=failure', 'base_ref=main&outcome=failure'],
    ['trigger=merge queue + not_event_type=checks_start', 'trigger=merge%20queue&not_event_type=action.queue.checks_start'],
  ];
}

/** Bytes per event of the events table, its indexes, the count tables and the positions (migration 0033). */
async function storagePerEvent(store: Store): Promise<number> {
  const { rows } = await sql<{ bytes: string; events: string }>`
    SELECT (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
             WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname IN ('events', 'event_counts', 'event_positions')) AS bytes,
           (SELECT count(*) FROM events) AS events`.execute(store.db);
  return Number(rows[0]!.bytes) / Number(rows[0]!.events);
}

interface Answer {
  total: number;
  histogram: { start: string; count: number }[];
  [facet: string]: unknown;
}

function sameAnswer(ours: Answer, theirs: Awaited<ReturnType<DuckDbReference['aggregate']>>): string | undefined {
  if (ours.total !== theirs.total) return `total ${ours.total} against ${theirs.total}`;
  for (const bucket of ours.histogram) {
    if (bucket.count !== (theirs.buckets.get(Date.parse(bucket.start)) ?? 0)) return `histogram bucket ${bucket.start}`;
  }
  for (const facet of ['by_event_type', 'by_outcome', 'by_trigger', 'by_pull_request', 'by_batch_pull_request'] as const) {
    if (JSON.stringify(ours[facet]) !== JSON.stringify(theirs[facet])) return facet;
  }
  return undefined;
}

const results: BenchResult[] = [];

async function benchSet(backend: Backend, set: 'day' | 'long'): Promise<string[]> {
  const { store, dispose } = await openBenchStore(backend);
  const rows: string[] = [];
  try {
    const now = Date.now();
    let started = Date.now();
    const loaded: LoadedLog = set === 'day'
      ? await loadActivityLog(store, { events: Number(args.events), elsewhere: Number(args.events) }, now)
      : await loadLongActivityLog(store, { perDay: Number(args['per-day']), days: Number(args.days) }, now);
    const loadSeconds = (Date.now() - started) / 1000;
    // The count tables' upserts during the bulk load leave dead rows that autovacuum would reuse:
    // measured as loaded, then with the count tables rewritten.
    const bytesAsLoaded = await storagePerEvent(store);
    await sql`VACUUM FULL event_counts`.execute(store.db);
    const bytes = await storagePerEvent(store);
    console.error(`${backend}, ${set}: ${bytesAsLoaded.toFixed(1)} bytes per event as loaded, ${bytes.toFixed(1)} with the count tables rewritten`);
    started = Date.now();
    const duck = await DuckDbReference.load(store, loaded.repositoryId);
    console.error(`${backend}, ${set}: loaded in ${loadSeconds.toFixed(0)} s, DuckDB copy in ${((Date.now() - started) / 1000).toFixed(0)} s; ${bytes.toFixed(0)} bytes per event (events, indexes, counts)`);
    const copy = store.eventAggregates.copy;
    let copyBytes = 0;
    if (copy) {
      started = Date.now();
      await copy.warm([loaded.repositoryId]);
      copyBytes = (await copy.fileBytes()) / Number((await sql<{ n: string }>`SELECT count(*) AS n FROM events WHERE repository_id = ${loaded.repositoryId}`.execute(store.db)).rows[0]!.n);
      console.error(`${backend}, ${set}: columnar copy built in ${((Date.now() - started) / 1000).toFixed(0)} s, ${copyBytes.toFixed(1)} bytes per event on disk`);
    }
    const { app, baseUrl } = await startBenchApp(store);
    try {
      const window = set === 'day'
        ? { from: new Date(loaded.start - 30_000), to: new Date(loaded.end + 30_000) }
        : { from: new Date(loaded.end + 30_000 - Number(args.days) * DAY_MS), to: new Date(loaded.end + 30_000) };
      const step = intervalSizeSeconds(window);
      const setName = set === 'day' ? '1 day' : `${args.days} days`;
      const inWindow = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM events WHERE repository_id = ${loaded.repositoryId} AND received_at >= ${window.from} AND received_at < ${window.to}`.execute(store.db)).rows[0]!.n);
      for (const [name, search] of await cases(store, loaded.repositoryId, window.from, window.to)) {
        const url = `${baseUrl}/v1/repos/bench/busy/logs/aggregate?received_from=${encodeURIComponent(window.from.toISOString())}&received_to=${encodeURIComponent(window.to.toISOString())}${search ? `&${search}` : ''}`;
        // The columnar copy first (what the server answers with), then, asked for, storage alone.
        type Mode = AggregateMode | 'copy';
        const storageModes: Mode[] = backend === 'pglite' ? (args.unsliced ? ['sliced', 'one-transaction'] : ['sliced']) : ['parallel'];
        const modes: Mode[] = [...(copy ? ['copy' as const] : []), ...(args.storage || !copy ? storageModes : [])];
        const sliced = store.eventAggregates;
        for (const mode of modes) {
          // The route reads store.eventAggregates on each request, so a case can switch modes.
          Object.assign(store, { eventAggregates: mode === 'sliced' || mode === 'parallel' || mode === 'copy' ? sliced : new EventAggregateQueries(store.db, mode) });
          sliced.copyEnabled = mode === 'copy';
          sliced.longestSliceMs = 0;
          if (copy) copy.longestHoldMs = 0;
          const answeredBefore = copy?.counts.answered ?? 0;
          let answer: Answer | undefined;
          const http = await median(async () => {
            const response = await httpGet(url, { authorization: `Bearer ${TOKEN}` });
            if (response.status !== 200) throw new Error(`aggregate answered ${response.status}: ${response.body}`);
            answer = JSON.parse(response.body) as Answer;
          });
          if (mode === 'copy' && copy!.counts.answered - answeredBefore !== RUNS + 1) throw new Error(`${backend}, ${setName}, ${name}: the columnar copy left ${RUNS + 1 - (copy!.counts.answered - answeredBefore)} of ${RUNS + 1} to storage`);
          const hold = mode === 'sliced' ? sliced.longestSliceMs.toFixed(0) : mode === 'one-transaction' ? `${http.toFixed(0)} (all)` : mode === 'copy' && backend === 'pglite' ? copy!.longestHoldMs.toFixed(0) : '';
          const reference = await duck.aggregate(search, window.from, window.to, step);
          const difference = sameAnswer(answer!, reference);
          if (difference) throw new Error(`${backend} (${mode}), ${setName}, ${name}: Switchyard and DuckDB differ (${difference})`);
          const duckMs = await median(() => duck.aggregate(search, window.from, window.to, step));
          const verdict = [set === 'long' ? (http < 1000 ? '< 1 s met' : '< 1 s missed') : '', http <= 3 * duckMs ? '≤ 3× met' : '≤ 3× missed'].filter(Boolean).join(', ');
          const label = mode === 'copy' ? `${backend} copy` : mode === 'one-transaction' ? `${backend} unsliced` : `${backend} storage`;
          results.push({ backend: label, case: `${setName}, ${name}`, metrics: { 'HTTP ms': Math.round(http), 'DuckDB ms': Math.round(duckMs), ratio: Number((http / duckMs).toFixed(1)) }, verdict });
          rows.push(`| ${label} | ${setName} (${inWindow.toLocaleString('en')}) | ${name} | ${answer!.total.toLocaleString('en')} | ${http.toFixed(0)} | ${duckMs.toFixed(0)} | ${(http / duckMs).toFixed(1)} | ${hold} | ${verdict} |`);
          console.error(rows.at(-1));
        }
        Object.assign(store, { eventAggregates: sliced });
        sliced.copyEnabled = true;
      }
      rows.push(`| ${backend} | ${setName} | storage | ${bytes.toFixed(1)} bytes per event (${bytesAsLoaded.toFixed(1)} as loaded) | | | | | ${bytes < 1287 ? '< 1,287 met' : '< 1,287 missed'} |`);
      if (copy) rows.push(`| ${backend} | ${setName} | columnar copy | ${copyBytes.toFixed(1)} bytes per event (a temporary file per process); with storage ${(bytes + copyBytes).toFixed(1)} | | | | | ${bytes + copyBytes < 1287 ? 'with storage < 1,287 met' : 'with storage < 1,287 missed'} |`);
    } finally {
      await app.close();
    }
  } finally {
    closeHttpAgent();
    await dispose();
  }
  return rows;
}

const chosen: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
const sets = args.sets.split(',') as ('day' | 'long')[];
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
console.log(`aggregate: ${Number(args.events).toLocaleString('en')} events in one day; ${Number(args['per-day']).toLocaleString('en')} a day over ${args.days} days; median of ${RUNS} runs, milliseconds; load average ${load()} at start`);
console.log('| backend | window (events in it) | filter | total | Switchyard HTTP | DuckDB | ratio | longest hold of the PGlite session | targets |');
console.log('|---|---|---|---:|---:|---:|---:|---:|---|');
for (const backend of chosen) for (const set of sets) for (const row of await benchSet(backend, set)) console.log(row);
console.log(`load average ${load()} at the end`);
await writeJsonResults(args.json, 'logs-aggregate', results);
