// Aggregation cost (issue #7): GET .../logs/aggregate over a one-day window holding 1,000,000
// events and over 30 days, through HTTP, beside (a) the naive plan, one SQL query per facet, and
// (b) a bare count(*) over the same window (the cost of touching the rows at all), all in the
// same process and run. Targets: the one-day aggregate within 3× of count(*) and at least 2×
// faster than the naive plan. Those unfiltered windows are answered from the count tables
// (migration 0005); the one-day window filtered by outcome measures the one-pass scan every
// filtered aggregate takes (no target; the naive plan and count(*) stay unfiltered references).
//
//   npx tsx bench/logs-aggregate.ts [--backend postgres|pglite|both] [--events 1000000] [--runs 7] [--json results.json]
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import type { Backend } from '../src/storage/store.ts';
import type { Database } from '../src/storage/database.ts';
import { intervalSizeSeconds } from '../src/domain/activity-log/histogram.ts';
import { loadActivityLog } from './activity-log-data.ts';
import { BENCH_TOKEN as TOKEN, openBenchStore, startBenchApp } from './bench-store.ts';
import { writeJsonResults, type BenchResult } from './json-results.ts';
import { closeHttpAgent, httpGet, percentile, timed } from './latency.ts';

const { values: args } = parseArgs({ options: { backend: { type: 'string', default: 'both' }, events: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '7' }, json: { type: 'string' } } });
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const DAY_MS = 86_400_000;

interface Window {
  from: Date;
  to: Date;
}

/** The naive plan: the same answer as one query per facet, each scanning the window again. */
async function naive(db: Kysely<Database>, repositoryId: string, window: Window): Promise<void> {
  const step = intervalSizeSeconds(window);
  const inWindow = sql`repository_id = ${repositoryId} AND received_at >= ${window.from} AND received_at < ${window.to}`;
  await sql`SELECT count(*) FROM events WHERE ${inWindow}`.execute(db);
  await sql`SELECT floor(date_part('epoch', received_at) / ${step}), count(*) FROM events WHERE ${inWindow} GROUP BY 1`.execute(db);
  for (const column of ['type', 'outcome', 'trigger', 'pull_request', 'batch_pull_request']) {
    await sql`SELECT ${sql.ref(column)}, count(*) FROM events WHERE ${inWindow} GROUP BY 1 ORDER BY 2 DESC LIMIT 200`.execute(db);
  }
}

async function bareCount(db: Kysely<Database>, repositoryId: string, window: Window): Promise<void> {
  await sql`SELECT count(*) FROM events WHERE repository_id = ${repositoryId} AND received_at >= ${window.from} AND received_at < ${window.to}`.execute(db);
}

async function median(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm caches and plans
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await timed(run));
  return percentile(samples, 50);
}

const results: BenchResult[] = [];

async function benchBackend(backend: Backend): Promise<string[]> {
  const { store, dispose } = await openBenchStore(backend);
  const rows: string[] = [];
  try {
    const now = Date.now();
    const started = Date.now();
    const loaded = await loadActivityLog(store, { events: EVENTS, elsewhere: EVENTS }, now);
    const loadSeconds = (Date.now() - started) / 1000;
    const { app, baseUrl } = await startBenchApp(store);
    const base = `${baseUrl}/v1/repos/bench/busy/logs/aggregate`;
    try {
      const day = { from: new Date(loaded.start - 30_000), to: new Date(loaded.end + 30_000) };
      const windows: [string, Window, string][] = [
        ['1 day', day, ''],
        ['30 days', { from: new Date(loaded.end + 30_000 - 30 * DAY_MS), to: new Date(loaded.end + 30_000) }, ''],
        ['1 day, outcome=failure (scan)', day, '&outcome=failure'],
      ];
      for (const [name, window, filter] of windows) {
        const inWindow = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM events WHERE repository_id = ${loaded.repositoryId} AND received_at >= ${window.from} AND received_at < ${window.to}`.execute(store.db)).rows[0]!.n);
        const url = `${base}?received_from=${encodeURIComponent(window.from.toISOString())}&received_to=${encodeURIComponent(window.to.toISOString())}${filter}`;
        const http = await median(async () => {
          const answer = await httpGet(url, { authorization: `Bearer ${TOKEN}` });
          if (answer.status !== 200) throw new Error(`aggregate answered ${answer.status}: ${answer.body}`);
        });
        const naivePlan = await median(() => naive(store.db, loaded.repositoryId, window));
        const count = await median(() => bareCount(store.db, loaded.repositoryId, window));
        const verdict = name === '1 day' ? `${http <= 3 * count ? 'met' : 'missed'} (≤ 3× count), ${naivePlan >= 2 * http ? 'met' : 'missed'} (≥ 2× faster than naive)` : '';
        results.push({ backend, case: `${name} (${inWindow.toLocaleString('en')} events)`, metrics: { 'HTTP ms': Math.round(http), 'naive ms': Math.round(naivePlan), 'count(*) ms': Math.round(count), 'aggregate / count': Number((http / count).toFixed(1)) }, ...(verdict ? { verdict } : {}) });
        rows.push(`| ${backend} | ${name} | ${inWindow.toLocaleString('en')} | ${http.toFixed(0)} | ${naivePlan.toFixed(0)} | ${count.toFixed(0)} | ${(http / count).toFixed(1)} | ${(naivePlan / http).toFixed(1)} | ${verdict} |`);
      }
    } finally {
      await app.close();
    }
    console.error(`${backend}: loaded in ${loadSeconds.toFixed(0)} s`);
  } finally {
    closeHttpAgent();
    await dispose();
  }
  return rows;
}

const chosen: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
console.log(`aggregate: ${EVENTS.toLocaleString('en')} events in the busy day (as many again elsewhere), median of ${RUNS} runs, milliseconds`);
console.log('| backend | window | events in window | HTTP aggregate | naive (7 queries) | bare count(*) | aggregate / count | naive / aggregate | targets |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const backend of chosen) for (const row of await benchBackend(backend)) console.log(row);
await writeJsonResults(args.json, 'logs-aggregate', results);
