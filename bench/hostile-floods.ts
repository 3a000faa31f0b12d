// Issue 20's floods at once, bounded, loopback only, against a real Switchyard process (production
// limits): while hostile clients on 127.0.0.2 to 127.0.0.4 send 1 MiB bodies of invalid items
// (item 1), hold half-sent webhook bodies (item 2), run 92-day filtered listings from one owner's
// key (item 4) and hold idle half-sent connections (item 3; `--idle` of them from 127.0.0.4,
// opened again as the server closes them, at most `--idle-rate` a second), a second client in this
// process, on 127.0.0.1, sends scope reports and reads list pages; its latencies (p50, p99),
// failures and /healthz are printed. Each flood runs in processes of its own
// (bench/hostile-clients.ts, bench/idle-connections.ts), so the server's share of the second
// client's wait shows apart from the clients': the server's event-loop delay, its CPU time and
// its own time per request come from its /metrics. `--floods` picks some; `--health-port` has the
// server listen on a health port too and the second client probe /healthz there. Usage:
//   npx tsx bench/hostile-floods.ts [--backend pglite|postgres] [--seconds 15]
//     [--floods items,webhooks,listings,idle] [--idle 21000] [--idle-rate 3000] [--victim-interval 100]
//     [--server-profile <directory for the server's .cpuprofile>] [--health-port]
import { execFile, execFileSync } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/config.ts';
import type { Backend } from '../src/storage/store.ts';
import { freePort, startSwitchyard, type SwitchyardProcess } from '../test/support/switchyard-process.ts';
import { SERVICE_TOKEN } from '../test/support/test-app.ts';
import { createBenchStorage } from './bench-store.ts';
import { percentile } from './latency.ts';
import { peakResidentBytes } from './process-memory.ts';

const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'postgres' },
    seconds: { type: 'string', default: '15' },
    floods: { type: 'string', default: 'items,webhooks,listings,idle' },
    idle: { type: 'string', default: '21000' },
    'idle-rate': { type: 'string', default: '3000' },
    'victim-interval': { type: 'string', default: '100' },
    'database-url': { type: 'string' },
    /** a directory for the server's CPU profile (node --cpu-prof), written when it stops */
    'server-profile': { type: 'string' },
    /** the server also listens on a health port (SWITCHYARD_HEALTH_PORT) and the victim probes /healthz there */
    'health-port': { type: 'boolean', default: false },
  },
});
const backend = args.backend as Backend;
const seconds = Math.min(120, Number(args.seconds));
const floods = new Set(args.floods.split(','));
const idleCount = Math.min(40_000, Number(args.idle));
const idleRate = Math.min(10_000, Number(args['idle-rate']));
const ROOT = new URL('..', import.meta.url).pathname;
const MiB = 1024 * 1024;
/** How long the attacking processes are given to load before the floods and the second client begin together. */
const START_DELAY_MS = 8_000;

/** A request on a new connection: its status, its time in all and the time its connection took to open. */
function send(port: number, method: string, path: string, token: string, body?: string): Promise<{ status: number; ms: number; connectMs: number }> {
  const started = performance.now();
  let connectMs = NaN;
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, localAddress: '127.0.0.1', agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started, connectMs }));
    });
    request.on('socket', (socket) => socket.once('connect', () => (connectMs = performance.now() - started)));
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started, connectMs }));
    request.end(body);
  });
}

/** Runs `script` with `args` in a process of its own; resolves with what it printed, parsed. */
function runProcess(script: string, scriptArgs: string[]): Promise<Record<string, number> | undefined> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', script, ...scriptArgs], { cwd: ROOT, maxBuffer: MiB }, (error, stdout) => {
      if (error) console.error(`${script}:`, error.message);
      resolve(error ? undefined : (JSON.parse(stdout) as Record<string, number>));
    });
  });
}

// Each attacking process holds at most 10,000 connections: under the open-file limit of one process.
const IDLE_PER_PROCESS = 10_000;
function idleFlood(port: number, startAt: number): Promise<(Record<string, number> | undefined)[]> {
  const processes = Math.ceil(idleCount / IDLE_PER_PROCESS);
  return Promise.all(Array.from({ length: processes }, (_, i) => {
    const count = Math.min(IDLE_PER_PROCESS, idleCount - i * IDLE_PER_PROCESS);
    return runProcess('bench/idle-connections.ts', ['--port', String(port), '--from', '127.0.0.4', '--count', String(count), '--rate', String(Math.ceil(idleRate / processes)), '--seconds', String(seconds), '--start-at', String(startAt)]);
  }));
}

/** The server's own view, from its /metrics (prom-client resets the event-loop histogram at each read). */
async function serverMetrics(baseUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const metrics = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(switchyard_[\w]+(?:\{[^}]*\})?) ([\d.e+-]+|NaN)$/.exec(line);
    if (match) metrics.set(match[1]!, Number(match[2]));
  }
  return metrics;
}

const sumOf = (metrics: Map<string, number>, name: string, labelPart = '') =>
  [...metrics].filter(([key]) => (key === name || key.startsWith(`${name}{`)) && key.includes(labelPart)).reduce((sum, [, value]) => sum + value, 0);

/** Mean time the server itself took for a route's answers between two reads of /metrics. */
function serverMeanMs(before: Map<string, number>, after: Map<string, number>, route: string): number {
  const name = 'switchyard_http_request_duration_seconds';
  const label = `route="${route}"`;
  const n = sumOf(after, `${name}_count`, label) - sumOf(before, `${name}_count`, label);
  return (1000 * (sumOf(after, `${name}_sum`, label) - sumOf(before, `${name}_sum`, label))) / n;
}

/** The kernel's TCP counters (the whole machine's: loopback is most of its traffic); those that moved during the run are printed. */
function tcpCounters(): Record<string, number> {
  const text = execFileSync('nstat', ['-as'], { encoding: 'utf8' });
  return Object.fromEntries([...text.matchAll(/^(Tcp\w+)\s+(\d+)/gm)].map((match) => [match[1]!, Number(match[2])]));
}

interface Victim {
  latencies: Record<string, number[]>;
  /** of all its requests: how long the connection took to open */
  connects: number[];
  failed: Record<string, number>;
}

// The second client keeps far inside the production rate limits: one round of its three
// requests every `--victim-interval` ms at most, each on a new connection.
async function victimLoop(port: number, healthPort: number, keys: { ci: string; admin: string }, running: () => boolean): Promise<Victim> {
  const victim: Victim = { latencies: { 'scope report': [], 'list page': [], '/healthz': [] }, connects: [], failed: {} };
  const interval = Number(args['victim-interval']);
  const started = Date.now();
  for (let n = 1; running(); n++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + (n - 1) * interval - Date.now())));
    for (const [kind, method, path, token, body] of [
      ['scope report', 'PUT', `/v1/repos/acme/widgets/pulls/${n}/scopes`, keys.ci, '{"scopes": ["api"]}'],
      ['list page', 'GET', '/v1/repos/acme/widgets/logs?per_page=10', keys.admin, undefined],
      ['/healthz', 'GET', '/healthz', '', undefined],
    ] as const) {
      const { status, ms, connectMs } = await send(kind === '/healthz' ? healthPort : port, method, path, token, body);
      victim.connects.push(connectMs);
      if (status < 200 || status >= 300) victim.failed[`${kind} ${status}`] = (victim.failed[`${kind} ${status}`] ?? 0) + 1;
      victim.latencies[kind]!.push(ms);
    }
  }
  return victim;
}

async function seed(baseUrl: string): Promise<{ ci: string; admin: string; hostile: string }> {
  const call = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${SERVICE_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : ((await response.json()) as { key?: string });
  };
  for (const repo of ['acme/widgets', 'mallory/junk']) await call('PUT', `/v1/admin/repos/${repo}`);
  const key = async (owner: string, scope: string) => (await call('POST', '/v1/admin/keys', { owner, scope, name: scope }))!.key!;
  return { ci: await key('acme', 'ci'), admin: await key('acme', 'admin'), hostile: await key('mallory', 'admin') };
}

function report(victim: Victim, server: { before: Map<string, number>; after: Map<string, number>; wallSeconds: number; peakRssMb: number }, clientLoopMaxMs: number): void {
  const { before, after, wallSeconds } = server;
  const serverMs: Record<string, number> = {
    'scope report': serverMeanMs(before, after, '/v1/repos/:owner/:repository/pulls/:number/scopes'),
    '/healthz': serverMeanMs(before, after, '/healthz'),
  };
  console.log('| victim request | n | p50 ms | p99 ms | max ms | server mean ms |\n|---|---|---|---|---|---|');
  for (const [kind, values] of Object.entries(victim.latencies)) {
    console.log(`| ${kind} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${Math.max(...values).toFixed(1)} | ${serverMs[kind]?.toFixed(1) ?? '(shared route)'} |`);
  }
  console.log(`victim connections opened in p50 ${percentile(victim.connects, 50).toFixed(1)} ms, p99 ${percentile(victim.connects, 99).toFixed(1)} ms, max ${Math.max(...victim.connects).toFixed(1)} ms`);
  const lag = (name: string) => (1000 * (after.get(`switchyard_nodejs_eventloop_lag_${name}_seconds`) ?? NaN)).toFixed(0);
  const cpu = sumOf(after, 'switchyard_process_cpu_seconds_total') - sumOf(before, 'switchyard_process_cpu_seconds_total');
  console.log(`server: event loop delay p50 ${lag('p50')} ms, p99 ${lag('p99')} ms, max ${lag('max')} ms; CPU ${cpu.toFixed(1)} s in ${wallSeconds.toFixed(1)} s (${((100 * cpu) / wallSeconds).toFixed(0)}% of one core); peak RSS ${server.peakRssMb.toFixed(0)} MiB`);
  const failures = Object.values(victim.failed).reduce((a, b) => a + b, 0);
  console.log(`victim failures: ${failures} ${JSON.stringify(victim.failed)} (status 0: no answer); the victim's own event loop delay max ${clientLoopMaxMs.toFixed(0)} ms`);
}

const storage = await createBenchStorage(backend, args['database-url']);
let server: SwitchyardProcess | undefined;
const interrupted = () => void (async () => (await server?.kill(), await storage.remove()))().finally(() => process.exit(130));
process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
try {
  // Production limits: startSwitchyard lifts the rate limits out of tests' way; put them back.
  const healthPort = args['health-port'] ? await freePort() : undefined;
  server = await startSwitchyard(storage.env, {
    ...(healthPort ? { SWITCHYARD_HEALTH_PORT: String(healthPort) } : {}),
    SWITCHYARD_RATE_LIMIT_PER_ADDRESS: String(DEFAULT_LIMITS.requestsPerMinutePerAddress),
    SWITCHYARD_RATE_LIMIT_PER_CREDENTIAL: String(DEFAULT_LIMITS.requestsPerMinutePerCredential),
    SWITCHYARD_RATE_LIMIT_PER_OWNER: String(DEFAULT_LIMITS.requestsPerMinutePerOwner),
  }, undefined, args['server-profile'] ? ['--cpu-prof', `--cpu-prof-dir=${args['server-profile']}`] : []);
  const port = Number(new URL(server.baseUrl).port);
  const keys = await seed(server.baseUrl);
  const loadBefore = loadavg();
  // Every process starts at once, at `startAt`, once they have all had time to load.
  const startAt = Date.now() + START_DELAY_MS;
  const hostile = (flood: string) => runProcess('bench/hostile-clients.ts', ['--port', String(port), '--flood', flood, '--key', keys.hostile, '--seconds', String(seconds), '--start-at', String(startAt)]);
  const flooding = [
    ...['items', 'listings', 'webhooks'].filter((flood) => floods.has(flood)).map(async (flood) => [flood, await hostile(flood)] as const),
    ...(floods.has('idle') ? [idleFlood(port, startAt).then((outcomes) => ['idle', outcomes] as const)] : []),
  ];
  await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
  const before = await serverMetrics(server.baseUrl);
  const tcpBefore = tcpCounters();
  const started = performance.now();
  const deadline = startAt + seconds * 1000;
  const clientLoop = monitorEventLoopDelay({ resolution: 10 });
  clientLoop.enable();
  const victim = await victimLoop(port, healthPort ?? port, keys, () => Date.now() < deadline);
  clientLoop.disable();
  const wallSeconds = (performance.now() - started) / 1000;
  const after = await serverMetrics(server.baseUrl);
  const tcp = Object.fromEntries(Object.entries(tcpCounters()).map(([name, value]) => [name, value - (tcpBefore[name] ?? 0)]).filter(([, moved]) => moved !== 0));
  const answers = await Promise.all(flooding);
  console.log(`backend ${backend}, ${seconds} s, floods ${[...floods].join(',')}, load average ${loadBefore.map((n) => n.toFixed(2)).join(' ')} before, ${loadavg().map((n) => n.toFixed(2)).join(' ')} after`);
  console.log('hostile answers (webhooks: status 0 = still waiting at the end):', JSON.stringify(Object.fromEntries(answers)));
  console.log('kernel TCP counters during the run (the whole machine):', JSON.stringify(tcp));
  report(victim, { before, after, wallSeconds, peakRssMb: (await peakResidentBytes(server.child.pid!)) / MiB }, clientLoop.max / 1e6);
  const code = await server.stop();
  if (code !== 0) console.error(`the server stopped with exit code ${code}: ${server.output().slice(-2000)}`);
} finally {
  process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
  await server?.kill().catch(() => undefined);
  await storage.remove();
}
