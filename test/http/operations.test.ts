// Operations endpoints through HTTP: health, readiness, metrics, request ids, the OpenAPI
// document (validated as OpenAPI 3.1) and the HTML reference.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

for (const backend of await backends()) {
  describe(`operations (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend);
    });
    after(() => t.close());

    test('/healthz and /readyz answer without a credential', async () => {
      assert.deepEqual((await t.request('GET', '/healthz', { token: null })).json, { status: 'ok' });
      assert.deepEqual((await t.request('GET', '/readyz', { token: null })).json, { status: 'ok' });
    });

    test('every response carries a request id, and a sane incoming one is kept', async () => {
      const generated = await t.request('GET', '/healthz');
      assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      const kept = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'ci-job-42' } });
      assert.equal(kept.headers.get('x-request-id'), 'ci-job-42');
      const replaced = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
      assert.notEqual(replaced.headers.get('x-request-id'), 'bad id with spaces');
    });

    test('/metrics counts requests and latency per route template and status', async () => {
      await t.request('GET', '/v1/admin/keys');
      await t.request('GET', '/v1/admin/keys', { token: null });
      await t.request('GET', '/v1/random/path/1');
      const text = (await t.request('GET', '/metrics', { token: null })).text;
      assert.match(text, /switchyard_http_requests_total\{method="GET",route="\/v1\/admin\/keys",status="200"\} 1/);
      assert.match(text, /switchyard_http_requests_total\{method="GET",route="\/v1\/admin\/keys",status="403"\} 1/);
      assert.match(text, /switchyard_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
      assert.match(text, /switchyard_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/admin\/keys",status="200"\}/);
    });

    test('/v1/openapi.json is a valid OpenAPI 3.1 document with the security schemes and every endpoint', async () => {
      const response = await t.request('GET', '/v1/openapi.json', { token: null });
      assert.equal(response.status, 200);
      const document = response.json;
      const validator = new Validator();
      const result = await validator.validate(document);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
      assert.equal(validator.version, '3.1');
      assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['AdminApplicationKey', 'CIApplicationKey', 'HostingTokenBearerAuth', 'ServiceTokenBearerAuth']);
      assert.deepEqual(document.servers.map((server: { url: string }) => server.url), ['/v1'], 'paths are relative to /v1, as in the public API');
      for (const path of ['/repos/{owner}/{repository}/pulls/{number}/scopes', '/repos/{owner}/{repository}/commits/{sha}/scopes', '/products/{owner}/{repository}', '/default_products/{owner}', '/repos/{owner}/{repository}/logs', '/repos/{owner}/{repository}/logs/aggregate', '/admin/keys']) {
        assert.ok(document.paths[path], `${path} is documented`);
      }
      const number = document.paths['/repos/{owner}/{repository}/pulls/{number}/scopes'].put.parameters.find((p: { name: string }) => p.name === 'number');
      assert.equal(number.schema.type, 'integer');
      assert.equal(number.schema.format, 'int64');
      assert.equal(number.schema.maximum, undefined, 'int64 states the bound; 2^63-1 as a JSON number reads back rounded up');
      assert.equal(number.schema.minimum, 0);
      assert.equal(document.paths['/repos/{owner}/{repository}/pulls/{number}/scopes'].post.deprecated, true);
    });

    test('/docs serves an HTML reference', async () => {
      const response = await fetch(`${t.baseUrl}/docs/`, { redirect: 'follow' });
      assert.equal(response.status, 200);
      assert.match(await response.text(), /<html/i);
    });

    test('an activity log of a repository never registered is 404, list and aggregate alike', async () => {
      for (const path of ['/v1/repos/acme/widgets/logs', '/v1/repos/acme/widgets/logs/aggregate']) {
        const response = await t.request('GET', path);
        assert.equal(response.status, 404, response.text);
      }
    });
  });
}
