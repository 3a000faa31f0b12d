// The catalogue accepts a realistic event of every type, and its schemas are strict everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';
import { EVENT_TYPES, eventCatalogue, metadataSchemas, validateIngestEvents } from '../../src/domain/events/index.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

const NOW = new Date('2024-10-01T12:00:00.000Z');

test('the catalogue has exactly the 46 types of the spec', () => {
  assert.equal(EVENT_TYPES.length, 46);
  assert.equal(new Set(EVENT_TYPES).size, 46);
  assert.deepEqual(Object.keys(eventCatalogue).sort(), [...EVENT_TYPES].sort());
  assert.deepEqual(Object.keys(metadataSchemas).sort(), [...EVENT_TYPES].sort());
});

for (const type of EVENT_TYPES) {
  test(`a valid ${type} event is accepted`, () => {
    const result = validateIngestEvents([exampleEvent(type)], NOW);
    assert.deepEqual(result.ok ? [] : result.issues, []);
    assert.equal(result.ok && result.events[0]!.type, type);
  });
}

/** Every object node of a schema, with its path, whatever the nesting (anyOf, items, $defs...). */
function* objectNodes(node: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* objectNodes(item, `${path}/${index}`);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.type === 'object') yield [path, schema];
  for (const [key, value] of Object.entries(schema)) yield* objectNodes(value, `${path}/${key}`);
}

test('every metadata object refuses unknown keys, except the two free-form maps of the reference', () => {
  const open: string[] = [];
  for (const type of EVENT_TYPES) {
    for (const [path, schema] of objectNodes(metadataSchemas[type] as TSchema, type)) {
      if (schema.additionalProperties !== false) open.push(path);
    }
  }
  assert.deepEqual([...new Set(open.map((path) => path.replace(/^[^/]+/, '')))].sort(), [
    '/properties/conditions_evaluation/anyOf/0/properties/schedule/anyOf/0',
    '/properties/inputs',
  ]);
});

test('every metadata schema carries a title for the documentation', () => {
  for (const type of EVENT_TYPES) assert.match(String((metadataSchemas[type] as TSchema).title), /Metadata$/, type);
});
