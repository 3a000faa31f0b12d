// Checking a file against the public vocabulary: unknown keys and invalid values are errors at
// their line; options of the public schema Switchyard does not implement are accepted and listed
// as not supported; conditions go through the injected parser with their errors located.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { readConfiguration, type ConditionParser, type ConfigurationReport } from '../../src/domain/configuration/index.ts';
import { toyConditions, type ToyCondition } from '../support/toy-conditions.ts';

const read = (text: string, parser: ConditionParser<ToyCondition> = toyConditions) => readConfiguration(text, '.mergify.yml', parser);
const lines = (...rows: string[]) => `${rows.join('\n')}\n`;

/** The errors as `loc (line N): msg`, in document order. */
function errors(report: ConfigurationReport<unknown>): string[] {
  assert.equal(report.valid, false);
  assert.equal(report.configuration, null, 'an invalid file yields no configuration');
  return report.errors.map((error) => `${error.loc.join('.')} (line ${error.line}): ${error.msg}`);
}

function valid<C>(report: ConfigurationReport<C>) {
  assert.deepEqual(report.errors, []);
  assert.ok(report.valid && report.configuration);
  return report.configuration;
}

test('an unknown key is an error naming its location and line, with the nearest option suggested', () => {
  const report = read(lines('queue_rules:', '  - name: default', '    batch_sise: 2', 'merge_queue:', '  mode: serial', 'colour: blue'));
  assert.deepEqual(errors(report), [
    'queue_rules.0.batch_sise (line 3): Unknown key "batch_sise": did you mean "batch_size"?',
    'colour (line 6): Unknown key "colour"',
  ]);
});

test('an invalid value is an error at its line saying what is expected', () => {
  const report = read(lines('merge_queue:', '  mode: sequential', '  max_parallel_checks: 500', 'queue_rules:', '  - name: a', '    batch_size: {min: 5, max: 2}', '  - batch_size: 1', '    merge_method: octopus'));
  assert.deepEqual(errors(report), [
    'merge_queue.mode (line 2): must be one of "serial", "parallel", "isolated", not the text "sequential"',
    'merge_queue.max_parallel_checks (line 3): must be an integer from 1 to 128; 500 is out of range',
    'queue_rules.0.batch_size (line 6): min (5) must not exceed max (2)',
    'queue_rules.1.merge_method (line 8): must be one of "merge", "rebase", "squash", "fast-forward", "merge-batch", not the text "octopus"',
    'queue_rules.1.name (line 7): "name" is required',
  ]);
});

test('options of the public schema Switchyard does not implement are accepted and listed, never dropped silently', () => {
  const report = read(lines(
    'queue_rules:',
    '  - name: default',
    '    autosquash: true',
    '    queue_branch_prefix: mq/',
    '    commit_message_format: {body: pr-body}',
    'merge_queue:',
    '  queued_label: queued',
    '  status_comments: none',
    'priority_rules:',
    '  - name: p',
    '    conditions: []',
    '    allow_checks_interruption: true',
    'scopes:',
    '  merge_queue_scope: mq',
    '  capacities: {web: 2}',
    'merge_protections_settings:',
    '  reporting_method: deployments',
    'commands_restrictions:',
    '  requeue: {conditions: []}',
  ));
  valid(report);
  assert.deepEqual(report.notSupported, [
    'queue_rules[0].autosquash',
    'queue_rules[0].queue_branch_prefix',
    'queue_rules[0].commit_message_format',
    'merge_queue.queued_label',
    'merge_queue.status_comments',
    'priority_rules[0].allow_checks_interruption',
    'scopes.merge_queue_scope',
    'scopes.capacities',
    // Read and checked, but not acted on yet: the whole sections are listed.
    'merge_protections_settings',
    'commands_restrictions',
  ]);
});

test('public values read differently are listed with the value: merge-batch, checks_timeout auto, integer priorities', () => {
  const report = read(lines('queue_rules:', '  - name: a', '    merge_method: merge-batch', '    checks_timeout: auto', 'priority_rules:', '  - {name: p, conditions: [], priority: 2600}', '  - {name: q, conditions: [], priority: 1000}'));
  const configuration = valid(report);
  assert.deepEqual(report.notSupported, ['queue_rules[0].merge_method=merge-batch', 'queue_rules[0].checks_timeout=auto', 'priority_rules[0].priority=2600']);
  assert.equal(configuration.queue_rules[0]?.merge_method, 'merge');
  assert.equal(configuration.queue_rules[0]?.checks_timeout, 3600);
  assert.deepEqual(configuration.priority_rules.map((rule) => rule.priority), ['high', 'low']);
  assert.deepEqual(errors(read(lines('priority_rules:', '  - {name: p, conditions: [], priority: 10001}'))), ['priority_rules.0.priority (line 2): must be an integer from 1 to 10000; 10001 is out of range']);
});

test('every action of pull_request_rules is validated by its public options and listed as not supported', () => {
  const report = read(lines(
    'pull_request_rules:',
    '  - name: tidy',
    '    conditions: [base=main]',
    '    actions:',
    '      label: {add: [ready], toggle: [wip]}',
    '      comment:',
    '      backport: {branches: [stable], ignore_conflicts: false}',
    '      post_check: {success_conditions: [label=ok]}',
    '      github_actions: {workflow: {dispatch: [{workflow: ci.yml, inputs: {n: 1}}]}}',
  ));
  valid(report);
  assert.deepEqual(report.notSupported, ['label', 'comment', 'backport', 'post_check', 'github_actions'].map((name) => `pull_request_rules[0].actions.${name}`));
  assert.deepEqual(errors(read(lines('pull_request_rules:', '  - name: x', '    conditions: []', '    actions:', '      teleport: {}', '      label: {add: ready}', '      review: {type: LOVE}'))), [
    'pull_request_rules.0.actions.teleport (line 5): Unknown key "teleport"',
    'pull_request_rules.0.actions.label.add (line 6): must be a list, not the text "ready"',
    'pull_request_rules.0.actions.review.type (line 7): must be one of "APPROVE", "REQUEST_CHANGES", "COMMENT", not the text "LOVE"',
  ]);
});

test('each implemented section is read into the effective configuration', () => {
  const configuration = valid(read(lines(
    'queue_rules:',
    '  - name: hotfix',
    '    queue_conditions: [label=hotfix]',
    '    merge_conditions: [check-success=ci]',
    '    batch_size: 3',
    '    batch_max_wait_time: 2 minutes',
    '    checks_timeout: 1 hour',
    '    max_checks_retries: 2',
    '    merge_method: squash',
    '  - name: legacy',
    '    queue_branch_merge_method: fast-forward',
    '    checks_timeout: null',
    'priority_rules: [{name: urgent, conditions: [label=urgent], priority: high}]',
    'merge_queue: {mode: isolated, max_parallel_checks: 3, skip_intermediate_results: true, reset_on_external_merge: never}',
    'scopes:',
    '  source: {files: {web: {include: ["web/**"], exclude: ["**/*.md"]}}}',
    '  barrier_files: {include: [Makefile]}',
    'merge_protections:',
    '  - {name: reviewed, description: two eyes, if: [base=main], success_conditions: ["#approved-reviews-by>=1"]}',
    'merge_protections_settings: {post_comment: false, auto_merge_conditions: true}',
    'commands_restrictions: {queue: {conditions: [sender-permission>=maintain]}}',
    'pull_request_rules:',
    '  - {name: off, conditions: [], actions: {}, disabled: {reason: later}, description: parked}',
    'extends: org-config',
  )));
  assert.deepEqual(configuration.queue_rules, [
    { name: 'hotfix', queue_conditions: { and: ['label=hotfix'] }, merge_conditions: { and: ['check-success=ci'] }, batch_size: 3, batch_max_wait_time: 120, checks_timeout: 3600, max_checks_retries: 2, merge_method: 'squash' },
    { name: 'legacy', queue_conditions: { and: [] }, merge_conditions: { and: [] }, batch_size: 1, batch_max_wait_time: 30, checks_timeout: null, max_checks_retries: 0, merge_method: 'fast-forward' },
  ]);
  assert.deepEqual(configuration.priority_rules, [{ name: 'urgent', conditions: { and: ['label=urgent'] }, priority: 'high' }]);
  assert.deepEqual(configuration.merge_queue, { mode: 'isolated', max_parallel_checks: 3, skip_intermediate_results: true, reset_on_external_merge: 'never' });
  assert.deepEqual(configuration.scopes, { source: { files: { web: { include: ['web/**'], exclude: ['**/*.md'] } } }, barrier_files: { include: ['Makefile'], exclude: [] } });
  assert.deepEqual(configuration.merge_protections, [{ name: 'reviewed', description: 'two eyes', if: { and: ['base=main'] }, success_conditions: { and: ['#approved-reviews-by>=1'] } }]);
  assert.deepEqual(configuration.merge_protections_settings, { post_comment: false, auto_merge_conditions: { and: [] } });
  assert.deepEqual(configuration.commands_restrictions, { queue: { conditions: { and: ['sender-permission>=maintain'] } } });
  assert.deepEqual(configuration.pull_request_rules, [{ name: 'off', description: 'parked', conditions: { and: [] }, actions: {}, disabled: { reason: 'later' } }]);
  assert.equal(configuration.extends, 'org-config');
});

test('conditions go through the injected parser; its errors join the others at their place and line', () => {
  const report = read(lines('queue_rules:', '  - name: a', '    merge_conditions:', '      - check-success=ci', '      - or: [label=x, bogus-attr=1]', 'priority_rules:', '  - {name: p, conditions: label=urgent}'));
  assert.deepEqual(errors(report), [
    'queue_rules.0.merge_conditions.1.or.1 (line 5): unknown attribute in "bogus-attr=1"',
    'priority_rules.0.conditions (line 7): must be a list of conditions (or true), not the text "label=urgent"',
  ]);
  // A parser may also give locations from the top of the document; they are kept as they are.
  const absolute: ConditionParser<null> = (raw, loc) => ({ ok: false, errors: [{ loc: [...loc, 0], msg: 'no' }] });
  assert.deepEqual(readConfiguration(lines('queue_rules: [{name: a, queue_conditions: [x]}]'), 'f.yml', absolute).errors.map((error) => error.loc), [['queue_rules', 0, 'queue_conditions', 0]]);
  const throwing: ConditionParser<null> = () => {
    throw new Error('parser bug');
  };
  assert.match(readConfiguration(lines('priority_rules: [{name: a, conditions: [x]}]'), 'f.yml', throwing).errors[0]?.msg ?? '', /could not be read: parser bug/);
});

test('rule names are unique per list, and the lists are capped', () => {
  assert.deepEqual(errors(read(lines('queue_rules:', '  - name: a', '  - name: b', '  - name: a'))), ['queue_rules.2.name (line 4): rule names must be unique: "a" is already the name of item 0']);
  const many = Array.from({ length: 51 }, (_, index) => `  - name: r${index}`);
  assert.deepEqual(errors(read(lines('queue_rules:', ...many))), ['queue_rules (line 1): must hold at most 50 items; it holds 51']);
  const rules = Array.from({ length: 201 }, (_, index) => `  - {name: r${index}, conditions: [], actions: {}}`);
  assert.match(errors(read(lines('pull_request_rules:', ...rules)))[0] ?? '', /at most 200 items/);
  const conditions = Array.from({ length: 501 }, () => '"label=x"').join(', ');
  assert.match(errors(read(lines(`priority_rules: [{name: p, conditions: [${conditions}]}]`)))[0] ?? '', /at most 500 conditions/);
});

test('errors in an anchor point at the anchor in shared, and the report lists at most 100 errors', () => {
  const report = read(lines('shared:', '  checks: &checks', '    - bogus-check', 'queue_rules:', '  - name: a', '    merge_conditions: *checks'));
  assert.deepEqual(errors(report), ['queue_rules.0.merge_conditions.0 (line 3): unknown attribute in "bogus-check"']);
  const rules = Array.from({ length: 150 }, (_, index) => `  - {name: r${index}, colour: red}`);
  const many = errors(read(lines('priority_rules:', ...rules.slice(0, 50), 'queue_rules:', ...rules.slice(50, 100), 'merge_protections:', ...rules.slice(100))));
  assert.equal(many.length, 101);
  assert.match(many[100] ?? '', /more errors not shown/);
});

test('any document made of the vocabulary\'s words is either valid or has located errors, never a crash', () => {
  const words = ['queue_rules', 'name', 'batch_size', 'min', 'max', 'merge_conditions', 'conditions', 'actions', 'label', 'add', 'priority', 'pull_request_rules', 'merge_queue', 'mode', 'scopes', 'source', 'files', 'defaults', 'queue_rule', 'checks_timeout', 'extends', 'shared', 'and', 'or', 'not'];
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, fc.constantFrom('a', 'high', '1 hour', 'auto', 'merge', true, null, 0, 3, -1, 1e9, 2.5), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...words), tie('node'), { maxKeys: 4 })),
  })).node;
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom(...words), value, { maxKeys: 5 }), (document) => {
      const report = read(stringify(document));
      assert.equal(report.valid, report.errors.length === 0);
      assert.equal(report.valid, report.configuration !== null);
      for (const error of report.errors) assert.ok(error.msg.length > 0 && Array.isArray(error.loc));
    }),
    { numRuns: 600 },
  );
});
