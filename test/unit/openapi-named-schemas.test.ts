// The API document's schema naming (src/http/openapi/named-schemas.ts): titled and recursive
// schemas become components referred to by #/components pointers; data is never mistaken for a
// schema; two different schemas under one name stop the build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { componentName, nameSchemas, SchemaNameConflict } from '../../src/http/openapi/named-schemas.ts';
import { ConditionEvaluationResult } from '../../src/domain/events/shapes/condition-evaluation-result.ts';
import { Int64 } from '../../src/domain/int64.ts';

const json = (value: unknown) => JSON.parse(JSON.stringify(value));
const at = (schema: unknown) => ({ '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } });
const schemaOf = (paths: Record<string, any>) => paths['/x'].get.responses[200].content['application/json'].schema;

test('a titled schema becomes a component, once however often it is used', () => {
  const Actor = Type.Object({ name: Type.String() }, { title: 'Actor' });
  const { paths, schemas } = nameSchemas(at(Type.Object({ by: Actor, for: Actor })));
  assert.deepEqual(json(schemaOf(paths).properties), { by: { $ref: '#/components/schemas/Actor' }, for: { $ref: '#/components/schemas/Actor' } });
  assert.deepEqual(Object.keys(schemas), ['Actor']);
  assert.equal(schemas.Actor && (schemas.Actor as { title: string }).title, 'Actor');
});

test('a recursive schema refers to its component, and carries no $id', () => {
  const { schemas } = nameSchemas(at(ConditionEvaluationResult));
  const text = JSON.stringify(schemas);
  assert.doesNotMatch(text, /"\$id"/);
  assert.match(text, /"subconditions":\{"type":"array","items":\{"\$ref":"#\/components\/schemas\/ConditionEvaluationResult"\}/);
  assert.ok(schemas.ConditionEvaluation, 'nested titled schemas are named too');
});

test('examples, enums and defaults are data: a "title" in them names nothing', () => {
  const schema = Type.Object({ title: Type.String() }, { examples: [{ title: 'CI', type: 'object' }] });
  const { paths, schemas } = nameSchemas(at(schema));
  assert.deepEqual(schemas, {});
  assert.deepEqual(json(schemaOf(paths).examples), [{ title: 'CI', type: 'object' }]);
});

test('titles that are not component names are written in PascalCase', () => {
  assert.equal(componentName('Event action.queue.checks_end'), 'EventActionQueueChecksEnd');
  assert.equal(componentName('ProductList'), 'ProductList');
});

test('two different schemas under one name stop the build, naming it', () => {
  const one = Type.Object({ a: Type.String() }, { title: 'Thing' });
  const other = Type.Object({ b: Type.String() }, { title: 'Thing' });
  assert.throws(() => nameSchemas(at(Type.Object({ one, other }))), (error: Error) => error instanceof SchemaNameConflict && /Thing/.test(error.message));
});

test('an int64 keeps its format and drops the maximum a JSON reader would round out of range', () => {
  const { paths } = nameSchemas(at(Int64({ examples: [42] })));
  assert.deepEqual(json(schemaOf(paths)), { type: 'integer', format: 'int64', minimum: 0, examples: [42] });
});
