// The public API's spellings of two identifiers (spec §6: `action.github_actions`,
// `GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED`) are understood where a client generated from
// the public document sends them, in ingestion and in filters, and answers use the spec's names.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

const LOGS = '/v1/repos/acme/widgets/logs';
const ALIAS_CODE = 'GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED';
const SPEC_CODE = 'HOSTING_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED';

for (const backend of await backends()) {
  describe(`public spellings (${backend})`, () => {
    let t: TestApp;
    const types = async (search: string) => ((await t.request('GET', `${LOGS}?${search}`)).json.events as { type: string }[]).map((event) => event.type).sort();

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      const workflow = { ...exampleEvent('action.hosting_actions'), type: 'action.github_actions' };
      const checksEnd = exampleEvent('action.queue.checks_end');
      const leave = exampleEvent('action.queue.leave');
      const events = [
        workflow,
        { ...checksEnd, metadata: { ...checksEnd.metadata, aborted: true, abort_code: ALIAS_CODE } },
        { ...leave, metadata: { ...leave.metadata, merged: false, dequeue_code: ALIAS_CODE } },
        exampleEvent('action.label'),
      ];
      const response = await t.request('POST', LOGS, { body: { events } });
      assert.equal(response.status, 201, response.text);
    });
    after(() => t.close());

    test('ingestion stores the spec names: the event type and the abort and dequeue codes', async () => {
      const events = (await t.request('GET', LOGS)).json.events as { type: string; metadata: Record<string, unknown> }[];
      assert.deepEqual(events.map((event) => event.type).sort(), ['action.hosting_actions', 'action.label', 'action.queue.checks_end', 'action.queue.leave']);
      assert.equal(events.find((event) => event.type === 'action.queue.checks_end')!.metadata.abort_code, SPEC_CODE);
      assert.equal(events.find((event) => event.type === 'action.queue.leave')!.metadata.dequeue_code, SPEC_CODE);
      assert.doesNotMatch(JSON.stringify(events), /GITHUB|github_actions/);
    });

    test('filters read action.github_actions as action.hosting_actions, on both sides of the pair', async () => {
      assert.deepEqual(await types('event_type=action.github_actions'), ['action.hosting_actions']);
      assert.deepEqual(await types('event_type=action.github_actions&event_type=action.hosting_actions'), ['action.hosting_actions']);
      assert.deepEqual(await types('not_event_type=action.github_actions&not_event_type=action.label'), ['action.queue.checks_end', 'action.queue.leave']);
      const aggregate = (await t.request('GET', `${LOGS}/aggregate?event_type=action.github_actions`)).json;
      assert.equal(aggregate.total, 1);
      assert.deepEqual(aggregate.by_event_type, [{ value: 'action.hosting_actions', count: 1 }]);
    });

    test('an alias in a filter does not change the links: they repeat the spec name', async () => {
      await t.request('POST', LOGS, { body: { events: [{ ...exampleEvent('action.hosting_actions'), type: 'action.github_actions' }] } });
      const first = await t.request('GET', `${LOGS}?event_type=action.github_actions&per_page=1`);
      const link = first.headers.get('link') ?? '';
      assert.match(link, /event_type=action\.hosting_actions/);
      const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
      const second = await t.request('GET', new URL(next).pathname + new URL(next).search);
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(second.json.events.map((event: { type: string }) => event.type), ['action.hosting_actions']);
    });

    test('an unknown type is still refused, naming the value', async () => {
      const response = await t.request('GET', `${LOGS}?event_type=action.gitlab_actions`);
      assert.equal(response.status, 422);
      assert.deepEqual(response.json.detail[0].loc, ['query', 'event_type', 0]);
    });
  });
}
