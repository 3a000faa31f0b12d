// A repository as the dashboard tests (and bench/dashboard-paint.ts) look at it: realistic events
// over the last 23 hours, inside the default window however long a test takes (whole queue stays, bisections, commands, pauses), an admin key of its owner,
// and one event whose metadata is markup an attacker would send.
import assert from 'node:assert/strict';
import { generateEvents, type IngestEventInput } from '../fixtures/event-fixtures.ts';
import type { TestApp } from './test-app.ts';

export const OWNER = 'acme';
export const REPOSITORY = 'widgets';
export const FULL_NAME = `${OWNER}/${REPOSITORY}`;

/** Metadata that would run script if any page built HTML from it. */
export const HOSTILE_MESSAGE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

export interface DashboardWorld {
  key: string;
  keyId: string;
  hostileEventId: string;
}

export async function createKey(t: TestApp, scope: 'admin' | 'ci' = 'admin'): Promise<{ key: string; id: string }> {
  const created = await t.request('POST', '/v1/admin/keys', { body: { owner: OWNER, scope, name: `dashboard ${scope}` } });
  assert.equal(created.status, 201, created.text);
  return { key: created.json.key, id: created.json.id };
}

async function ingest(t: TestApp, events: readonly IngestEventInput[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < events.length; i += 1000) {
    const answer = await t.request('POST', `/v1/repos/${FULL_NAME}/logs`, { body: { events: events.slice(i, i + 1000) } });
    assert.equal(answer.status, 201, answer.text);
    ids.push(...[...answer.text.matchAll(/\d+/g)].map((match) => match[0]));
  }
  return ids;
}

/** Registers the repository, writes `count` events over the day before `now`, and makes a key. */
export async function seedDashboardWorld(t: TestApp, { count = 2000, now = Date.now(), seed = 19 } = {}): Promise<DashboardWorld> {
  assert.ok([201, 204].includes((await t.request('PUT', `/v1/admin/repos/${FULL_NAME}`)).status));
  const events = generateEvents({ seed, count, start: new Date(now - 23 * 3_600_000), end: new Date(now - 60_000), pullRange: [1n, 40n] });
  await ingest(t, events);
  const [hostileEventId] = await ingest(t, [
    { type: 'action.comment', metadata: { message: HOSTILE_MESSAGE }, trigger: 'Rule: <b>greet</b>', pull_request: 7, base_ref: 'main', received_at: new Date(now - 30_000).toISOString() },
  ]);
  const { key, id } = await createKey(t);
  return { key, keyId: id, hostileEventId: hostileEventId! };
}
