// `extends`: which repository to fetch (same owner only, never itself), and the parent's file
// merged under the child's: rules by name, mappings key by key, defaults per option, one level,
// with errors still pointing into the file they came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extendsTarget, mergeExtended, parseConfigurationText, readConfiguration, validateConfiguration, type ParsedDocument } from '../../src/domain/configuration/index.ts';
import { toyConditions } from '../support/toy-conditions.ts';

const lines = (...rows: string[]) => `${rows.join('\n')}\n`;
const here = { owner: 'Acme', repo: 'app' };

function parsed(text: string, path: string): ParsedDocument {
  const result = parseConfigurationText(text, path);
  assert.ok(result.ok);
  return result.document;
}

function merged(parent: string, child: string): ParsedDocument {
  const result = mergeExtended(parsed(parent, 'acme/org-config:.mergify.yml'), parsed(child, '.mergify.yml'));
  assert.ok(result.ok, JSON.stringify(result.ok ? null : result.errors));
  return result.document;
}

test('extends names a repository of the same owner, by name or in full', () => {
  const target = (value: string) => extendsTarget(parsed(`extends: ${value}\n`, 'f.yml'), here);
  assert.deepEqual(target('org-config'), { ok: true, target: { owner: 'Acme', repo: 'org-config' } });
  assert.deepEqual(target('acme/.github'), { ok: true, target: { owner: 'Acme', repo: '.github' } });
  assert.deepEqual(extendsTarget(parsed('queue_rules: []\n', 'f.yml'), here), { ok: true, target: null });
  const refusal = (value: string) => {
    const result = target(value);
    assert.ok(!result.ok, value);
    return `${result.errors[0]?.msg} (line ${result.errors[0]?.line})`;
  };
  assert.equal(refusal('evil/config'), '"evil/config" belongs to another owner: only repositories of Acme can be extended (line 1)');
  assert.equal(refusal('app'), 'a configuration cannot extend its own repository (line 1)');
  assert.match(refusal('a/b/c'), /not a repository name/);
  assert.match(refusal('"bad name"'), /not a repository name/);
  assert.match(refusal('[x]'), /must be the name of a repository/);
  assert.match(readConfiguration('extends: a/b/c\n', 'f.yml', toyConditions).errors[0]?.msg ?? '', /must be a repository name \("name" or "owner\/name"\)/);
});

test('rules merge by name: the child\'s first, then the parent\'s it does not replace', () => {
  const document = merged(
    lines('queue_rules: [{name: default, batch_size: 5}, {name: hotfix}]', 'pull_request_rules: [{name: org-rule, conditions: [], actions: {}}]', 'priority_rules: [{name: p, conditions: [], priority: low}]'),
    lines('queue_rules: [{name: local}, {name: default, batch_size: 2}]', 'extends: org-config'),
  );
  const report = validateConfiguration(document, toyConditions);
  assert.ok(report.configuration);
  assert.deepEqual(report.configuration.queue_rules.map((rule) => [rule.name, rule.batch_size]), [['local', 1], ['default', 2], ['hotfix', 1]]);
  assert.deepEqual(report.configuration.pull_request_rules.map((rule) => rule.name), ['org-rule']);
  assert.deepEqual(report.configuration.priority_rules.map((rule) => rule.priority), ['low']);
  assert.equal(report.configuration.extends, 'org-config');
});

test('mappings merge key by key with the child winning; defaults per action option', () => {
  const document = merged(
    lines('merge_queue: {mode: parallel, max_parallel_checks: 9}', 'commands_restrictions: {queue: {conditions: [a]}, dequeue: {conditions: [b]}}', 'defaults: {actions: {comment: {message: org, bot_account: bot}, label: {add: [org]}}}', 'shared: {x: 1}'),
    lines('merge_queue: {max_parallel_checks: 2}', 'commands_restrictions: {queue: {conditions: [c]}}', 'defaults: {actions: {comment: {message: local}}}', 'pull_request_rules: [{name: r, conditions: [], actions: {comment: null, label: null}}]'),
  );
  assert.equal('shared' in document.value, false, 'anchors belong to each file');
  const configuration = validateConfiguration(document, toyConditions).configuration;
  assert.ok(configuration);
  assert.deepEqual([configuration.merge_queue.mode, configuration.merge_queue.max_parallel_checks], ['parallel', 2]);
  assert.deepEqual(configuration.commands_restrictions, { queue: { conditions: { and: ['c'] } }, dequeue: { conditions: { and: ['b'] } } });
  assert.deepEqual(configuration.pull_request_rules[0]?.actions, { comment: { message: 'local', bot_account: 'bot' }, label: { add: ['org'] } });
});

test('a parent that extends another is refused at its own extends line', () => {
  const result = mergeExtended(parsed(lines('queue_rules: []', 'extends: grandparent'), 'acme/org-config:.mergify.yml'), parsed('extends: org-config\n', '.mergify.yml'));
  assert.ok(!result.ok);
  assert.deepEqual(result.errors.map(({ loc, path, line }) => ({ loc, path, line })), [{ loc: ['extends'], path: 'acme/org-config:.mergify.yml', line: 2 }]);
  assert.match(result.errors[0]?.msg ?? '', /only one level/);
});

test('errors of the merged document point into the file each part came from', () => {
  const parentText = lines('queue_rules:', '  - name: org', '    batch_size: 0');
  const childText = lines('extends: org-config', 'queue_rules:', '  - name: mine', '    colour: red');
  const parent = parsed(parentText, 'acme/org-config:.mergify.yml');
  const child = parsed(childText, '.mergify.yml');
  const result = mergeExtended(parent, child);
  assert.ok(result.ok);
  const report = validateConfiguration(result.document, toyConditions);
  assert.deepEqual(report.errors.map(({ loc, path, line }) => `${path}:${line} ${loc.join('.')}`), ['.mergify.yml:4 queue_rules.0.colour', 'acme/org-config:.mergify.yml:3 queue_rules.1.batch_size']);
  assert.equal((parent.value.queue_rules as unknown[]).length, 1, 'the parent is not changed');
});
