// A pull request's rules as the API answers them, from what the rules engine stored as JSON:
// the same answer as from the evaluation itself (instants and schedules survive the round trip),
// pending told apart from false on every node, and a stored row of another shape read as far as
// it can be, never a throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConditions } from '../../src/domain/rules/index.ts';
import { evaluateRules, type RuleInput } from '../../src/domain/rules/rules-report.ts';
import { pullRulesReport } from '../../src/domain/rules/pull-rules-report.ts';
import { readEvaluatedCondition, readStoredSummary } from '../../src/domain/rules/stored-rule-results.ts';
import { pullSnapshot } from '../support/pull-snapshot.ts';

function rule(name: string, conditions: unknown[], disabledReason: string | null = null): RuleInput {
  const parsed = parseConditions(conditions, ['c']);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  return { section: 'pull_request_rules', name, condition: parsed.condition, disabledReason, does: ['comment'] };
}

const NOW = new Date('2024-05-03T12:00:00Z');
const RULES = [
  rule('checks', ['base=main', 'check-success=ci', { or: ['label=ready', { not: 'draft' }] }, 'schedule=Mon-Fri 09:00-17:30[Europe/Paris]', 'created-at<1 day ago']),
  rule('elsewhere', ['base=release']),
  rule('off', ['label=x'], 'uses github-review-decision, which Switchyard does not evaluate'),
];

test('read back from JSON, the answer is the one of the evaluation itself', () => {
  const evaluation = evaluateRules(RULES, pullSnapshot({ checks: [{ name: 'ci', state: 'pending' }] }), NOW);
  const summary = { title: 'some title', results: evaluation.results };
  const direct = pullRulesReport(7n, { headSha: 'abc', evaluatedAt: NOW, summary });
  const stored = readStoredSummary(JSON.parse(JSON.stringify(summary)));
  assert.ok(stored);
  assert.deepEqual(pullRulesReport(7n, { headSha: 'abc', evaluatedAt: NOW, summary: stored }), direct);
  const [checks, elsewhere, off] = direct.rules;
  assert.deepEqual([checks!.match, checks!.conditions!.state, checks!.conditions!.match], ['pending', 'pending', false]);
  assert.deepEqual(checks!.conditions!.subconditions.map((node) => node.state), ['true', 'pending', 'true', 'true', 'true']);
  assert.equal(checks!.conditions!.subconditions[3]!.schedule?.timezone, 'Europe/Paris');
  assert.deepEqual([elsewhere!.match, elsewhere!.applicable], ['false', false]);
  assert.deepEqual([off!.conditions, off!.disabled_reason], [null, 'uses github-review-decision, which Switchyard does not evaluate']);
  assert.equal(direct.evaluated_at, '2024-05-03T12:00:00.000Z');
});

test('a stored row of another shape: what does not read is left out, nothing throws', () => {
  assert.equal(readStoredSummary(null), null);
  assert.equal(readStoredSummary({ title: 3, results: [] }), null);
  const stored = readStoredSummary({
    title: 't',
    results: [
      { name: 'kept', section: 'queue_rules', match: 'true', tree: { kind: 'leaf', match: 'true', label: 'base=main', attribute: 'base', description: null, schedule: null, nextChangeAt: 'not a date' } },
      { name: 'bad tree', section: 'pull_request_rules', match: 'false', tree: { kind: 'all', match: 'false', label: 'all of', conditions: [{ kind: 'leaf', match: 'maybe' }] } },
      { name: 'unknown section', section: 'elsewhere', match: 'true', tree: null },
      'not a rule',
    ],
  });
  assert.deepEqual(stored?.results.map((result) => [result.name, result.tree?.kind ?? null]), [['kept', 'leaf'], ['bad tree', null]]);
  assert.equal(stored!.results[0]!.tree!.nextChangeAt, null);
  let deep: unknown = { kind: 'leaf', match: 'true', label: 'x', attribute: 'base', description: null, schedule: null, nextChangeAt: null };
  for (let i = 0; i < 10_000; i++) deep = { kind: 'not', match: 'true', label: 'not', condition: deep, description: null, nextChangeAt: null };
  assert.equal(readEvaluatedCondition(deep, 0), null, 'a tree deeper than the grammar makes is refused, not walked');
});
