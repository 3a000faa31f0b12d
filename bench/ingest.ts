// Ingestion throughput: events per second through HTTP (POST /v1/repos/{o}/{r}/logs, batches of
// 100 and 1000, sent with node:http keep-alive) beside the floor of writing the same rows with the
// store's own batch write (one multi-row statement per batch), in the same process and run.
// Target: HTTP ≥ half the floor.
//
//   npx tsx bench/ingest.ts [--backend pglite|postgres|both] [--events 20000] [--rounds 3]
//                           [--concurrency 4] [--json results.json]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { validateIngestEvents, type IngestEventInput } from '../src/domain/events/index.ts';
import { parseJson, stringifyJson } from '../src/json/exact-json.ts';
import type { Backend } from '../src/storage/store.ts';
import { BENCH_TOKEN as TOKEN, openBenchStore, startBenchApp } from './bench-store.ts';
import { writeJsonResults, type BenchResult } from './json-results.ts';
import { httpRequest } from './latency.ts';
import { generateEvents } from '../test/fixtures/event-fixtures.ts';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    events: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '4' },
    json: { type: 'string' },
  },
});
const TOTAL = Number(args.events);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function inParallel<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await run(items[next++]!);
  }));
}

/** The events, each idempotency key made unique to `tag`. */
function withFreshKeys(events: IngestEventInput[], tag: string): IngestEventInput[] {
  return events.map((event) => (event.idempotency_key === undefined ? event : { ...event, idempotency_key: `${event.idempotency_key}/${tag}` }));
}

function batches<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** Events per second of `run` over all batches, median of ROUNDS rounds. */
async function rate(batchCount: number, size: number, run: (round: number) => Promise<void>): Promise<number> {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    await run(round);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rates.push((batchCount * size) / seconds);
  }
  return median(rates);
}

const results: BenchResult[] = [];

async function benchBackend(backend: Backend): Promise<string[]> {
  const { store, dispose } = await openBenchStore(backend);
  const { app, baseUrl } = await startBenchApp(store);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const rows: string[] = [];
  try {
    await app.inject({ method: 'PUT', url: '/v1/admin/repos/bench/floor', headers: { authorization: `Bearer ${TOKEN}` } });
    await app.inject({ method: 'PUT', url: '/v1/admin/repos/bench/http', headers: { authorization: `Bearer ${TOKEN}` } });
    const floorRepo = (await store.repositories.find('bench', 'floor'))!;
    const now = new Date();
    const events = generateEvents({ seed: 7, count: TOTAL, start: new Date(now.getTime() - 86_400_000), end: now });
    for (const size of [100, 1000]) {
      const groups = batches(events, size).length;
      // Every round writes every event: a quarter of the fixtures carry an idempotency key, which
      // a later round (or size) would otherwise only look up, storing nothing.
      const bodies = Array.from({ length: ROUNDS }, (_, round) => batches(withFreshKeys(events, `${size}-${round}`), size).map((group) => stringifyJson({ events: group })));
      // The floor: rows already validated, one INSERT each, as many in flight as HTTP gets.
      // Parsed from the same bodies as the server parses them, so both write the metadata text
      // as sent and neither pays for serialising it.
      const prepared = bodies.map((round) =>
        round.map((body) => {
          const checked = validateIngestEvents((parseJson(body, { keepSourceOf: new Set(['metadata']) }) as { events: unknown[] }).events, now);
          if (!checked.ok) throw new Error('fixture events must be valid');
          return checked.events;
        }),
      );
      const floor = await rate(groups, size, (round) => inParallel(prepared[round]!, CONCURRENCY, async (batch) => void (await store.events.insertBatch(floorRepo.id, batch))));
      const encoded = bodies.map((round) => round.map((body) => Buffer.from(body)));
      const viaHttp = await rate(groups, size, (round) =>
        inParallel(encoded[round]!, CONCURRENCY, async (body) => {
          const answer = await httpRequest(`${baseUrl}/v1/repos/bench/http/logs`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body, agent });
          if (answer.status !== 201) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
        }),
      );
      results.push({ backend, case: `batches of ${size}`, metrics: { 'HTTP events/s': Math.round(viaHttp), 'SQL floor events/s': Math.round(floor), 'HTTP / floor': Number((viaHttp / floor).toFixed(2)) }, verdict: viaHttp / floor >= 0.5 ? 'met (HTTP ≥ 0.5 × floor)' : 'missed (HTTP ≥ 0.5 × floor)' });
      rows.push(`| ${backend} | ${size} | ${Math.round(floor).toLocaleString('en')} | ${Math.round(viaHttp).toLocaleString('en')} | ${(viaHttp / floor).toFixed(2)} | ${viaHttp / floor >= 0.5 ? 'met' : 'missed'} |`);
    }
  } finally {
    agent.destroy();
    await app.close();
    await dispose();
  }
  return rows;
}

const backendsToRun: Backend[] = args.backend === 'both' ? ['pglite', 'postgres'] : [args.backend as Backend];
console.log(`ingestion: ${TOTAL} events per round, ${ROUNDS} rounds (median), ${CONCURRENCY} batches in flight`);
console.log('| backend | batch | SQL floor (events/s) | HTTP (events/s) | HTTP / floor | target ≥ 0.5 |');
console.log('|---|---|---|---|---|---|');
for (const backend of backendsToRun) for (const row of await benchBackend(backend)) console.log(row);
await writeJsonResults(args.json, 'ingest', results);
