// Scope-report throughput (issue #8): PUT .../commits/{sha}/scopes and PUT .../pulls/{n}/scopes
// through HTTP against a real Switchyard process (autocannon, 50 connections, many repositories
// and pull requests, CI keys, durable commits), beside the database's own rate for the same writes
// in the same run: pgbench running the equivalent transactions (PostgreSQL), or the same statements
// issued through the store by 50 concurrent callers (PGlite).
//
//   npx tsx bench/scope-reports.ts [--backend postgres|pglite|both] [--seconds 15] [--json results.json]
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openStore, type Backend } from '../src/storage/store.ts';
import { privateSchemaUrl, TEST_DATABASE_URL } from '../test/support/backends.ts';
import { startSwitchyard, type StorageEnv } from '../test/support/switchyard-process.ts';
import { writeJsonResults, type BenchResult } from './json-results.ts';
import { byCommit, byNumber, hex, pick, PULLS_PER_REPO, REPORT_BODY, seedScopeTargets, targets, type Target } from './scope-report-load.ts';

const run = promisify(execFile);
const { values: args } = parseArgs({ options: { backend: { type: 'string', default: 'both' }, seconds: { type: 'string', default: '15' }, json: { type: 'string' } } });
const SECONDS = Number(args.seconds);
const CONNECTIONS = 50;
interface HttpResult {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(base: string, keys: Map<string, string>, path: (t: Target) => string, seconds = SECONDS): Promise<HttpResult> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'PUT',
        setupRequest: (request) => {
          const target = pick(targets);
          return { ...request, path: path(target), body: REPORT_BODY, headers: { authorization: `Bearer ${keys.get(target.owner)}`, 'content-type': 'application/json' } };
        },
      },
    ],
  });
  // Reports written: 2xx answers only (requests.average would count a fast refusal as well).
  return { rate: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

// The same writes as the service makes, as pgbench transactions (one per report).
const COMMIT_SQL = `\\set r random(1, ${targets.length})
\\set s random(1, 1000000000)
INSERT INTO commit_scope_reports (repository_id, sha, scopes, all_scopes, seq, reported_at)
VALUES (:r, lpad(to_hex(:s), 40, '0'), '{api,frontend,docs}', false, nextval('arrival_seq'), clock_timestamp())
ON CONFLICT (repository_id, sha) DO UPDATE SET scopes = excluded.scopes, all_scopes = excluded.all_scopes, seq = nextval('arrival_seq'), reported_at = clock_timestamp();
`;
const PULL_SQL = `\\set r random(1, ${targets.length})
\\set n random(1, ${PULLS_PER_REPO})
SELECT put_pull_scope_reports(ARRAY[:r]::bigint[], ARRAY[:n]::bigint[], ARRAY['["api","frontend","docs"]'], ARRAY[false], true);
`;

async function pgbench(url: string, script: string): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-pgbench-'));
  try {
    await writeFile(join(dir, 'script.sql'), script);
    const parsed = new URL(url);
    const schema = /search_path=(\w+)/.exec(decodeURIComponent(parsed.searchParams.get('options') ?? ''))?.[1];
    const bin = (await run('bash', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1'])).stdout.trim();
    const { stdout } = await run(`${bin}/pgbench`, ['-n', '-c', String(CONNECTIONS), '-j', '2', '-T', String(SECONDS), '-f', join(dir, 'script.sql'), '-h', parsed.hostname, '-p', parsed.port || '5432', '-U', parsed.username || 'postgres', parsed.pathname.slice(1)], {
      env: { ...process.env, PGOPTIONS: `-c search_path=${schema}` },
    });
    return Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** PGlite has no pgbench: the same statements through the store, by 50 concurrent callers. */
async function storeRate(dataDir: string, statement: () => ReturnType<typeof sql>): Promise<number> {
  const store = await openStore({ dataDir });
  try {
    let done = 0;
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        await statement().execute(store.db);
        done++;
      }
    }));
    return done / SECONDS;
  } finally {
    await store.close();
  }
}

const commitStatement = () => sql`INSERT INTO commit_scope_reports (repository_id, sha, scopes, all_scopes, seq, reported_at)
  VALUES (${1 + Math.floor(Math.random() * targets.length)}, ${hex(Math.floor(Math.random() * 1e9))}, '{api,frontend,docs}', false, nextval('arrival_seq'), clock_timestamp())
  ON CONFLICT (repository_id, sha) DO UPDATE SET scopes = excluded.scopes, all_scopes = excluded.all_scopes, seq = nextval('arrival_seq'), reported_at = clock_timestamp()`;

const pullStatement = () => sql`SELECT put_pull_scope_reports(ARRAY[${1 + Math.floor(Math.random() * targets.length)}]::bigint[], ARRAY[${1 + Math.floor(Math.random() * PULLS_PER_REPO)}]::bigint[], ARRAY['["api","frontend","docs"]'], ARRAY[false], true)`;

const results: BenchResult[] = [];

function row(backend: string, endpoint: string, http: HttpResult, floor: number): string {
  const ratio = http.rate / floor;
  const verdicts = [
    http.errors > 0 ? `FAILED: ${http.errors} errors` : '',
    backend === 'postgres' ? (http.rate >= 5000 ? 'rate ok' : 'rate < 5000') : '',
    ratio >= 0.5 ? 'ratio ok' : 'ratio < 0.5',
    http.p99 < 25 ? 'p99 ok' : 'p99 ≥ 25 ms',
  ].filter(Boolean);
  results.push({ backend, case: endpoint, metrics: { 'HTTP reports/s': Math.round(http.rate), 'database alone writes/s': Math.round(floor), 'HTTP / database': Number(ratio.toFixed(2)), 'p50 ms': http.p50, 'p99 ms': http.p99, errors: http.errors }, verdict: verdicts.join(', ') });
  return `| ${backend} | ${endpoint} | ${Math.round(floor).toLocaleString('en')} | ${Math.round(http.rate).toLocaleString('en')} | ${ratio.toFixed(2)} | ${http.p50} | ${http.p99} | ${http.errors} | ${verdicts.join(', ')} |`;
}

async function benchBackend(backend: Backend): Promise<string[]> {
  const dir = backend === 'pglite' ? await mkdtemp(join(tmpdir(), 'switchyard-bench-')) : undefined;
  const schema = backend === 'postgres' ? await privateSchemaUrl() : undefined;
  const storage: StorageEnv = dir ? { SWITCHYARD_DATA_DIR: dir } : { DATABASE_URL: schema!.url };
  const server = await startSwitchyard(storage, { LOG_LEVEL: 'warn' });
  const rows: string[] = [];
  try {
    const keys = await seedScopeTargets(server.baseUrl);
    // Warm-up, not measured: the server's JIT, its pool's connections and its key cache.
    await load(server.baseUrl, keys, byCommit, 3);
    await load(server.baseUrl, keys, byNumber, 3);
    const commitHttp = await load(server.baseUrl, keys, byCommit);
    const pullHttp = await load(server.baseUrl, keys, byNumber);
    await server.stop();
    if (backend === 'postgres') {
      rows.push(row(backend, 'PUT commits/{sha}/scopes', commitHttp, await pgbench(schema!.url, COMMIT_SQL)));
      rows.push(row(backend, 'PUT pulls/{n}/scopes', pullHttp, await pgbench(schema!.url, PULL_SQL)));
    } else {
      rows.push(row(backend, 'PUT commits/{sha}/scopes', commitHttp, await storeRate(dir!, commitStatement)));
      rows.push(row(backend, 'PUT pulls/{n}/scopes', pullHttp, await storeRate(dir!, pullStatement)));
    }
  } finally {
    await server.kill().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
    await schema?.drop();
  }
  return rows;
}

const chosen: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
console.log(`scope reports: ${CONNECTIONS} connections, ${SECONDS} s per run, ${targets.length} repositories × ${PULLS_PER_REPO} pull requests, database ${TEST_DATABASE_URL}`);
console.log('| backend | endpoint | database alone (writes/s) | HTTP (reports/s) | HTTP / database | p50 ms | p99 ms | errors | targets |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const backend of chosen) for (const line of await benchBackend(backend)) console.log(line);
await writeJsonResults(args.json, 'scope-reports', results);
