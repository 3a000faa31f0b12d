// The conditions against the public documents (read beside the repository, never copied into it;
// skipped without them): the attribute table lists exactly the public attributes with their
// operators and modifiers, apart from the deviations named below, and evaluated trees have the
// shape of the public `QueueConditionEvaluationJsonSerialized`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ATTRIBUTE_SPECS, evaluateCondition, parseConditions, toConditionEvaluationResult, type AttributeName } from '../../src/domain/rules/index.ts';
import { publicReferenceAvailable, publicShapeProblem, referenceMissing } from '../support/public-reference.ts';
import { pullSnapshot } from '../support/pull-snapshot.ts';

const CONFIG_SCHEMA = process.env.SWITCHYARD_REFERENCE_DIR
  ? `${process.env.SWITCHYARD_REFERENCE_DIR}/mergify-config-schema.json`
  : fileURLToPath(new URL('../../../shared/reference/mergify-config-schema.json', import.meta.url));

interface PublicAttribute {
  'x-allowed-operators'?: string[];
  'x-modifiers'?: { type: string; required?: boolean }[];
}

/**
 * Where Switchyard departs from the public schema on purpose: line counts are numbers (the schema
 * lists text operators though its descriptions say "only usable as #"), and `check` and
 * `co-authors`, listed without operators, take those of the other lists.
 */
const DEVIATIONS: AttributeName[] = ['added-lines', 'deleted-lines', 'modified-lines', 'check', 'co-authors'];

test('the attribute table covers exactly the public attributes, with their operators and modifiers', { skip: existsSync(CONFIG_SCHEMA) ? false : `no ${CONFIG_SCHEMA} (set SWITCHYARD_REFERENCE_DIR)` }, () => {
  const schema = JSON.parse(readFileSync(CONFIG_SCHEMA, 'utf8')) as { $defs: { PullRequestAttributes: { properties: Record<string, PublicAttribute> } } };
  const attributes = schema.$defs.PullRequestAttributes.properties;
  assert.deepEqual(Object.keys(ATTRIBUTE_SPECS).sort(), Object.keys(attributes).sort());
  for (const [name, attribute] of Object.entries(attributes) as [AttributeName, PublicAttribute][]) {
    if (DEVIATIONS.includes(name)) continue;
    const spec = ATTRIBUTE_SPECS[name];
    const modifiers = attribute['x-modifiers'] ?? [];
    assert.deepEqual([...spec.operators].sort(), [...(attribute['x-allowed-operators'] ?? [])].sort(), `${name} operators`);
    assert.equal(spec.negate, modifiers.some((modifier) => modifier.type === 'negate'), `${name} -`);
    const length = modifiers.find((modifier) => modifier.type === 'length');
    assert.equal(spec.length, length ? (length.required ? 'required' : 'yes') : 'no', `${name} #`);
  }
});

test('evaluated trees have the public shape', { skip: publicReferenceAvailable ? false : referenceMissing || true }, () => {
  const parsed = parseConditions(['base=main', 'check-success=ci', { or: ['label=a', { not: 'draft' }] }, 'schedule=Mon-Fri 09:00-17:30[Europe/Paris]'], ['c']);
  assert.ok(parsed.ok);
  const json = toConditionEvaluationResult(evaluateCondition(parsed.condition, pullSnapshot(), new Date('2024-05-03T12:00:00Z')));
  assert.equal(publicShapeProblem('QueueConditionEvaluationJsonSerialized', json), undefined);
});
