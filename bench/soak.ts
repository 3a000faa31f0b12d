// Soak: the real process (`node --import tsx src/main.ts`) under minutes of mixed traffic
// (ingestion, scope reports, signed webhooks, activity-log pages, products, keys, refusals),
// its resident memory and heap sampled from /proc and /metrics every few seconds. Verdict:
// after warm-up, resident memory must not keep growing (its floor, lowest of the last third
// against lowest of the first, within 20 MB or 5%). Not part of `npm test`.
//
//   npx tsx bench/soak.ts [--minutes 10] [--backend pglite|postgres] [--concurrency 8]
//                         [--warmup-minutes 2] [--sample-seconds 10] [--json results.json]
//
// PostgreSQL: a private schema at TEST_DATABASE_URL (as the tests use), dropped at the end.
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, freemem, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { EVENT_TYPES } from '../src/domain/events/index.ts';
import { signBody } from '../src/domain/webhooks/signature.ts';
import { parseJson, stringifyJson } from '../src/json/exact-json.ts';
import { exampleEvent } from '../test/fixtures/event-fixtures.ts';
import { FakeHosting } from '../test/support/fake-hosting.ts';
import { startSwitchyard, type SwitchyardProcess } from '../test/support/switchyard-process.ts';
import { SERVICE_TOKEN, WEBHOOK_SECRET } from '../test/support/test-app.ts';
import type { Backend } from '../src/storage/store.ts';
import { createBenchStorage } from './bench-store.ts';
import { writeJsonResults } from './json-results.ts';
import { pick } from './scope-report-load.ts';
import { residentBytes } from './process-memory.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    backend: { type: 'string', default: 'pglite' },
    concurrency: { type: 'string', default: '8' },
    'warmup-minutes': { type: 'string', default: '2' },
    'sample-seconds': { type: 'string', default: '10' },
    json: { type: 'string' },
  },
});
const MINUTES = Number(args.minutes);
const WARMUP_MS = Number(args['warmup-minutes']) * 60_000;
const SAMPLE_MS = Number(args['sample-seconds']) * 1000;
const CONCURRENCY = Number(args.concurrency);
const REPO = 'acme/widgets';
const MB = 1024 * 1024;

// ---- traffic ------------------------------------------------------------------------------

interface Traffic {
  base: string;
  adminKey: string;
  ciKey: string;
  shas: string[];
  statuses: Map<string, number>;
  requests: number;
  failures: number;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

async function send(t: Traffic, kind: string, method: string, path: string, options: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const token = options.token === undefined ? SERVICE_TOKEN : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = options.raw ?? (options.body === undefined ? undefined : stringifyJson(options.body));
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  t.requests++;
  try {
    const response = await fetch(t.base + path, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    const key = `${kind} ${response.status}`;
    t.statuses.set(key, (t.statuses.get(key) ?? 0) + 1);
    if (response.status >= 500) t.failures++;
    return { status: response.status, text, headers: response.headers };
  } catch (error) {
    t.failures++;
    t.statuses.set(`${kind} no answer`, (t.statuses.get(`${kind} no answer`) ?? 0) + 1);
    return { status: 0, text: String(error), headers: new Headers() };
  }
}

const actions: [number, (t: Traffic) => Promise<unknown>][] = [
  [25, (t) => {
    const events = Array.from({ length: 10 }, (_, i) => ({ ...exampleEvent(pick(EVENT_TYPES)), trigger: pick(['ci', 'queue', 'bot']), ...(i % 3 === 0 ? { idempotency_key: hex(8) } : {}) }));
    return send(t, 'ingest', 'POST', `/v1/repos/${REPO}/logs`, { body: { events } });
  }],
  [10, (t) => send(t, 'commit report', 'PUT', `/v1/repos/${REPO}/commits/${pick(t.shas)}/scopes`, { token: t.ciKey, body: { scopes: [`s${hex(1)}`, 'shared'], all_scopes: Math.random() < 0.1 } })],
  [8, (t) => send(t, 'pull report', 'PUT', `/v1/repos/${REPO}/pulls/${1 + Math.floor(Math.random() * 200)}/scopes`, { token: t.ciKey, body: { scopes: [`s${hex(1)}`] } })],
  [5, (t) => {
    const number = 1 + Math.floor(Math.random() * 200);
    const action = pick(['synchronize', 'synchronize', 'opened', 'closed', 'reopened']);
    const payload = { action, number, pull_request: { number, state: action === 'closed' ? 'closed' : 'open', merged: false, head: { sha: pick(t.shas), ref: 'f' }, base: { ref: 'main' } }, repository: { name: 'widgets', full_name: REPO, owner: { login: 'acme' } } };
    const raw = JSON.stringify(payload);
    return send(t, 'webhook', 'POST', '/v1/hooks/hosting', { token: null, raw, headers: { 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signBody(WEBHOOK_SECRET, raw) } });
  }],
  [18, async (t) => {
    const filters = pick(['', '&event_type=action.queue.checks_end', '&outcome=failure', '&not_trigger=bot', '&pull_request=1&pull_request=2', '&base_ref=main']);
    const first = await send(t, 'logs', 'GET', `/v1/repos/${REPO}/logs?per_page=${pick([10, 50, 100])}${filters}`, { token: pick([SERVICE_TOKEN, t.adminKey, 'hosting-reader']) });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    if (next) await send(t, 'logs next page', 'GET', new URL(next).pathname + new URL(next).search);
  }],
  [10, (t) => (Math.random() < 0.5 ? send(t, 'pull read', 'GET', `/v1/repos/${REPO}/pulls/${1 + Math.floor(Math.random() * 200)}/scopes`, { token: t.ciKey }) : send(t, 'commit read', 'GET', `/v1/repos/${REPO}/commits/${pick(t.shas)}/scopes`))],
  [6, (t) => (Math.random() < 0.5 ? send(t, 'products write', 'PUT', `/v1/products/${REPO}`, { token: pick([t.adminKey, 'hosting-admin']), body: { products: [pick(['merge_queue', 'ci_insights']), 'merge_protections'] } }) : send(t, 'products read', 'GET', `/v1/products/${REPO}`, { token: 'hosting-reader' }))],
  [3, (t) => send(t, 'default products', 'GET', '/v1/default_products/acme', { token: 'hosting-admin' })],
  [2, async (t) => {
    const created = await send(t, 'key create', 'POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'soak' } });
    if (created.status === 201) await send(t, 'key revoke', 'DELETE', `/v1/admin/keys/${(parseJson(created.text) as { id: string }).id}`);
  }],
  [8, (t) =>
    pick([
      () => send(t, 'refused', 'POST', `/v1/repos/${REPO}/logs`, { raw: '{"events":[{"type":"action.nope"' }),
      () => send(t, 'refused', 'PUT', `/v1/repos/${REPO}/commits/${hex(20)}/scopes`, { token: t.adminKey, body: { scopes: [] } }),
      () => send(t, 'refused', 'GET', `/v1/repos/${REPO}/logs?cursor=${hex(30)}`),
      () => send(t, 'refused', 'GET', `/v1/repos/${REPO}/logs`, { token: `swy_${hex(16)}` }),
      () => send(t, 'refused', 'GET', `/v1/products/${REPO}`, { token: `random-${hex(8)}` }),
      () => send(t, 'refused', 'GET', `/v1/nowhere/${hex(4)}`),
      () => send(t, 'refused', 'PUT', `/v1/repos/${REPO}/pulls/99999999999999999999/scopes`, { body: { scopes: ['x'] } }),
    ])()],
  [5, (t) => send(t, 'readyz', 'GET', '/readyz', { token: null })],
];
const totalWeight = actions.reduce((sum, [w]) => sum + w, 0);

function nextAction(): (t: Traffic) => Promise<unknown> {
  let r = Math.random() * totalWeight;
  for (const [weight, action] of actions) if ((r -= weight) < 0) return action;
  return actions[0]![1];
}

// ---- memory -------------------------------------------------------------------------------

interface Sample {
  seconds: number;
  rssMb: number;
  heapMb: number;
  externalMb: number;
  requestsPerSecond: number;
}

async function heapOf(base: string): Promise<{ heap: number; external: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { heap: metric('switchyard_nodejs_heap_size_used_bytes'), external: metric('switchyard_nodejs_external_memory_bytes') };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)]!;
};

function slopePerMinute(samples: Sample[], pick: (s: Sample) => number): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((s, x) => s + x.seconds, 0) / n;
  const my = samples.reduce((s, x) => s + pick(x), 0) / n;
  const num = samples.reduce((s, x) => s + (x.seconds - mx) * (pick(x) - my), 0);
  const den = samples.reduce((s, x) => s + (x.seconds - mx) ** 2, 0);
  return (num / den) * 60;
}

// ---- run ----------------------------------------------------------------------------------

async function setUp(server: SwitchyardProcess): Promise<Traffic> {
  const t: Traffic = { base: server.baseUrl, adminKey: '', ciKey: '', shas: Array.from({ length: 500 }, () => hex(20)), statuses: new Map(), requests: 0, failures: 0 };
  await send(t, 'setup', 'PUT', `/v1/admin/repos/${REPO}`);
  const key = async (scope: string) => (parseJson((await send(t, 'setup', 'POST', '/v1/admin/keys', { body: { owner: 'acme', scope, name: `soak ${scope}` } })).text) as { key: string }).key;
  t.adminKey = await key('admin');
  t.ciKey = await key('ci');
  for (let n = 1; n <= 200; n++) await send(t, 'setup', 'PUT', `/v1/admin/repos/${REPO}/pulls/${n}`, { body: { state: 'open', head_sha: t.shas[n]!, base_ref: 'main' } });
  t.statuses.clear();
  t.requests = 0;
  return t;
}

async function main(): Promise<void> {
  const hosting = await new FakeHosting().start();
  hosting.users.set('hosting-admin', { login: 'alice', id: 1, repos: { [REPO]: { admin: true, pull: true } }, adminOf: ['acme'] });
  hosting.users.set('hosting-reader', { login: 'bob', id: 2, repos: { [REPO]: { admin: false, pull: true } } });
  const storage = await createBenchStorage(args.backend as Backend);
  const server = await startSwitchyard(storage.env, { SWITCHYARD_HOSTING_API_URL: hosting.url, LOG_LEVEL: 'error' });
  const pid = server.child.pid!;
  const t = await setUp(server);
  const started = Date.now();
  const end = started + MINUTES * 60_000;
  console.log(`soak: ${MINUTES} min on ${args.backend}, ${CONCURRENCY} clients; ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} free); ${new Date().toISOString()}`);
  console.log('| t (s) | RSS (MB) | heap used (MB) | external (MB) | req/s |');
  console.log('|---:|---:|---:|---:|---:|');

  const samples: Sample[] = [];
  let lastRequests = 0;
  let lastAt = started;
  const sampler = setInterval(async () => {
    const now = Date.now();
    const [rss, heap] = await Promise.all([residentBytes(pid), heapOf(t.base)]);
    const sample = { seconds: Math.round((now - started) / 1000), rssMb: rss / MB, heapMb: heap.heap / MB, externalMb: heap.external / MB, requestsPerSecond: ((t.requests - lastRequests) * 1000) / (now - lastAt) };
    lastRequests = t.requests;
    lastAt = now;
    samples.push(sample);
    console.log(`| ${sample.seconds} | ${sample.rssMb.toFixed(1)} | ${sample.heapMb.toFixed(1)} | ${sample.externalMb.toFixed(1)} | ${sample.requestsPerSecond.toFixed(0)} |`);
  }, SAMPLE_MS);

  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) await nextAction()(t);
    }),
  );
  clearInterval(sampler);
  const alive = server.child.exitCode === null;
  const code = await server.stop();
  await hosting.stop();
  await storage.remove();

  // Under load, resident memory is a sawtooth: the heap grows until a major collection gives
  // memory back. What a leak raises is the floor, so the verdict compares the lowest resident
  // memory of the first and last thirds after warm-up; medians and the trend are shown too.
  const steady = samples.filter((s) => s.seconds * 1000 >= WARMUP_MS);
  const third = Math.max(1, Math.floor(steady.length / 3));
  const rss = (part: Sample[]) => part.map((s) => s.rssMb);
  const [first, last] = [steady.slice(0, third), steady.slice(-third)];
  const early = Math.min(...rss(first));
  const late = Math.min(...rss(last));
  const growth = late - early;
  const allowed = Math.max(20, early * 0.05);
  const slope = slopePerMinute(steady, (s) => s.rssMb);
  const heapSlope = slopePerMinute(steady, (s) => s.heapMb);
  console.log('');
  console.log(`requests: ${t.requests} (${(t.requests / (MINUTES * 60)).toFixed(0)}/s), 5xx or unanswered: ${t.failures}; process alive at the end: ${alive}, clean stop: exit ${code}`);
  console.log(`answers: ${[...t.statuses].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}×${n}`).join(', ')}`);
  console.log(`RSS after warm-up (${WARMUP_MS / 60_000} min), first third → last third: lowest ${early.toFixed(1)} → ${late.toFixed(1)} MB (growth ${growth.toFixed(1)}, allowed ${allowed.toFixed(1)}); median ${median(rss(first)).toFixed(1)} → ${median(rss(last)).toFixed(1)} MB; highest ${Math.max(...rss(first)).toFixed(1)} → ${Math.max(...rss(last)).toFixed(1)} MB; trend ${slope.toFixed(2)} MB/min; heap trend ${heapSlope.toFixed(2)} MB/min`);
  const verdict = growth <= allowed && t.failures === 0 && alive;
  console.log(`verdict: ${verdict ? 'PASS' : 'FAIL'}: ${growth <= allowed ? 'resident memory does not keep growing after warm-up' : 'resident memory keeps growing after warm-up'}${t.failures === 0 ? '' : `; ${t.failures} requests failed`}`);
  await writeJsonResults(args.json, 'soak', [{
    backend: args.backend!,
    case: `${MINUTES} min, ${CONCURRENCY} clients`,
    metrics: { 'req/s': Math.round(t.requests / (MINUTES * 60)), 'RSS floor growth MB': Number(growth.toFixed(1)), 'allowed MB': Number(allowed.toFixed(1)), 'RSS highest MB': Number(Math.max(...rss(steady)).toFixed(1)), 'failed requests': t.failures },
    verdict: verdict ? 'PASS' : 'FAIL',
  }]);
  process.exitCode = verdict ? 0 : 1;
}

await main();
