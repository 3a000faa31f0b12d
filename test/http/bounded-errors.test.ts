// Error reports stay small whatever the body holds (issue 20, item 1): a 1 MiB body of invalid
// array items used to answer an 80 MB 422 after seconds of blocked event loop. Now a failed bound
// is reported alone, and a 422 lists at most 100 issues, then counts the rest.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const MiB = 1024 * 1024;
type Issue = { loc: (string | number)[]; msg: string; type: string };

/** `{"<field>": [<item>, <item>, …]}` as close to 1 MiB as fits. */
function arrayBody(field: string, item: string): string {
  const count = Math.floor((MiB - field.length - 10) / (item.length + 1));
  return `{"${field}": [${Array(count).fill(item).join(',')}]}`;
}

for (const backend of await backends()) {
  describe(`bounded error reports (${backend})`, () => {
    let t: TestApp;
    let ciKey: string;

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      ciKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } })).json.key;
      // Any user of the hosting platform may set the default products of their own account.
      t.hosting.users.set('anyone', { login: 'mallory', id: 666, repos: {} });
    });
    after(() => t.close());

    async function timed(method: string, path: string, token: string, rawBody: string) {
      const started = performance.now();
      const response = await t.request(method, path, { token, rawBody });
      return { ...response, ms: performance.now() - started };
    }

    test('1 MiB of invalid products from any hosting user: one issue, the bound', async () => {
      const response = await timed('PUT', '/v1/default_products/mallory', 'anyone', arrayBody('products', '"merge_queue"'));
      assert.equal(response.status, 422);
      assert.deepEqual(response.json.detail, [{ loc: ['body', 'products'], msg: 'must NOT have more than 100 items', type: 'too_long' }]);
      // It took 8 to 14 s and answered 80 MB before; the parser now stops at the 101st item.
      assert.ok(response.ms < 5000, `answered in ${response.ms} ms`);
    });

    test('the body is refused at the first value its schema cannot hold, the rest unread', async () => {
      // 350,000 empty arrays cost 40 ms to parse and as much to collect, before validation
      // refused the 101st; the parser now stops at the first, nested deeper than products go.
      const nested = await t.request('PUT', '/v1/default_products/mallory', { token: 'anyone', rawBody: arrayBody('products', '[]') });
      assert.equal(nested.status, 422);
      assert.deepEqual(nested.json.detail, [{ loc: ['body', 'products', 0], msg: 'must not be an array or object: this endpoint accepts nothing nested 3 deep', type: 'type_error' }]);
      const members = `{${Array.from({ length: 200 }, (_, i) => `"f${i}": 1`).join(', ')}, "then": broken`;
      const wide = await t.request('PUT', '/v1/repos/acme/widgets/pulls/1/scopes', { token: ciKey, rawBody: members });
      assert.equal(wide.status, 422);
      assert.deepEqual(wide.json.detail, [{ loc: ['body'], msg: 'must NOT have more than 102 properties', type: 'too_many_properties' }]);
    });

    test('500 000 bad scopes from a ci key: one issue, the bound', async () => {
      const response = await timed('PUT', '/v1/repos/acme/widgets/pulls/1/scopes', ciKey, arrayBody('scopes', '1'));
      assert.equal(response.status, 422);
      assert.deepEqual(response.json.detail, [{ loc: ['body', 'scopes'], msg: 'must NOT have more than 1000 items', type: 'too_long' }]);
      assert.ok(response.ms < 5000, `answered in ${response.ms} ms`);
    });

    test('within the bounds, 100 issues are listed and the rest counted', async () => {
      const response = await t.request('PUT', '/v1/repos/acme/widgets/pulls/1/scopes', { token: ciKey, rawBody: `{"scopes": [${Array(1000).fill('1').join(',')}]}` });
      assert.equal(response.status, 422);
      const detail: Issue[] = response.json.detail;
      assert.equal(detail.length, 101);
      assert.deepEqual(detail[0], { loc: ['body', 'scopes', 0], msg: 'must be string', type: 'type_error' });
      assert.deepEqual(detail[100], { loc: ['body'], msg: '900 more issues not shown', type: 'too_many_issues' });
    });

    test('a 1 MiB string is refused for its length, not matched against its format', async () => {
      const response = await t.request('PUT', `/v1/repos/acme/widgets/commits/${'a'.repeat(40)}/scopes`, { token: ciKey, rawBody: `{"scopes": ["${'x'.repeat(MiB - 40)}"]}` });
      assert.equal(response.status, 422);
      assert.deepEqual(response.json.detail, [{ loc: ['body', 'scopes', 0], msg: 'must NOT have more than 255 characters', type: 'string_too_long' }]);
    });

    test('unknown fields are named up to 100 beyond the known ones, then the object is too big', async () => {
      const few = await t.request('PUT', '/v1/repos/acme/widgets/pulls/1/scopes', { token: ciKey, body: { scopes: [], all_scope: true } });
      assert.equal(few.status, 422);
      assert.deepEqual(few.json.detail, [{ loc: ['body', 'all_scope'], msg: 'Unknown field', type: 'extra_forbidden' }]);
      const fields = Array.from({ length: 80_000 }, (_, i) => `"k${i}": 0`).join(',');
      const many = await t.request('PUT', '/v1/repos/acme/widgets/pulls/1/scopes', { token: ciKey, rawBody: `{"scopes": [], ${fields}}` });
      assert.equal(many.status, 422);
      assert.deepEqual(many.json.detail, [{ loc: ['body'], msg: 'must NOT have more than 102 properties', type: 'too_many_properties' }]);
    });

    test('an ingested batch of 1000 invalid events lists 100 issues and counts the rest', async () => {
      const events = Array.from({ length: 1000 }, () => ({ type: 'no.such.type', metadata: {}, trigger: 't', surplus: 1 }));
      const response = await t.request('POST', '/v1/repos/acme/widgets/logs', { body: { events } });
      assert.equal(response.status, 422);
      const detail: Issue[] = response.json.detail;
      assert.equal(detail.length, 101);
      assert.deepEqual(detail[0]!.loc, ['body', 'events', 0, 'type']);
      assert.deepEqual(detail[100], { loc: ['body'], msg: '1900 more issues not shown', type: 'too_many_issues' });
    });
  });
}
