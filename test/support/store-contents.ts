// A store with something of everything in it (repositories, keys, products, pull requests, scope
// reports, merge-queue controls, an activity log of `events` events over two days), written
// through the API; and the API reads that must answer the same on any store holding the same data.
import assert from 'node:assert/strict';
import { stringifyJson } from '../../src/json/exact-json.ts';
import { generateEvents } from '../fixtures/event-fixtures.ts';
import type { TestApp } from './test-app.ts';

export const WINDOW_END = new Date(Date.now() - 60_000);
export const WINDOW_START = new Date(WINDOW_END.getTime() - 2 * 86_400_000);

export async function populate(server: TestApp, events: number): Promise<void> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await server.request(method, path, { body });
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
    return answer;
  };
  await ok('PUT', '/v1/default_products/acme', { products: ['merge_queue', 'ci_insights'] });
  for (const name of ['widgets', 'gadgets']) await ok('PUT', `/v1/admin/repos/acme/${name}`);
  await ok('PUT', '/v1/products/acme/gadgets', { products: ['workflow_automation'] });
  await ok('POST', '/v1/admin/keys', { owner: 'acme', scope: 'admin', name: 'dashboard' });
  await ok('POST', '/v1/admin/keys', { owner: 'acme', scope: 'ci', name: 'ci' });
  await ok('PUT', '/v1/admin/repos/acme/widgets/pulls/9223372036854775807', { state: 'open', head_sha: 'a'.repeat(40), base_ref: 'main' });
  await ok('PUT', '/v1/admin/repos/acme/widgets/pulls/2', { state: 'merged', head_sha: 'b'.repeat(40), base_ref: 'main' });
  await ok('PUT', `/v1/repos/acme/widgets/commits/${'a'.repeat(40)}/scopes`, { scopes: ['api', 'web'], all_scopes: false });
  await ok('PUT', '/v1/repos/acme/widgets/pulls/3/scopes', { scopes: ['docs'], all_scopes: true });
  await ok('PUT', '/v1/repos/acme/widgets/merge-queue/configuration', { merge_queue: { mode: 'parallel' }, queue_rules: [{ name: 'default', batch_size: { min: 1, max: 4 } }] });
  await ok('PUT', '/v1/repos/acme/widgets/merge-queue/pause', { reason: 'moving the data' });
  await ok('POST', '/v1/repos/acme/widgets/scheduled_freeze', { reason: 'new year', start: '2030-01-01T00:00:00', end: null, timezone: 'Europe/Paris', matching_conditions: ['base=main'] });
  const all = generateEvents({ seed: 7, count: events, start: WINDOW_START, end: WINDOW_END });
  for (let i = 0; i < all.length; i += 1000) await ok('POST', '/v1/repos/acme/widgets/logs', { events: all.slice(i, i + 1000) });
}

const window = `received_from=${WINDOW_START.toISOString()}&received_to=${WINDOW_END.toISOString()}`;

/** Reads covering every kind of stored data; list reads are followed through their `next` links. */
export const READS = [
  `/v1/repos/acme/widgets/logs?${window}&per_page=100`,
  `/v1/repos/acme/widgets/logs?${window}&per_page=37&outcome=failure&not_event_type=action.queue.change`,
  `/v1/repos/acme/widgets/logs?received_from=${new Date(WINDOW_END.getTime() - 3_600_000).toISOString()}&received_to=${WINDOW_END.toISOString()}&per_page=100`,
  `/v1/repos/acme/widgets/logs/aggregate?${window}`,
  `/v1/repos/acme/widgets/logs/aggregate?received_from=${new Date(WINDOW_END.getTime() - 7_200_000).toISOString()}&received_to=${WINDOW_END.toISOString()}`,
  `/v1/repos/acme/widgets/logs/aggregate?${window}&event_type=action.queue.checks_end&event_type=action.queue.leave`,
  `/v1/repos/acme/gadgets/logs?${window}&per_page=100`,
  '/v1/repos/acme/widgets/pulls/9223372036854775807/scopes',
  '/v1/repos/acme/widgets/pulls/3/scopes',
  `/v1/repos/acme/widgets/commits/${'a'.repeat(40)}/scopes`,
  '/v1/products/acme/widgets',
  '/v1/products/acme/gadgets',
  '/v1/default_products/acme',
  '/v1/admin/keys?owner=acme',
  '/v1/repos/acme/widgets/merge-queue/configuration',
  '/v1/repos/acme/widgets/merge-queue/pause',
  '/v1/repos/acme/widgets/scheduled_freeze',
];

/** Each read's status, body and next link (without the host), pages followed: what a client sees. */
export async function readEverything(server: TestApp): Promise<string[]> {
  const seen: string[] = [];
  for (const read of READS) {
    let path: string | undefined = read;
    while (path) {
      const answer = await server.request('GET', path);
      const next = /<([^>]*)>; rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
      seen.push(stringifyJson({ path, status: answer.status, body: answer.text }));
      path = next ? next.slice(server.baseUrl.length) : undefined;
    }
  }
  return seen;
}
