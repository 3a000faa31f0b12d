// Property-based fuzzing driven by the served /v1/openapi.json (issue #9): for every documented
// operation, requests valid by the document must succeed (or answer a documented 404/409 about
// state), with bodies matching the documented response schemas; mutated requests (wrong types,
// huge values, unicode, empty, truncated JSON, duplicate keys, int64 edges, bad dates, unknown
// fields, bad credentials, oversized bodies and headers) must get a 4xx with a JSON `detail`
// and leave every table as it was. Nothing may answer 5xx. Operations are read at run time, so new endpoints are covered
// without a change here.
//
// Size: FUZZ_RUNS valid requests and twice as many invalid ones per operation and backend
// (default 20: about 1 100 requests per backend, 20 s for both on a quiet machine). A long run:
//   FUZZ_RUNS=1000 node --import tsx --test test/fuzz/openapi-fuzz.test.ts
// FUZZ_SEED replays a run (fast-check prints the seed of any failure; FUZZ_SHRINK=1 also shrinks
// the request); FUZZ_ONLY=aggregate fuzzes only the operations whose "METHOD /path" contains it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { changedTables, stateChecksum } from '../support/state-checksum.ts';
import { errorCatalogue } from '../../src/errors.ts';
import { loadServedDocument, type Operation, type ServedDocument } from './openapi-operations.ts';
import { buildWorld, restoreWorld, validRequest, type FuzzWorld } from './fuzz-world.ts';
import { invalidRequest } from './request-mutations.ts';
import { describeWire, render, send, type RequestSpec } from './fuzz-http.ts';
import { accepts, textAccepted } from './schema-check.ts';
import { parseJson, stringifyJson } from '../../src/json/exact-json.ts';
import { documentedProblem, errorShapeProblem } from './response-check.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
/** Only the operations whose "METHOD /path" contains this text (a long run aimed at one endpoint). */
const ONLY = process.env.FUZZ_ONLY;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const settings = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, seed: SEED, endOnFailure: process.env.FUZZ_SHRINK !== '1', includeErrorInReport: true });

/** 404s and 409s a valid request may meet, when the path names something the world does not hold. */
const STATE_ANSWERS = new Set<string>(
  Object.values(errorCatalogue)
    .filter((entry) => entry.status === 404 || entry.status === 409)
    .map((entry) => entry.detail)
    .filter((detail) => detail !== errorCatalogue.route_not_found.detail),
);

const fuzzed = (served: ServedDocument): Operation[] => served.operations.filter((op) => ONLY === undefined || op.id.includes(ONLY));

/** Statuses seen per operation, for the summary. Every endpoint is implemented: a 501 fails. */
type Tally = Map<number, number>;

for (const backend of await backends()) {
  describe(`OpenAPI fuzzing (${backend})`, () => {
    let t: TestApp;
    let served: ServedDocument;
    let world: FuzzWorld;

    before(async () => {
      // The rules engine's client reads the platform for a configuration refresh and the pull
      // request simulator; its loop is stopped once the world is built, so nothing writes in the
      // background while refused requests are checked to write nothing.
      t = await startTestApp(backend, undefined, { rules: { owner: 'acme' } });
      await t.hosting.createRepository({ owner: 'acme', name: 'widgets', files: { 'README.md': 'widgets\n' } });
      served = await loadServedDocument(t.baseUrl);
      world = await buildWorld(t, served);
      // Pull requests 1 to 3 on the platform too, for the pull request simulator to read.
      for (const name of ['a', 'b', 'c']) await t.hosting.openPullRequest({ repo: 'acme/widgets', changes: { [`${name}.txt`]: `${name}\n` }, title: name });
      await t.hosting.webhooks.settled();
      await t.automation.engine?.stop();
    });
    after(() => t.close());

    async function exchange(spec: RequestSpec) {
      const wire = render(spec);
      const answer = await send(t.baseUrl, wire);
      return { wire, answer, where: `${[...spec.mutations, ''].join('; ')}${describeWire(wire)} → ${answer.status} ${answer.text.slice(0, 400)}` };
    }

    /** The generator and the checker agree that what is sent is valid (else mutations prove nothing). */
    function assertDocumentedValid(spec: RequestSpec): void {
      const op = spec.op;
      if (op.body && spec.body !== undefined) assert.ok(accepts(op.body, parseJson(stringifyJson(spec.body)), world.resolve, world.substitute), `generated body is not valid: ${fc.stringify(spec)}`);
      for (const p of op.parameters.filter((q) => q.in === 'path')) assert.ok(textAccepted(p.schema, spec.path[p.name] ?? '', world.resolve), `generated ${p.name} is not valid: ${fc.stringify(spec)}`);
    }

    async function checkValid(spec: RequestSpec, tally: Tally): Promise<void> {
      assertDocumentedValid(spec);
      const { answer, where } = await exchange(spec);
      tally.set(answer.status, (tally.get(answer.status) ?? 0) + 1);
      assert.ok(answer.status < 500, `valid request answered ${answer.status}: ${where}`);
      if (answer.status >= 400) {
        assert.equal(errorShapeProblem(answer), undefined, where);
        const detail = (answer.json as { detail: unknown }).detail;
        // A 409 is about state by definition (DESIGN.md §2), and may name the specifics (the merge
        // queue's refusals do); a 404 must be one of the catalogue's, so a missing route is caught.
        assert.ok(answer.status === 409 || STATE_ANSWERS.has(detail as string), `a valid request was refused: ${where}`);
      }
      if (spec.op.deprecated) assert.equal(answer.headers.deprecation, 'true', `a deprecated operation answers Deprecation: true: ${where}`);
      assert.equal(documentedProblem(spec.op, answer), undefined, where);
    }

    async function checkRefused(spec: RequestSpec, tally: Tally): Promise<void> {
      const before = await stateChecksum(t.store);
      const { answer, where } = await exchange(spec);
      tally.set(answer.status, (tally.get(answer.status) ?? 0) + 1);
      assert.ok(answer.status >= 400 && answer.status < 500, `an invalid request answered ${answer.status}: ${where}`);
      assert.equal(errorShapeProblem(answer), undefined, where);
      if (spec.op.responses.has(answer.status)) assert.equal(documentedProblem(spec.op, answer), undefined, where);
      assert.deepEqual(changedTables(before, await stateChecksum(t.store)), [], `a refused request changed stored state: ${where}`);
    }

    function report(op: Operation, tally: Tally): string {
      return `${op.id}: ${[...tally].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`;
    }

    test('every documented operation is fuzzed, valid requests first', async (context) => {
      assert.ok(served.operations.length >= 10, 'the document lists the API');
      const summary: string[] = [];
      for (const op of fuzzed(served)) {
        await context.test(op.id, async () => {
          const tally: Tally = new Map();
          await restoreWorld(t, world);
          await fc.assert(fc.asyncProperty(validRequest(world, op), (spec) => checkValid(spec, tally)), settings(RUNS));
          summary.push(report(op, tally));
          const succeeded = [...tally].filter(([status]) => status < 300).reduce((n, [, count]) => n + count, 0);
          assert.ok(succeeded > 0, `no valid request succeeded: ${report(op, tally)}`);
        });
      }
      context.diagnostic(`valid: ${summary.join(' | ')}`);
    });

    test('every documented operation refuses invalid requests with a JSON detail and writes nothing', async (context) => {
      const summary: string[] = [];
      for (const op of fuzzed(served)) {
        await context.test(op.id, async () => {
          const tally: Tally = new Map();
          await fc.assert(fc.asyncProperty(invalidRequest(world, op), (spec) => checkRefused(spec, tally)), settings(RUNS * 2));
          summary.push(report(op, tally));
        });
      }
      context.diagnostic(`invalid: ${summary.join(' | ')}`);
    });
  });
}
