// Issue 20's floods at once, bounded, loopback only: while hostile clients on 127.0.0.2 and
// 127.0.0.3 send 1 MiB bodies of invalid items (item 1), hold half-sent webhook bodies (item 2)
// and run 92-day filtered listings from one owner's key (item 4), a second client on 127.0.0.1
// sends scope reports and reads list pages; its latencies (p50, p99), failures, and /healthz
// are printed. Production limits (DEFAULT_LIMITS). Usage:
//   npx tsx bench/hostile-floods.ts [--backend pglite|postgres] [--seconds 15]
import http from 'node:http';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { rawRequest, requestHead, type RawRequest } from '../test/support/raw-http.ts';
import { startTestApp } from '../test/support/test-app.ts';

const arg = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
};
const backend = arg('backend', 'postgres') as 'pglite' | 'postgres';
const seconds = Math.min(60, Number(arg('seconds', '15')));
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

const victim: Record<string, number[]> = { 'scope report': [], 'list page': [], '/healthz': [] };
let victimFailures = 0;
const victimLoop = async () => {
  for (let n = 1; running(); n++) {
    for (const [kind, method, path, token, body] of [
      ['scope report', 'PUT', `/v1/repos/acme/widgets/pulls/${n}/scopes`, victimCi, '{"scopes": ["api"]}'],
      ['list page', 'GET', '/v1/repos/acme/widgets/logs?per_page=10', victimAdmin, undefined],
      ['/healthz', 'GET', '/healthz', '', undefined],
    ] as const) {
      const { status, ms } = await send(port, '127.0.0.1', method, path, token, body);
      if (status < 200 || status >= 300) victimFailures++;
      victim[kind]!.push(ms);
    }
  }
};

await Promise.all([...Array.from({ length: 8 }, itemFlood), ...Array.from({ length: 16 }, listFlood), webhookFlood(), victimLoop()]);
const webhookAnswers: Record<string, number> = {};
for (const request of halfSent) {
  request.socket.destroy();
  const { status } = await request.answer;
  webhookAnswers[status] = (webhookAnswers[status] ?? 0) + 1;
}
console.log(`backend ${backend}, ${seconds} s, hostile answers:`, JSON.stringify(tally), 'half-sent webhooks (0 = still waiting):', JSON.stringify(webhookAnswers));
console.log('| victim request | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|');
for (const [kind, values] of Object.entries(victim)) console.log(`| ${kind} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`);
console.log(`victim failures: ${victimFailures}; process RSS ${(process.memoryUsage().rss / MiB).toFixed(0)} MiB`);
await t.close();
