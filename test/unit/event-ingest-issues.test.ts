// Fields that may take several shapes (nullable values, actor ids, condition matches, nested
// freeze conditions) are reported against the shape the producer evidently meant, not as a list
// of every alternative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateIngestEvents, type IngestEventInput } from '../../src/domain/events/index.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

const NOW = new Date('2024-10-01T12:00:00.000Z');

function located(event: IngestEventInput): [(string | number)[], string][] {
  const result = validateIngestEvents([event], NOW);
  assert.equal(result.ok, false);
  return result.ok ? [] : result.issues.map((issue) => [issue.loc.slice(4), issue.type]);
}

test('a condition match is judged as the kind it looks like', () => {
  const event = exampleEvent('ci_insights.job_retried');
  event.metadata.condition_matches = [
    { attribute: 'job', matched_value: 'e2e', source: 'annotation', annotation_title: 3, annotation_path: 'ci.yml' },
    { attribute: 'job' },
  ];
  assert.deepEqual(located(event), [
    [['condition_matches', 0, 'annotation_title'], 'type_error'],
    [['condition_matches', 1, 'matched_value'], 'missing'],
  ]);
});

test('an actor id is an integer or a uuid; a negative number is a bad integer', () => {
  const event = exampleEvent('product.enabled');
  (event.metadata.enabled_by as Record<string, unknown>).id = -5;
  assert.deepEqual(located(event), [[['enabled_by', 'id'], 'int_parsing']]);
});

test('a nullable object with a bad field is reported at that field', () => {
  const event = exampleEvent('test.quarantined');
  event.metadata.quarantined_by = { type: 'robot', id: 1, name: 'x' };
  assert.deepEqual(located(event), [[['quarantined_by', 'type'], 'enum']]);
});

test('nested freeze conditions are checked at any depth', () => {
  const event = exampleEvent('scheduled_freeze.create');
  const attributes = event.metadata.scheduled_freeze_attributes as Record<string, unknown>;
  attributes.matching_conditions = ['base=main', { or: ['label=a', { not: { nand: [] } }] }];
  assert.deepEqual(located(event), [[['scheduled_freeze_attributes', 'matching_conditions', 1, 'or', 1, 'not', 'nand'], 'extra_forbidden']]);
});

test('a recursive condition evaluation is checked at any depth', () => {
  const event = exampleEvent('action.queue.leave');
  const evaluation = { match: true, label: 'all of', is_label_user_input: false, description: null, attribute_name: null, operator: null, schedule: null, evaluations: [] };
  event.metadata.conditions_evaluation = { ...evaluation, subconditions: [{ ...evaluation, subconditions: [], match: 'yes' }] };
  assert.deepEqual(located(event), [[['conditions_evaluation', 'subconditions', 0, 'match'], 'type_error']]);
});
