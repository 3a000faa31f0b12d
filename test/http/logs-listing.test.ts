// The listing's events through HTTP (spec §2.4, §2.7): the envelope of each of the 46 types as it
// was sent, exact 64-bit integers, the repository named as registered, newest first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, deriveOutcome } from '../../src/domain/events/index.ts';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { eventAt } from '../support/activity-log-model.ts';
import { idsOf } from '../support/activity-log-client.ts';

const LOGS = '/v1/repos/acme/widgets/logs';
const MAX = 9223372036854775807n;
const ENVELOPE = ['id', 'received_at', 'trigger', 'repository', 'pull_request', 'base_ref', 'outcome', 'type', 'metadata'];

for (const backend of await backends()) {
  describe(`activity log listing (${backend})`, () => {
    let t: TestApp;
    const start = Date.now() - 3_600_000;
    const sent = EVENT_TYPES.map((type, i) => eventAt(type, start + i * 1000 + (i % 7)));
    let ids: number[];

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/Acme/Widgets')).status, 201);
      ids = (await t.request('POST', LOGS, { body: { events: sent } })).json.ids;
    });
    after(() => t.close());

    test('every one of the 46 types comes back in the envelope it was sent in, newest first', async () => {
      const response = await t.request('GET', `${LOGS}?per_page=100`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(Object.keys(response.json), ['size', 'per_page', 'events']);
      assert.equal(response.json.size, 46);
      const events = response.json.events as Record<string, unknown>[];
      assert.equal(events.length, 46);
      events.forEach((event, position) => {
        const index = 45 - position;
        const input = sent[index]!;
        assert.deepEqual(Object.keys(event), ENVELOPE);
        assert.equal(event.id, ids[index]);
        assert.equal(event.received_at, input.received_at);
        assert.match(event.received_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.equal(event.repository, 'Acme/Widgets', 'the name as registered, whatever the case of the path');
        assert.equal(event.type, input.type);
        assert.equal(event.trigger, input.trigger);
        assert.equal(event.outcome, deriveOutcome(input.type, input.metadata));
        assert.equal(event.pull_request, input.pull_request === null ? null : Number(input.pull_request));
        assert.equal(event.base_ref, input.base_ref);
        assert.deepEqual(event.metadata, JSON.parse(JSON.stringify(input.metadata)));
      });
    });

    test('64-bit pull request numbers and ids inside metadata are exact', async () => {
      const start = eventAt('action.queue.checks_start', Date.now() - 1000, { pull_request: MAX });
      const speculative = { ...(start.metadata.speculative_check_pull_request as object), number: MAX - 1n };
      const response = await t.request('POST', LOGS, { body: { events: [{ ...start, metadata: { ...start.metadata, speculative_check_pull_request: speculative } }] } });
      const id = String(response.json.ids[0]);
      const page = await t.request('GET', `${LOGS}?pull_request=${MAX}`);
      assert.deepEqual(idsOf(page.text), [id]);
      assert.match(page.text, /"pull_request":9223372036854775807,/);
      assert.match(page.text, /"number":9223372036854775806,/);
      assert.equal((await t.request('GET', `${LOGS}?batch_pull=${MAX - 1n}`)).json.size, 1);
    });

    test('an admin key of the owner and a hosting token with pull rights may read', async () => {
      const key = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'admin', name: 'reader' } })).json.key;
      t.hosting.users.set('hosting-reader', { login: 'bob', id: 8, repos: { 'acme/widgets': { admin: false, pull: true } } });
      for (const token of [key, 'hosting-reader']) {
        const response = await t.request('GET', `${LOGS}?per_page=1`, { token });
        assert.equal(response.status, 200, response.text);
        assert.equal(response.json.size, 1);
      }
    });
  });
}
