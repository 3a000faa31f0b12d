// What a body schema can accept at most (src/validation/json-bounds.ts), which the body parser
// refuses past: never less than the schema accepts, and no bound where it accepts any JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Type } from '@sinclair/typebox';
import { parseJson } from '../../src/json/exact-json.ts';
import { ScopeReportBody } from '../../src/domain/scopes/scope-report.ts';
import { compileBodyValidator } from '../../src/validation/validators.ts';
import { jsonBoundsOf, NO_BOUNDS } from '../../src/validation/json-bounds.ts';

const Closed = Type.Object({ tags: Type.Array(Type.String(), { maxItems: 5 }), size: Type.Integer() }, { additionalProperties: false });

test('a closed schema bounds nesting, arrays and members (a closed object: its fields and 100 unknown ones named)', () => {
  assert.deepEqual(jsonBoundsOf(Closed), { depth: 2, items: 5, members: 102 });
  assert.deepEqual(jsonBoundsOf(ScopeReportBody), { depth: 2, items: 1000, members: 102 });
  assert.deepEqual(jsonBoundsOf(Type.Array(Type.Array(Type.Boolean(), { maxItems: 7 }), { maxItems: 2 })), { depth: 2, items: 7, members: 0 });
  assert.deepEqual(jsonBoundsOf(Type.Union([Type.String(), Closed, Type.Null()])), { depth: 2, items: 5, members: 102 });
  assert.deepEqual(jsonBoundsOf(Type.Object({ a: Type.Integer() }, { additionalProperties: false, maxProperties: 3 })), { depth: 1, items: 0, members: 3 });
});

test('no bound where the schema accepts any JSON', () => {
  assert.deepEqual(jsonBoundsOf(Type.Object({ a: Type.Integer() })), NO_BOUNDS, 'unknown members may be anything');
  assert.deepEqual(jsonBoundsOf(Type.Object({ metadata: Type.Any() }, { additionalProperties: false })), NO_BOUNDS, 'a member may be anything');
  assert.deepEqual(jsonBoundsOf(Type.Array(Type.String())), { depth: 1, items: Infinity, members: 0 });
  assert.deepEqual(jsonBoundsOf(Type.Ref('Elsewhere')), NO_BOUNDS);
  assert.deepEqual(jsonBoundsOf(undefined), NO_BOUNDS);
});

test('every body a schema accepts parses within its bounds', () => {
  const schemas = [Closed, ScopeReportBody, Type.Union([Closed, Type.Array(Closed, { maxItems: 3 })]), Type.Object({ inner: Type.Optional(Closed) }, { additionalProperties: false })];
  const values = fc.oneof(
    fc.json({ maxDepth: 4 }).map((text) => JSON.parse(text) as unknown),
    fc.record({ tags: fc.array(fc.string(), { maxLength: 6 }), size: fc.integer() }),
    fc.record({ scopes: fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 12 }) }),
  );
  for (const schema of schemas) {
    const validate = compileBodyValidator(schema);
    fc.assert(
      fc.property(fc.oneof(values, fc.array(values, { maxLength: 4 }), values.map((inner) => ({ inner }))), (value) => {
        if (!validate(structuredClone(value))) return;
        const text = JSON.stringify(value);
        assert.deepStrictEqual(parseJson(text, { bounds: jsonBoundsOf(schema) }), parseJson(text));
      }),
      { numRuns: 500 },
    );
  }
});
