// Every 422 of the activity log listing (DESIGN.md §2, §8), through HTTP: each names the parameter
// and says what is wrong; values the spec allows (repeats, 0 and 2^63-1, the 93-day span) pass.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const LOGS = '/v1/repos/acme/widgets/logs';
const DAY = 86_400_000;

type Detail = { loc: (string | number)[]; msg: string; type: string };

const iso = (ms: number) => new Date(ms).toISOString();

for (const backend of await backends()) {
  describe(`activity log validation (${backend})`, () => {
    let t: TestApp;
    const get = (search: string) => t.request('GET', `${LOGS}?${search}`);
    const issues = async (search: string) => {
      const response = await get(search);
      assert.equal(response.status, 422, `${search}: ${response.text}`);
      return (response.json.detail as Detail[]).map((d) => ({ ...d, at: d.loc.join('.') }));
    };

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    after(() => t.close());

    test('both sides of an exclusive pair: one 422 per pair, naming both parameters', async () => {
      const pairs = [['pull_request', 'not_pull_request', '1'], ['batch_pull', 'not_batch_pull', '1'], ['event_type', 'not_event_type', 'action.label'], ['outcome', 'not_outcome', 'success'], ['trigger', 'not_trigger', 'api']];
      for (const [include, exclude, value] of pairs) {
        const [issue, ...rest] = await issues(`${include}=${value}&${exclude}=${value}`);
        assert.equal(rest.length, 0);
        assert.equal(issue!.at, `query.${include}`);
        assert.equal(issue!.type, 'mutually_exclusive');
        assert.match(issue!.msg, new RegExp(exclude!));
      }
      const all = await issues(pairs.map(([include, exclude, value]) => `${include}=${value}&${exclude}=${value}`).join('&'));
      assert.deepEqual(all.map((i) => i.at).sort(), pairs.map(([include]) => `query.${include}`).sort());
    });

    test('received_from must be before received_to; the span at most 93 days', async () => {
      const to = Date.now() - DAY;
      for (const search of [`received_from=${iso(to)}&received_to=${iso(to)}`, `received_from=${iso(to + 1)}&received_to=${iso(to)}`, `received_from=${iso(Date.now() + 60_000)}`]) {
        const [issue] = await issues(search);
        assert.deepEqual([issue!.at, issue!.type], ['query.received_from', 'window_order'], search);
      }
      const [tooLong] = await issues(`received_from=${iso(to - 93 * DAY - 1)}&received_to=${iso(to)}`);
      assert.deepEqual([tooLong!.at, tooLong!.type], ['query.received_from', 'window_too_long']);
      assert.equal((await get(`received_from=${iso(to - 93 * DAY)}&received_to=${iso(to)}`)).status, 200, 'exactly 93 days');
      assert.equal((await get(`received_from=${iso(to - 1)}&received_to=${iso(to)}`)).status, 200, 'one millisecond');
    });

    test('a date-time without a timezone, or with its "+" sent unencoded, is a 422 that says so', async () => {
      const [unzoned] = await issues('received_from=2024-05-01T12:00:00');
      assert.deepEqual([unzoned!.at, unzoned!.type], ['query.received_from', 'format']);
      assert.match(unzoned!.msg, /timezone/);
      const [plus] = await issues('received_to=2024-05-01T12:00:00+02:00');
      assert.deepEqual([plus!.at, plus!.type], ['query.received_to', 'format']);
      assert.match(plus!.msg, /%2B/);
      for (const bad of ['yesterday', '2024-02-30T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01', '2024-05-01T12:00:00%2B25:00']) {
        const [issue] = await issues(`received_from=${bad}`);
        assert.deepEqual([issue!.at, issue!.type], ['query.received_from', 'format'], bad);
      }
      const to = Date.now() - DAY;
      const zoned = new Date(to - DAY).toISOString().replace('Z', '%2B00:00');
      assert.equal((await get(`received_from=${zoned}&received_to=${iso(to)}`)).status, 200);
    });

    test('both bounds wrong and a pair given: every problem in one 422', async () => {
      const all = await issues('received_from=noon&received_to=2024-05-01T12:00:00&outcome=success&not_outcome=failure');
      assert.deepEqual(all.map((i) => i.at).sort(), ['query.outcome', 'query.received_from', 'query.received_to']);
    });

    test('per_page is an integer from 1 to 100, given once', async () => {
      // Decimal only: Number() would read the last five as 16, 10, 1, 16 and 16.
      for (const value of ['0', '101', 'ten', '1.5', '-1', '', 'Infinity', '-Infinity', 'NaN', '0x10', '1e1', '0b1', '%2016', '16%20']) {
        const [issue] = await issues(`per_page=${value}`);
        assert.equal(issue!.at, 'query.per_page', value);
      }
      assert.equal((await issues('per_page=5&per_page=6'))[0]!.at, 'query.per_page');
      for (const value of ['1', '100']) assert.equal((await get(`per_page=${value}`)).json.per_page, Number(value));
      assert.equal((await get('')).json.per_page, 10, 'default');
    });

    test('numbers are integers from 0 to 2^63-1', async () => {
      for (const name of ['pull_request', 'not_pull_request', 'batch_pull', 'not_batch_pull']) {
        for (const value of ['-1', 'abc', '9223372036854775808', '1.5']) {
          const [issue] = await issues(`${name}=5&${name}=${value}`);
          assert.deepEqual([issue!.at, issue!.type], [`query.${name}.1`, 'int_parsing'], `${name}=${value}`);
        }
        assert.equal((await get(`${name}=0&${name}=9223372036854775807`)).status, 200);
      }
    });

    test('event types and outcomes are those of the catalogue', async () => {
      const [type] = await issues('event_type=action.label&event_type=action.teleport');
      assert.deepEqual([type!.at, type!.type], ['query.event_type.1', 'enum']);
      const [outcome] = await issues('not_outcome=great');
      assert.deepEqual([outcome!.at, outcome!.type], ['query.not_outcome.0', 'enum']);
    });

    test('base_ref and triggers are 1 to 255 characters; base_ref is given once', async () => {
      assert.equal((await issues('base_ref='))[0]!.at, 'query.base_ref');
      assert.equal((await issues(`base_ref=${'b'.repeat(256)}`))[0]!.at, 'query.base_ref');
      assert.equal((await issues('base_ref=main&base_ref=develop'))[0]!.at, 'query.base_ref');
      assert.equal((await issues('trigger='))[0]!.at, 'query.trigger.0');
      assert.equal((await issues(`not_trigger=${'t'.repeat(256)}`))[0]!.at, 'query.not_trigger.0');
      assert.equal((await get(`base_ref=${'b'.repeat(255)}&trigger=${'t'.repeat(255)}`)).status, 200);
    });

    test('bounds and the cursor are given once', async () => {
      assert.equal((await issues(`received_to=${iso(Date.now())}&received_to=${iso(Date.now())}`))[0]!.at, 'query.received_to');
      assert.equal((await issues('cursor=a&cursor=b'))[0]!.at, 'query.cursor');
    });

    test('repeating a value of an array parameter is allowed', async () => {
      for (const search of ['pull_request=5&pull_request=5', 'event_type=action.label&event_type=action.label', 'not_trigger=api&not_trigger=api', 'outcome=success&outcome=success']) {
        assert.equal((await get(search)).status, 200, search);
      }
    });

    test('an unknown parameter is refused, so a misspelt filter never returns unfiltered events', async () => {
      for (const name of ['pullrequest', 'page', 'limit', 'event-type']) {
        const [issue] = await issues(`${name}=1`);
        assert.deepEqual([issue!.at, issue!.type], [`query.${name}`, 'extra_forbidden']);
      }
    });

    test('without a credential the answer is 403 whatever the query; an unknown repository is 404', async () => {
      assert.equal((await t.request('GET', `${LOGS}?per_page=0`, { token: null })).status, 403);
      const missing = await t.request('GET', '/v1/repos/acme/nothing/logs');
      assert.deepEqual([missing.status, missing.json.detail], [404, 'Repository not found']);
    });
  });
}
