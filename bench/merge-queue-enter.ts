// The cost of entering and leaving the merge queue through HTTP with a long queue (issue 14's
// target: p99 under 25 ms on PostgreSQL with 1,000 entries). Fills a serial queue with --queued
// pull requests through the API, then times --rounds pairs of PUT …/merge-queue/pull/{n} (enter)
// and POST …/dequeue (leave) of one more pull request, each a transaction that locks the queue,
// loads its state, writes the change with its events and re-plans. No hosting platform: the
// executor is not running, so the queue only grows.
//   node --import tsx bench/merge-queue-enter.ts [--backend postgres|pglite] [--queued 1000] [--rounds 200]
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { BENCH_TOKEN, openBenchStore, startBenchApp } from './bench-store.ts';
import { httpRequest, percentile, timed } from './latency.ts';
import type { Backend } from '../src/storage/store.ts';

const { values } = parseArgs({ options: { backend: { type: 'string', default: 'postgres' }, queued: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '200' } } });
const backend = values.backend as Backend;
const queued = Number(values.queued);
const rounds = Number(values.rounds);
const REPO = 'bench/queue';
const headers = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' };

const { store, dispose } = await openBenchStore(backend);
const { app, baseUrl } = await startBenchApp(store, { requestsPerMinutePerAddress: 1e9, requestsPerMinutePerCredential: 1e9, requestsPerMinutePerOwner: 1e9 });
try {
  const call = async (method: string, path: string, body?: unknown, expect?: number) => {
    const answer = await httpRequest(baseUrl + path, { method, headers, ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }) });
    if (expect !== undefined && answer.status !== expect) throw new Error(`${method} ${path}: ${answer.status} ${answer.body}`);
    return answer;
  };
  await call('PUT', `/v1/admin/repos/${REPO}`, undefined, 201);
  await call('PUT', `/v1/products/${REPO}`, { products: ['merge_queue'] }, 204);
  const sha = (n: number) => n.toString(16).padStart(40, '0');
  for (let n = 1; n <= queued + 1; n++) await call('PUT', `/v1/admin/repos/${REPO}/pulls/${n}`, { state: 'open', head_sha: sha(n), base_ref: 'main' }, 204);
  const fillStart = Date.now();
  for (let n = 1; n <= queued; n++) await call('PUT', `/v1/repos/${REPO}/merge-queue/pull/${n}`, {}, 202);
  const fillMs = Date.now() - fillStart;
  const enter: number[] = [];
  const leave: number[] = [];
  const extra = queued + 1;
  for (let round = 0; round < rounds; round++) {
    enter.push(await timed(() => call('PUT', `/v1/repos/${REPO}/merge-queue/pull/${extra}`, {}, 202)));
    leave.push(await timed(() => call('POST', `/v1/repos/${REPO}/merge-queue/pull/${extra}/dequeue`, undefined)));
  }
  const status = await timed(() => call('GET', `/v1/repos/${REPO}/merge-queue/status?branch=main`, undefined, 200));
  const row = (name: string, samples: number[]) => `| ${name} | ${samples.length} | ${percentile(samples, 50).toFixed(1)} | ${percentile(samples, 99).toFixed(1)} |`;
  console.log(`merge-queue enter/leave through HTTP, ${backend}, ${queued} entries queued (filled in ${(fillMs / 1000).toFixed(1)} s), load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| request | n | p50 ms | p99 ms |\n|---|---:|---:|---:|');
  console.log(row('enter (PUT …/merge-queue/pull/{n})', enter));
  console.log(row('leave (POST …/dequeue)', leave));
  console.log(`| status (GET …/merge-queue/status) | 1 | ${status.toFixed(1)} | |`);
} finally {
  await app.close();
  await dispose();
}
