// docs/events.md and the catalogue agree in both directions: every type is documented with the
// outcome rule the code applies, and the docs name no type the code does not know.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EVENT_TYPES, eventCatalogue, type EventType } from '../../src/domain/events/index.ts';

const doc = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
const rows = new Map(
  [...doc.matchAll(/^\| `([a-z_.]+)` \| (.+?) \| (\w+) \|$/gm)].map((match) => [match[1], { outcome: match[2], schema: match[3] }]),
);

test('the docs table lists exactly the 46 types', () => {
  assert.deepEqual([...rows.keys()].sort(), [...EVENT_TYPES].sort());
});

test('each documented outcome rule and schema is the one the catalogue applies', () => {
  for (const type of EVENT_TYPES) {
    const row = rows.get(type)!;
    const { outcome, metadata } = eventCatalogue[type as EventType];
    const expected = outcome.kind === 'fixed' ? outcome.outcome : `from metadata: ${outcome.description}`;
    assert.equal(row.outcome, expected, type);
    assert.equal(row.schema, metadata.title, type);
  }
});
