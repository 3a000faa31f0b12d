// How evaluated conditions are shown: the Summary's Markdown checklist (true, false and pending
// told apart, groups nested, labels from the configuration unable to inject Markdown, HTML or
// mentions) and the public JSON of the merge queue's reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateCondition, parseConditions, renderConditionChecklist, toConditionEvaluationResult, type EvaluatedCondition, type PullRequestSnapshot } from '../../src/domain/rules/index.ts';
import { pullSnapshot } from '../support/pull-snapshot.ts';

function evaluate(conditions: unknown[], overrides: Partial<PullRequestSnapshot> = {}, now = '2024-05-03T12:00:00Z'): EvaluatedCondition {
  const parsed = parseConditions(conditions, ['c']);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  return evaluateCondition(parsed.condition, pullSnapshot(overrides), new Date(now));
}

test('the checklist: [X] true, [ ] false, [ ] ⏳ pending with why, groups nested by two spaces', () => {
  const tree = evaluate(
    ['base=main', 'check-success=ci', { or: ['label=ready', { and: ['-draft', '#approved-reviews-by>=2'] }] }, { not: 'conflict' }, 'scope=api'],
    { checks: [{ name: 'ci', state: 'pending' }], conflict: null, scopes: null },
  );
  assert.equal(
    renderConditionChecklist(tree),
    [
      '- [X] `base=main`',
      '- [ ] ⏳ `check-success=ci` [still running]',
      '- [ ] any of:',
      '  - [ ] `label=ready`',
      '  - [ ] all of:',
      '    - [X] `-draft`',
      '    - [ ] `#approved-reviews-by>=2`',
      '- [ ] ⏳ not:',
      "  - [ ] ⏳ `conflict` [the platform has not computed whether it conflicts yet]",
      '- [ ] ⏳ `scope=api` [no scope report arrived yet]',
    ].join('\n'),
  );
});

test('a label can hold backticks, HTML, mentions or line breaks and still shows as written, inert', () => {
  const tree = evaluate(['title=`x` <img src=x onerror=alert(1)> @everyone', 'title~=a``b', 'body=line\n- [X] forged', 'title=`edge`']);
  const lines = renderConditionChecklist(tree).split('\n');
  assert.deepEqual(lines, [
    '- [ ] ``title=`x` <img src=x onerror=alert(1)> @everyone``',
    '- [ ] ```title~=a``b```',
    '- [ ] `body=line - [X] forged`',
    '- [ ] `` title=`edge` ``',
  ]);
});

test('descriptions are escaped and cannot mention anyone', () => {
  const tree = evaluate(['approved-reviews-by=@ghost'], { reviews: [{ author: 'bob', state: 'APPROVED' }], teamMembers: new Map([['acme/ghost', null]]) });
  assert.equal(renderConditionChecklist(tree), '- [ ] `approved-reviews-by=@ghost` [team @\u200bacme/ghost not found]');
});

test('a tree that is not a list shows itself as the first line', () => {
  const parsed = parseConditions([{ or: ['base=main', 'base=dev'] }], ['c']);
  assert.ok(parsed.ok && parsed.condition.kind === 'all');
  const tree = evaluateCondition(parsed.condition.conditions[0]!, pullSnapshot(), new Date());
  assert.equal(renderConditionChecklist(tree), '- [X] any of:\n  - [X] `base=main`\n  - [ ] `base=dev`');
});

test('the public JSON: pending does not match and says so; not has its one subcondition; a schedule has its days', () => {
  const tree = evaluate(['check-success=ci', { not: 'draft' }, 'schedule=Mon-Fri 09:00-17:30[Europe/Paris]', { or: ['label=x', 'check-success=ci'] }], {});
  const json = toConditionEvaluationResult(tree);
  assert.deepEqual({ ...json, subconditions: json.subconditions.length }, {
    match: false, label: 'all of', description: 'pending', documentation_url: null, schedule: null, subconditions: 4, evaluations: [],
  });
  const [check, not, schedule, or] = json.subconditions;
  assert.deepEqual(check, { match: false, label: 'check-success=ci', description: 'not reported yet', documentation_url: null, schedule: null, subconditions: [], evaluations: [] });
  assert.deepEqual([not!.match, not!.label, not!.subconditions.map((child) => [child.label, child.match])], [true, 'not', [['draft', false]]]);
  const range = { start_at: { hour: 9, minute: 0 }, end_at: { hour: 17, minute: 30 } };
  assert.deepEqual(schedule!.schedule, {
    timezone: 'Europe/Paris',
    days: { monday: { times: [range] }, tuesday: { times: [range] }, wednesday: { times: [range] }, thursday: { times: [range] }, friday: { times: [range] }, saturday: { times: [] }, sunday: { times: [] } },
  });
  assert.equal(schedule!.match, true);
  assert.deepEqual([or!.match, or!.label, or!.description], [false, 'any of', 'pending']);
});

test('a schedule of days alone spans whole days; of hours alone, every day', () => {
  const days = toConditionEvaluationResult(evaluate(['schedule=Sat-Sun'])).subconditions[0]!.schedule!;
  assert.deepEqual([days.timezone, days.days.saturday, days.days.monday], ['UTC', { times: [{ start_at: { hour: 0, minute: 0 }, end_at: { hour: 23, minute: 59 } }] }, { times: [] }]);
  const hours = toConditionEvaluationResult(evaluate(['schedule=22:00-23:00[Asia/Tokyo]'])).subconditions[0]!.schedule!;
  assert.deepEqual(Object.values(hours.days).map((day) => day.times.length), [1, 1, 1, 1, 1, 1, 1]);
});
