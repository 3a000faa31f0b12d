// The effective configuration: every option left out takes its default (the merge queue's are
// those of DESIGN.md §9), `defaults.actions` and `defaults.queue_rule` fill what rules leave
// out, anchors of `shared` are used where they are aliased, and the merge queue receives its
// existing configuration shape plus each rule's conditions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readConfiguration, toMergeQueueConfiguration } from '../../src/domain/configuration/index.ts';
import { defaultMergeQueueConfig } from '../../src/domain/merge-queue/config-defaults.ts';
import { toyConditions } from '../support/toy-conditions.ts';

const lines = (...rows: string[]) => `${rows.join('\n')}\n`;

function effective(text: string) {
  const report = readConfiguration(text, '.mergify.yml', toyConditions);
  assert.deepEqual(report.errors, []);
  assert.ok(report.configuration);
  return report.configuration;
}

test('an empty file is the configuration of a repository never configured: one queue rule, default', () => {
  const configuration = effective('');
  const { conditions, ...queue } = toMergeQueueConfiguration(configuration);
  assert.deepEqual(queue, defaultMergeQueueConfig());
  assert.deepEqual(conditions, { queue_rules: [{ name: 'default', queue_conditions: { and: [] }, merge_conditions: { and: [] } }], priority_rules: [] });
  assert.deepEqual(configuration.merge_protections_settings, { post_comment: true, auto_merge_conditions: null });
  assert.deepEqual([configuration.pull_request_rules, configuration.merge_protections, configuration.commands_restrictions], [[], [], {}]);
  assert.deepEqual(configuration.scopes, { source: null, barrier_files: null });
});

test('defaults.actions supply the options an action leaves out', () => {
  const configuration = effective(lines(
    'defaults:',
    '  actions:',
    '    comment: {message: "Thanks {{ author }}"}',
    '    backport: {labels: [backport], ignore_conflicts: false}',
    'pull_request_rules:',
    '  - name: greet',
    '    conditions: []',
    '    actions:',
    '      comment:',
    '      backport: {branches: [stable], labels: [bp]}',
    '      label: {add: [x]}',
  ));
  assert.deepEqual(configuration.pull_request_rules[0]?.actions, {
    comment: { message: 'Thanks {{ author }}' },
    backport: { labels: ['bp'], ignore_conflicts: false, branches: ['stable'] },
    label: { add: ['x'] },
  });
});

test('defaults.queue_rule supplies the options a queue rule leaves out', () => {
  const configuration = effective(lines(
    'defaults:',
    '  queue_rule: {batch_size: 4, merge_conditions: [check-success=ci], checks_timeout: null, merge_method: rebase}',
    'queue_rules:',
    '  - name: a',
    '  - {name: b, batch_size: 1, checks_timeout: 10 minutes, merge_conditions: []}',
  ));
  assert.deepEqual(configuration.queue_rules.map(({ name, batch_size, checks_timeout, merge_method, merge_conditions }) => ({ name, batch_size, checks_timeout, merge_method, merge_conditions })), [
    { name: 'a', batch_size: 4, checks_timeout: null, merge_method: 'rebase', merge_conditions: { and: ['check-success=ci'] } },
    { name: 'b', batch_size: 1, checks_timeout: 600, merge_method: 'rebase', merge_conditions: { and: [] } },
  ]);
});

test('anchors of shared are used wherever they are aliased', () => {
  const configuration = effective(lines(
    'shared:',
    '  ci: &ci [check-success=build, check-success=test]',
    '  rule: &rule {batch_size: 2, batch_max_wait_time: 1 minute}',
    'queue_rules:',
    '  - name: default',
    '    <<: *rule',
    '    merge_conditions: *ci',
    'merge_protections:',
    '  - name: green',
    '    if: []',
    '    success_conditions: *ci',
  ));
  assert.deepEqual(configuration.queue_rules[0]?.merge_conditions, { and: ['check-success=build', 'check-success=test'] });
  assert.deepEqual([configuration.queue_rules[0]?.batch_size, configuration.queue_rules[0]?.batch_max_wait_time], [2, 60]);
  assert.deepEqual(configuration.merge_protections[0]?.success_conditions, { and: ['check-success=build', 'check-success=test'] });
  assert.equal('shared' in configuration, false, 'shared only held the anchors');
});

test('the merge queue receives its §9 shape (seconds) and, apart, each rule\'s conditions', () => {
  const configuration = effective(lines(
    'merge_queue: {mode: parallel, max_parallel_checks: 8}',
    'queue_rules:',
    '  - {name: fast, queue_conditions: [label=fast], batch_size: {min: 2, max: 6}, batch_max_wait_time: 5 minutes, checks_timeout: null}',
    '  - {name: slow, merge_method: fast-forward}',
    'priority_rules: [{name: urgent, conditions: [label=urgent], priority: low}]',
    'scopes: {source: {manual: null}, barrier_files: {include: [Makefile]}}',
  ));
  const mergeQueue = toMergeQueueConfiguration(configuration);
  assert.deepEqual(mergeQueue.merge_queue, { mode: 'parallel', max_parallel_checks: 8, skip_intermediate_results: false, reset_on_external_merge: 'always' });
  assert.deepEqual(mergeQueue.queue_rules, [
    { name: 'fast', batch_size: { min: 2, max: 6 }, batch_max_wait_time: 300, checks_timeout: 604_800, max_checks_retries: 0, merge_method: 'merge', required_checks: [], branches: [] },
    { name: 'slow', batch_size: 1, batch_max_wait_time: 30, checks_timeout: 3600, max_checks_retries: 0, merge_method: 'fast-forward', required_checks: [], branches: [] },
  ]);
  assert.deepEqual(mergeQueue.priority_rules, [{ name: 'urgent', priority: 'low', labels: [] }]);
  assert.deepEqual(mergeQueue.scopes, { missing: 'wait', wait_seconds: 600, barrier_files: { include: ['Makefile'], exclude: [] } });
  assert.deepEqual(mergeQueue.conditions, {
    queue_rules: [
      { name: 'fast', queue_conditions: { and: ['label=fast'] }, merge_conditions: { and: [] } },
      { name: 'slow', queue_conditions: { and: [] }, merge_conditions: { and: [] } },
    ],
    priority_rules: [{ name: 'urgent', conditions: { and: ['label=urgent'] } }],
  });
});
