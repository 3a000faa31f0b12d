// Every route the app registers is documented (issue 17): it has an operation id (the public
// API's for the operations Switchyard shares with it), a summary, a sentence for every answer it
// declares, every status its kind of route can answer, and the headers it sends. A route that is
// not API says so with `schema: { hide: true }`. Routes are read from the running app, so a new
// route is walked without a change here, and fails here until it is documented.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifySchema } from 'fastify';
import { documentPath } from '../../src/http/openapi/api-document.ts';
import { isRateLimited } from '../../src/http/openapi/rate-limit-doc.ts';
import { isDocumented, type RegisteredRoute } from '../../src/http/openapi/route-registry.ts';
import { backends } from '../support/backends.ts';
import { PUBLIC_OPERATION_IDS, publicOperationKey } from '../support/public-operation-ids.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';
import { loadServedDocument, refResolver, type JsonSchema, type Operation, type ServedDocument } from '../fuzz/openapi-operations.ts';

/** Response headers a generated client reads: each must be declared on every answer that carries it. */
const CLIENT_HEADERS = ['link', 'deprecation', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

const routeId = (route: RegisteredRoute) => `${route.method} ${route.url}`;
const hasInput = (schema: FastifySchema) => [schema.params, schema.querystring, schema.headers, schema.body].some((part) => part !== undefined);

/** A value for a path parameter: its example, else one its schema accepts. */
function pathValue(schema: JsonSchema, resolve: (ref: string) => JsonSchema): string {
  if (typeof schema.$ref === 'string') return pathValue(resolve(schema.$ref), resolve);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return String(schema.examples[0]);
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.format === 'uuid') return randomUUID();
  if (schema.type === 'integer') return '1';
  return 'example';
}

for (const backend of await backends()) {
  describe(`the API document describes every route (${backend})`, () => {
    let t: TestApp;
    let served: ServedDocument;
    let operations: Map<string, Operation>;
    let routes: RegisteredRoute[];

    /** The documented operation of a route: "PUT /v1/products/{owner}/{repository}". */
    const operationOf = (route: RegisteredRoute) => operations.get(`${route.method} ${route.url.replace(/:(\w+)(\([^)]*\))?/g, '{$1}')}`);

    before(async () => {
      t = await startTestApp(backend);
      served = await loadServedDocument(t.baseUrl);
      operations = new Map(served.operations.map((op) => [op.id, op]));
      routes = [...t.app.registeredRoutes];
    });
    after(() => t.close());

    test('each route is an operation of the document or marked hide, and the document lists nothing else', () => {
      const undocumented = routes.filter((route) => isDocumented(route) && !operationOf(route)).map(routeId);
      assert.deepEqual(undocumented, [], 'routes neither documented nor marked `schema: { hide: true }`');
      const documented = new Set(routes.filter(isDocumented).map((route) => operationOf(route)!.id));
      assert.deepEqual(served.operations.map((op) => op.id).filter((id) => !documented.has(id)), [], 'operations of no route');
      assert.ok(documented.size >= 17, 'the API is walked');
    });

    test('each operation has a unique operation id, the public one where the public API has the operation, a summary and tags', () => {
      const seen = new Map<string, string>();
      for (const route of routes.filter(isDocumented)) {
        const { operationId, summary, tags } = route.schema ?? {};
        assert.match(operationId ?? '', /^[A-Za-z][\w.-]*$/, `${routeId(route)}: schema.operationId`);
        assert.equal(seen.get(operationId!), undefined, `${routeId(route)}: operationId ${operationId} is already used by ${seen.get(operationId!)}`);
        seen.set(operationId!, routeId(route));
        assert.ok(summary && summary.length > 0, `${routeId(route)}: schema.summary`);
        assert.ok(tags && tags.length > 0, `${routeId(route)}: schema.tags`);
        const { path, underPrefix } = documentPath(route.url);
        const publicId = underPrefix ? PUBLIC_OPERATION_IDS[publicOperationKey(route.method, path)] : undefined;
        if (publicId) assert.equal(operationId, publicId, `${routeId(route)}: the public API's operation id`);
      }
    });

    test('each answer a route declares says what it means (jsonResponse or emptyResponse)', () => {
      for (const route of routes.filter(isDocumented)) {
        const declared = Object.entries((route.schema?.response ?? {}) as Record<string, JsonSchema>);
        assert.ok(declared.some(([status]) => status.startsWith('2')), `${routeId(route)}: a success answer`);
        for (const [status, response] of declared) {
          const described = typeof response.description === 'string' && response.description.length > 0 && (typeof response.content === 'object' || response.type === 'null');
          assert.ok(described, `${routeId(route)} ${status}: declare it with jsonResponse('what it means', Schema) or emptyResponse('what was done')`);
        }
      }
    });

    test('each operation documents the answers its kind of route gives, with their headers', () => {
      for (const route of routes.filter(isDocumented)) {
        const op = operationOf(route)!;
        const schema = route.schema!;
        const expect = (status: number, why: string, headers: string[] = []) => {
          const response = op.responses.get(status);
          assert.ok(response, `${op.id}: ${status} (${why}) is not documented`);
          for (const name of headers) assert.ok(response.headers.includes(name), `${op.id} ${status}: header ${name} is not declared`);
        };
        expect(503, 'storage or the hosting API unreachable', ['retry-after']);
        if (op.security.length > 0) expect(403, 'a credential missing or refused');
        if (hasInput(schema)) expect(422, 'an invalid value');
        if (schema.body !== undefined) {
          expect(413, 'a body over the limit');
          expect(415, 'a body that is not JSON');
        }
        if (isRateLimited(route)) {
          expect(429, 'the rate limit', ['retry-after', ...RATE_LIMIT_HEADERS]);
          for (const status of op.responses.keys()) expect(status, 'rate-limited', RATE_LIMIT_HEADERS);
        }
        if (op.deprecated) for (const status of op.responses.keys()) expect(status, 'deprecated', ['deprecation']);
      }
    });

    test('requests to each operation, without and with a credential, get a documented answer with its headers declared', async () => {
      const resolve = refResolver(served.document);
      const rateLimiterOn = t.app.hasPlugin('@fastify/rate-limit');
      for (const route of routes.filter(isDocumented)) {
        const op = operationOf(route)!;
        const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(pathValue(op.parameters.find((p) => p.name === name)?.schema ?? {}, resolve)));
        for (const token of [undefined, SERVICE_TOKEN]) {
          const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
          if (op.body) headers['content-type'] = 'application/json';
          const answer = await fetch(`${t.baseUrl}${path}`, { method: op.method, headers, body: op.body ? '{}' : undefined });
          await answer.arrayBuffer();
          const where = `${op.method} ${path} ${token ? 'with' : 'without'} a credential → ${answer.status}`;
          const documented = op.responses.get(answer.status);
          assert.ok(documented, `${where}: status not documented`);
          for (const name of CLIENT_HEADERS) if (answer.headers.has(name)) assert.ok(documented.headers.includes(name), `${where}: header ${name} sent but not declared`);
          if (rateLimiterOn && isRateLimited(route)) assert.ok(answer.headers.has('ratelimit-limit'), `${where}: documented as rate-limited, sent no RateLimit-Limit`);
        }
      }
    });

    test('the document names its schemas and refers to them only with #/components/ pointers that resolve', () => {
      const text = JSON.stringify(served.document);
      assert.doesNotMatch(text, /"\$(anchor|id|defs)"/, 'no $anchor, $id or $defs');
      const resolve = refResolver(served.document);
      for (const [, ref] of text.matchAll(/"\$ref":"([^"]*)"/g)) {
        assert.match(ref!, /^#\/components\/(schemas|headers)\/[\w.-]+$/, `$ref ${ref}`);
        assert.doesNotThrow(() => resolve(ref!), `$ref ${ref} resolves`);
      }
      const schemas = Object.keys((served.document.components as JsonSchema).schemas as JsonSchema);
      for (const name of ['ActivityLogPage', 'AggregationResult', 'Error', 'ValidationError', 'ProductList', 'ScopeReport', 'Actor', 'QueueCheck', 'SpeculativeCheckPullRequest', 'ConditionEvaluationResult', 'EventActionQueueChecksEnd', 'QueueChecksEndMetadata']) {
        assert.ok(schemas.includes(name), `component ${name}`);
      }
      assert.ok(schemas.filter((name) => /^Event[A-Z]/.test(name)).length >= 46, 'one component per event type');
    });
  });
}
