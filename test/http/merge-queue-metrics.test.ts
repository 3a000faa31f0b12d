// The merge queue on /metrics (issue 26), on each backend: exits by dequeue code, time in queue
// and CI duration from the queue's events written since the process started (each once however
// often /metrics is read), and the queues as they stand (pull requests queued, checks running),
// labelled by repository and base branch.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends, openTestStore, type TestStore } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import * as story from '../support/queue-story.ts';
import type { IngestEventInput } from '../fixtures/event-fixtures.ts';

const REPO = 'acme/widgets';
const HOUR = 3_600_000;
const T = Date.now() - 24 * HOUR;

/** On main: #1 queued 3600 s and merged, #2 queued 600 s and failed; checks of 1200 s and 300 s, one aborted. */
function events(): IngestEventInput[] {
  const [s1, s2] = [story.stay(1, T), story.stay(2, T + 3000_000)];
  const [a, b] = [story.batch([s1], 11), story.batch([s2], 12)];
  return [
    story.enter(s1), story.enter(s2),
    ...story.checksEnd(a, T + 600_000, T + 1800_000, 'success'),
    ...story.checksEnd(b, T + 3100_000, T + 3400_000, 'failure'),
    ...story.checksEnd(b, T + 3400_000, T + 3500_000, 'cancelled', { abortCode: 'PR_AHEAD_DEQUEUED' }),
    story.leave(s1, T + HOUR, 'PR_MERGED'),
    story.leave(s2, T + HOUR, 'CHECKS_FAILED'),
  ];
}

/** The value of a sample of /metrics: `name{labels}` exactly as written, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(',');
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${wanted}}`) || l.startsWith(`${name}{`) && sameLabels(l, name, labels));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

function sameLabels(line: string, name: string, labels: Record<string, string>): boolean {
  const inside = line.slice(name.length + 1, line.indexOf('}'));
  const found = Object.fromEntries([...inside.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  return Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => found[k] === v);
}

for (const backend of await backends()) {
  describe(`merge queue metrics (${backend})`, () => {
    let given: TestStore;
    let t: TestApp;
    const metrics = async () => (await t.request('GET', '/metrics', { token: null })).text;
    const main = { repository: REPO, branch: 'main' };

    before(async () => {
      given = await openTestStore(backend);
      // Events of an earlier process: not this process's to count.
      const earlier = await startTestApp(backend, given.store);
      assert.equal((await earlier.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await earlier.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
      assert.equal((await earlier.request('POST', `/v1/repos/${REPO}/logs`, { body: { events: events() } })).status, 201);
      await earlier.close();
      t = await startTestApp(backend, given.store);
    });
    after(async () => {
      await t?.close();
      await given?.dispose();
    });

    test('events written before the process started are not counted', async () => {
      const text = await metrics();
      assert.equal(sample(text, 'switchyard_merge_queue_exits_total', { ...main, reason: 'PR_MERGED' }), undefined, text.split('\n').filter((l) => l.includes('merge_queue')).join('\n'));
    });

    test('exits, time in queue and CI duration of the events written since, each counted once', async () => {
      await metrics();
      assert.equal((await t.request('POST', `/v1/repos/${REPO}/logs`, { body: { events: events() } })).status, 201);
      for (const round of [1, 2]) {
        const text = await metrics();
        const where = `reading ${round}`;
        assert.equal(sample(text, 'switchyard_merge_queue_exits_total', { ...main, reason: 'PR_MERGED' }), 1, where);
        assert.equal(sample(text, 'switchyard_merge_queue_exits_total', { ...main, reason: 'CHECKS_FAILED' }), 1, where);
        assert.equal(sample(text, 'switchyard_merge_queue_time_in_queue_seconds_count', main), 2, where);
        assert.equal(sample(text, 'switchyard_merge_queue_time_in_queue_seconds_sum', main), 3600 + 600, where);
        assert.equal(sample(text, 'switchyard_merge_queue_time_in_queue_seconds_bucket', { le: '600', ...main }), 1, where);
        // The aborted attempt ran no verdict: not a CI duration.
        assert.equal(sample(text, 'switchyard_merge_queue_ci_duration_seconds_count', main), 2, where);
        assert.equal(sample(text, 'switchyard_merge_queue_ci_duration_seconds_sum', main), 1200 + 300, where);
      }
    });

    test('pull requests queued and checks running, per repository and branch', async () => {
      for (const number of [7, 8]) {
        assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}/pulls/${number}`, { body: { state: 'open', head_sha: 'c'.repeat(40), base_ref: 'main' } })).status, 204);
        assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pull/${number}`, { body: {} })).status, 202);
      }
      const text = await metrics();
      assert.equal(sample(text, 'switchyard_merge_queue_pull_requests', main), 2);
      assert.equal(sample(text, 'switchyard_merge_queue_checks_running', main), 0, 'no executor here: nothing runs');
      assert.equal((await t.request('POST', `/v1/repos/${REPO}/merge-queue/pull/7/dequeue`)).status, 204);
      const after = await metrics();
      assert.equal(sample(after, 'switchyard_merge_queue_pull_requests', main), 1);
      assert.equal(sample(after, 'switchyard_merge_queue_exits_total', { ...main, reason: 'PR_MANUALLY_DEQUEUED' }), 1, 'the dequeue the queue recorded');
    });
  });
}
