// Pausing the merge queue through HTTP (DESIGN.md §9), on the current path and the older
// /queue/pause: the public payloads and answers, exactly one queue.pause.* event per change in
// the activity log with the caller as actor, 404 for a queue not paused, rights, and the hold the
// executor reads.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { publicReferenceAvailable, publicShapeProblem } from '../support/public-reference.ts';
import { queueHolds } from '../../src/services/merge-queue/controls.ts';

interface LoggedEvent {
  type: string;
  trigger: string;
  pull_request: unknown;
  outcome: string;
  metadata: Record<string, any>;
}

const noPublicReference = !publicReferenceAvailable && 'the public reference is not beside the repository';

for (const backend of await backends()) {
  describe(`merge-queue pause (${backend})`, () => {
    let t: TestApp;
    let adminKey: { id: string; key: string };
    const changes: string[] = [];
    const answers: [string, unknown][] = [];

    /** The pause events of a repository's activity log, oldest first. */
    async function pauseEvents(repository: string): Promise<LoggedEvent[]> {
      const answer = await t.request('GET', `/v1/repos/acme/${repository}/logs?per_page=100`);
      assert.equal(answer.status, 200, answer.text);
      return (answer.json.events as LoggedEvent[]).filter((e) => e.type.startsWith('queue.pause.')).reverse();
    }

    const keep = <T extends { json: unknown }>(schema: string, answer: T): T => {
      answers.push([schema, answer.json]);
      return answer;
    };

    before(async () => {
      t = await startTestApp(backend, undefined, { onQueueChanged: (id) => changes.push(id) });
      for (const name of ['widgets', 'gadgets', 'rights']) assert.equal((await t.request('PUT', `/v1/admin/repos/acme/${name}`)).status, 201);
      adminKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'admin', name: 'release bot' } })).json;
      t.hosting.users.set('hosting-writer', { login: 'alice', id: 4242, repos: { 'acme/rights': { admin: true, pull: true } } });
      t.hosting.users.set('hosting-reader', { login: 'bob', id: 4243, repos: { 'acme/rights': { admin: false, pull: true } } });
    });
    after(() => t.close());

    test('a queue never paused: paused false, and an empty list on the older path', async () => {
      const current = keep('MergeQueuePauseResponse', await t.request('GET', '/v1/repos/acme/widgets/merge-queue/pause'));
      assert.equal(current.status, 200);
      assert.deepEqual(current.json, { paused: false, reason: null, paused_at: null });
      const older = keep('QueuePauseResponse', await t.request('GET', '/v1/repos/acme/widgets/queue/pause'));
      assert.deepEqual(older.json, { queue_pause: [] });
      assert.equal(older.headers.get('deprecation'), 'true');
    });

    test('PUT pauses then changes the reason; DELETE unpauses; each change is one event, with the caller as actor', async () => {
      const path = '/v1/repos/acme/widgets/merge-queue/pause';
      const paused = keep('MergeQueuePauseResponse', await t.request('PUT', path, { token: adminKey.key, body: { reason: 'release 4.2' } }));
      assert.equal(paused.status, 200, paused.text);
      assert.equal(paused.json.paused, true);
      assert.equal(paused.json.reason, 'release 4.2');
      const pausedAt = paused.json.paused_at;
      assert.ok(Math.abs(Date.parse(pausedAt) - Date.now()) < 60_000);
      assert.deepEqual((await t.request('GET', path)).json, paused.json);

      const again = await t.request('PUT', path, { body: { reason: 'release 4.2' } });
      assert.deepEqual(again.json, paused.json, 'the same reason again changes nothing');
      const updated = await t.request('PUT', path, { body: { reason: 'release 4.2, then 4.3' } });
      assert.deepEqual(updated.json, { paused: true, reason: 'release 4.2, then 4.3', paused_at: pausedAt }, 'the pause keeps its time');
      const older = keep('QueuePauseResponse', await t.request('GET', '/v1/repos/acme/widgets/queue/pause'));
      assert.deepEqual(older.json, { queue_pause: [{ reason: 'release 4.2, then 4.3', pause_date: pausedAt }] });

      const deleted = await t.request('DELETE', path, { token: adminKey.key });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      assert.deepEqual((await t.request('GET', path)).json, { paused: false, reason: null, paused_at: null });

      const events = await pauseEvents('widgets');
      assert.deepEqual(events.map((e) => e.type), ['queue.pause.create', 'queue.pause.update', 'queue.pause.delete']);
      const appActor = { type: 'application', id: adminKey.id, name: 'release bot' };
      assert.deepEqual(events[0]!.metadata, { reason: 'release 4.2', created_by: appActor, created_by_staff: false });
      assert.equal(events[1]!.metadata.reason, 'release 4.2, then 4.3');
      assert.equal(events[1]!.metadata.updated_by.name, 'switchyard');
      assert.equal(events[1]!.metadata.updated_by_staff, true, 'the service token acts as staff');
      assert.deepEqual(events[2]!.metadata, { deleted_by: appActor, deleted_by_staff: false });
      assert.ok(events.every((e) => e.outcome === 'neutral' && e.pull_request === null));
    });

    test('the older paths pause and unpause the same queue, POST …/delete included', async () => {
      const older = '/v1/repos/acme/gadgets/queue/pause';
      const put = keep('QueuePauseResponse', await t.request('PUT', older, { body: { reason: 'freeze week' } }));
      assert.equal(put.status, 200, put.text);
      assert.equal(put.headers.get('deprecation'), 'true');
      assert.equal(put.json.queue_pause[0].reason, 'freeze week');
      const current = await t.request('GET', '/v1/repos/acme/gadgets/merge-queue/pause');
      assert.deepEqual(current.json, { paused: true, reason: 'freeze week', paused_at: put.json.queue_pause[0].pause_date });
      assert.equal((await t.request('DELETE', older)).status, 204);
      assert.equal((await t.request('PUT', '/v1/repos/acme/gadgets/merge-queue/pause', { body: { reason: 'again' } })).status, 200);
      const viaPost = await t.request('POST', `${older}/delete`);
      assert.equal(viaPost.status, 204, viaPost.text);
      assert.equal(viaPost.headers.get('deprecation'), 'true');
      assert.deepEqual((await pauseEvents('gadgets')).map((e) => [e.type, e.metadata.reason]), [
        ['queue.pause.create', 'freeze week'],
        ['queue.pause.delete', undefined],
        ['queue.pause.create', 'again'],
        ['queue.pause.delete', undefined],
      ]);
    });

    test('unpausing a queue not paused: 404 saying so, on every path, and no event', async () => {
      const before = (await pauseEvents('gadgets')).length;
      for (const [method, path] of [['DELETE', '/v1/repos/acme/gadgets/merge-queue/pause'], ['DELETE', '/v1/repos/acme/gadgets/queue/pause'], ['POST', '/v1/repos/acme/gadgets/queue/pause/delete']] as const) {
        const answer = await t.request(method, path);
        assert.equal(answer.status, 404, `${method} ${path}`);
        assert.deepEqual(answer.json, { detail: 'The merge queue of this repository is not paused.' });
      }
      assert.equal((await pauseEvents('gadgets')).length, before);
    });

    test('bad input is a 422 naming it; an unknown repository a 404; neither writes', async () => {
      const path = '/v1/repos/acme/gadgets/merge-queue/pause';
      for (const [body, loc] of [[{}, 'reason'], [{ reason: 'x'.repeat(256) }, 'reason'], [{ reason: 'r', until: 'noon' }, 'until'], [{ reason: 42 }, 'reason']] as const) {
        const answer = await t.request('PUT', path, { body });
        assert.equal(answer.status, 422, JSON.stringify(body));
        assert.deepEqual(answer.json.detail[0].loc, ['body', loc]);
      }
      const unknown = await t.request('PUT', '/v1/repos/acme/nothing/merge-queue/pause', { body: { reason: 'r' } });
      assert.deepEqual([unknown.status, unknown.json], [404, { detail: 'Repository not found' }]);
      assert.equal((await t.request('GET', '/v1/repos/acme/nothing/queue/pause')).status, 404);
      assert.equal((await t.request('GET', path)).json.paused, false);
    });

    test('rights: pull reads, push pauses; ci keys and other owners nothing', async () => {
      const path = '/v1/repos/acme/rights/merge-queue/pause';
      assert.equal((await t.request('GET', path, { token: 'hosting-reader' })).status, 200);
      assert.equal((await t.request('GET', '/v1/repos/acme/rights/queue/pause', { token: 'hosting-reader' })).status, 200);
      assert.equal((await t.request('PUT', path, { token: 'hosting-reader', body: { reason: 'r' } })).status, 403);
      assert.equal((await t.request('PUT', '/v1/repos/acme/rights/queue/pause', { token: 'hosting-reader', body: { reason: 'r' } })).status, 403);
      assert.equal((await t.request('PUT', path, { token: 'hosting-writer', body: { reason: 'by a user' } })).status, 200);
      assert.equal((await t.request('DELETE', path, { token: 'hosting-reader' })).status, 403);
      const ciKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } })).json.key;
      const otherAdmin = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'globex', scope: 'admin', name: 'other' } })).json.key;
      for (const token of [ciKey, otherAdmin]) {
        assert.equal((await t.request('GET', path, { token })).status, 403);
        assert.equal((await t.request('DELETE', path, { token })).status, 403);
      }
      assert.equal((await t.request('DELETE', path, { token: 'hosting-writer' })).status, 204);
      const events = await pauseEvents('rights');
      assert.deepEqual(events.map((e) => e.type), ['queue.pause.create', 'queue.pause.delete'], 'refused calls record nothing');
      assert.deepEqual(events[0]!.metadata.created_by, { type: 'user', id: 4242, name: 'alice' });
    });

    test('the executor reads the pause as a hold and is told of each change', async () => {
      const id = (await t.store.repositories.find('acme', 'widgets'))!.id;
      const told = changes.length;
      assert.equal((await queueHolds(t.store, id, 'main', new Date())).paused, false);
      await t.request('PUT', '/v1/repos/acme/widgets/merge-queue/pause', { body: { reason: 'hold' } });
      const holds = await queueHolds(t.store, id, 'main', new Date());
      assert.equal(holds.paused, true);
      assert.equal(holds.pause?.reason, 'hold');
      assert.equal(holds.frozen, false);
      await t.request('PUT', '/v1/repos/acme/widgets/merge-queue/pause', { body: { reason: 'hold' } });
      await t.request('DELETE', '/v1/repos/acme/widgets/merge-queue/pause');
      assert.deepEqual(changes.slice(told), [id, id], 'told of the pause and the unpause, not of the PUT that changed nothing');
    });

    test('every answer fits the public schemas', { skip: noPublicReference }, () => {
      assert.ok(answers.length >= 5, 'the answers were kept');
      for (const [schema, value] of answers) assert.equal(publicShapeProblem(schema, value), undefined);
    });
  });
}
