// Issue 20's floods at once, bounded, loopback only: while hostile clients on 127.0.0.2 to
// 127.0.0.4 send 1 MiB bodies of invalid items (item 1), hold half-sent webhook bodies (item 2),
// run 92-day filtered listings from one owner's key (item 4) and hold idle half-sent connections
// (item 3; `--idle` of them from 127.0.0.4, opened again as the server closes them, at most
// `--idle-rate` a second, from processes of their own: bench/idle-connections.ts), a second client
// on 127.0.0.1 sends scope reports and reads list pages; its latencies (p50, p99), failures, and
// /healthz are printed. Production limits (DEFAULT_LIMITS). `--floods` picks some. Usage:
//   npx tsx bench/hostile-floods.ts [--backend pglite|postgres] [--seconds 15]
//     [--floods items,webhooks,listings,idle] [--idle 21000] [--idle-rate 3000] [--victim-interval 100]
import { execFile } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { rawRequest, requestHead, type RawRequest } from '../test/support/raw-http.ts';
import { startTestApp } from '../test/support/test-app.ts';

const arg = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
};
const backend = arg('backend', 'postgres') as 'pglite' | 'postgres';
const seconds = Math.min(120, Number(arg('seconds', '15')));
const floods = new Set(arg('floods', 'items,webhooks,listings,idle').split(','));
const idleCount = Math.min(40_000, Number(arg('idle', '21000')));
const idleRate = Math.min(10_000, Number(arg('idle-rate', '3000')));
const MiB = 1024 * 1024;

function send(port: number, from: string, method: string, path: string, token: string, body?: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, localAddress: from, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end(body);
  });
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? NaN;

const t = await startTestApp(backend, undefined, { limits: DEFAULT_LIMITS });
const port = Number(new URL(t.baseUrl).port);
for (const repo of ['acme/widgets', 'mallory/junk']) await t.request('PUT', `/v1/admin/repos/${repo}`);
const key = async (owner: string, scope: string) => (await t.request('POST', '/v1/admin/keys', { body: { owner, scope, name: scope } })).json.key as string;
const [victimCi, victimAdmin, hostileAdmin] = [await key('acme', 'ci'), await key('acme', 'admin'), await key('mallory', 'admin')];

const deadline = Date.now() + seconds * 1000;
const running = () => Date.now() < deadline;
const tally: Record<string, Record<string, number>> = {};
const count = (flood: string, status: number) => ((tally[flood] ??= {})[status] = (tally[flood]![status] ?? 0) + 1);

const invalidBody = `{"products": [${Array(Math.floor((MiB - 20) / 3)).fill('[]').join(',')}]}`;
const itemFlood = async () => { while (running()) count('1 MiB invalid items', (await send(port, '127.0.0.2', 'PUT', '/v1/default_products/mallory', hostileAdmin, invalidBody)).status); };
const now = Date.now();
const window = `received_from=${new Date(now - 92 * 86400_000).toISOString()}&received_to=${new Date(now).toISOString()}&outcome=failure&per_page=100`;
const listFlood = async () => { while (running()) count('92-day listings', (await send(port, '127.0.0.2', 'GET', `/v1/repos/mallory/junk/logs?${window}`, hostileAdmin)).status); };
const halfSent: RawRequest[] = [];
const webhookFlood = async () => {
  for (let i = 0; i < 200 && running(); i++) {
    const request = rawRequest(t.baseUrl, requestHead('POST', '/v1/hooks/hosting', { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': `d${i}`, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}`, 'content-length': 5 * MiB - 1 }), { from: '127.0.0.3', waitMs: seconds * 1000 });
    halfSent.push(request);
    await request.send(Buffer.alloc(MiB, 0x20));
  }
};

// Each attacking process holds at most 10,000 connections: under the open-file limit of one process.
const IDLE_PER_PROCESS = 10_000;
const idleAnswers: Record<string, number>[] = [];
const idleFlood = async () => {
  const processes = Math.ceil(idleCount / IDLE_PER_PROCESS);
  await Promise.all(Array.from({ length: processes }, (_, i) => new Promise<void>((resolve) => {
    const count = Math.min(IDLE_PER_PROCESS, idleCount - i * IDLE_PER_PROCESS);
    const args = ['--import', 'tsx', 'bench/idle-connections.ts', '--port', String(port), '--from', '127.0.0.4', '--count', String(count), '--rate', String(Math.ceil(idleRate / processes)), '--seconds', String(seconds)];
    execFile(process.execPath, args, { cwd: new URL('..', import.meta.url).pathname }, (error, stdout) => {
      if (error) console.error('idle flood process:', error.message);
      else idleAnswers.push(JSON.parse(stdout) as Record<string, number>);
      resolve();
    });
  })));
};

const victim: Record<string, number[]> = { 'scope report': [], 'list page': [], '/healthz': [] };
let victimFailures = 0;
// The second client keeps inside the production rate limits (1200 a minute per credential): one
// round of its three requests every `--victim-interval` ms at most, 100 by default.
const victimInterval = Number(arg('victim-interval', '100'));
const victimFailed: Record<string, number> = {};
const victimLoop = async () => {
  const started = Date.now();
  for (let n = 1; running(); n++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + (n - 1) * victimInterval - Date.now())));
    for (const [kind, method, path, token, body] of [
      ['scope report', 'PUT', `/v1/repos/acme/widgets/pulls/${n}/scopes`, victimCi, '{"scopes": ["api"]}'],
      ['list page', 'GET', '/v1/repos/acme/widgets/logs?per_page=10', victimAdmin, undefined],
      ['/healthz', 'GET', '/healthz', '', undefined],
    ] as const) {
      const { status, ms } = await send(port, '127.0.0.1', method, path, token, body);
      if (status < 200 || status >= 300) {
        victimFailures++;
        victimFailed[status] = (victimFailed[status] ?? 0) + 1;
      }
      victim[kind]!.push(ms);
    }
  }
};

// The server shares this process's event loop: how long it was held up says what the floods cost it.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
await Promise.all([
  ...(floods.has('items') ? Array.from({ length: 8 }, itemFlood) : []),
  ...(floods.has('listings') ? Array.from({ length: 16 }, listFlood) : []),
  ...(floods.has('webhooks') ? [webhookFlood()] : []),
  ...(floods.has('idle') ? [idleFlood()] : []),
  victimLoop(),
]);
const webhookAnswers: Record<string, number> = {};
for (const request of halfSent) {
  request.socket.destroy();
  const { status } = await request.answer;
  webhookAnswers[status] = (webhookAnswers[status] ?? 0) + 1;
}
console.log(`backend ${backend}, ${seconds} s, floods ${[...floods].join(',')}, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} at the end; hostile answers:`, JSON.stringify(tally), 'half-sent webhooks (0 = still waiting):', JSON.stringify(webhookAnswers));
if (floods.has('idle')) console.log(`idle connections (${idleCount} from 127.0.0.4, opened again when closed, ${idleRate}/s at most), per attacking process:`, idleAnswers.map((answers) => JSON.stringify(answers)).join(' '));
console.log('| victim request | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|');
for (const [kind, values] of Object.entries(victim)) console.log(`| ${kind} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`);
loopDelay.disable();
console.log(`event loop delay: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`);
console.log(`victim failures: ${victimFailures} ${JSON.stringify(victimFailed)} (status 0: no answer); process RSS ${(process.memoryUsage().rss / MiB).toFixed(0)} MiB`);
await t.close();
