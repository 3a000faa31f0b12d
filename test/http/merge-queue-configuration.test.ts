// The merge-queue configuration through HTTP (DESIGN.md §9): defaults for a repository never
// configured, a round trip with every default filled in, a 422 naming each invalid option with
// nothing written, the public queues/configuration shape, who may read and write it, and the
// executor told of each change.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { publicReferenceAvailable, publicShapeProblem } from '../support/public-reference.ts';
import { readMergeQueueConfig } from '../../src/services/merge-queue/controls.ts';

const CONFIG = '/v1/repos/acme/widgets/merge-queue/configuration';
const DEFAULT_RULE = { name: 'default', batch_size: 1, batch_max_wait_time: 30, checks_timeout: 3600, max_checks_retries: 0, merge_method: 'merge', required_checks: [], branches: [] };
const DEFAULTS = {
  merge_queue: { mode: 'serial', max_parallel_checks: 5, skip_intermediate_results: false, reset_on_external_merge: 'always' },
  queue_rules: [DEFAULT_RULE],
  priority_rules: [],
  scopes: { missing: 'wait', wait_seconds: 600 },
};

/** A rule's options without its name: the `config` of the public QueueRule. */
function optionsOf(rule: { name: string }): Record<string, unknown> {
  const { name: _name, ...options } = rule;
  return options;
}

for (const backend of await backends()) {
  describe(`merge-queue configuration (${backend})`, () => {
    let t: TestApp;
    let adminKey: string;
    const changes: string[] = [];
    let widgetsId = '';

    before(async () => {
      t = await startTestApp(backend, undefined, { onQueueChanged: (id) => changes.push(id) });
      for (const name of ['widgets', 'gadgets']) assert.equal((await t.request('PUT', `/v1/admin/repos/acme/${name}`)).status, 201);
      widgetsId = (await t.store.repositories.find('acme', 'widgets'))!.id;
      adminKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'admin', name: 'admin' } })).json.key;
      t.hosting.users.set('hosting-admin', { login: 'alice', id: 1, repos: { 'acme/widgets': { admin: true, pull: true } } });
      t.hosting.users.set('hosting-reader', { login: 'bob', id: 2, repos: { 'acme/widgets': { admin: false, pull: true } } });
    });
    after(() => t.close());

    test('a repository never configured answers every default: a serial queue with one rule, default', async () => {
      const answer = await t.request('GET', '/v1/repos/acme/gadgets/merge-queue/configuration');
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json, DEFAULTS);
      const queues = await t.request('GET', '/v1/repos/acme/gadgets/queues/configuration');
      assert.deepEqual(queues.json, { configuration: [{ name: 'default', config: optionsOf(DEFAULT_RULE) }] });
    });

    test('a PUT stores the configuration, answers it with the defaults filled in, and GET reads it back', async () => {
      const body = {
        merge_queue: { mode: 'parallel', max_parallel_checks: 8 },
        queue_rules: [
          { name: 'hotfix', branches: ['main'], batch_size: { min: 2, max: 6 }, merge_method: 'fast-forward', required_checks: ['ci/build', 'ci/test'] },
          { name: 'default', checks_timeout: 60, batch_max_wait_time: 0, max_checks_retries: 2 },
        ],
        priority_rules: [{ name: 'urgent', priority: 'high', labels: ['p0'] }],
        scopes: { missing: 'barrier', wait_seconds: 120, barrier_files: { include: ['.github/workflows/**'], exclude: ['*.md'] } },
      };
      const put = await t.request('PUT', CONFIG, { token: adminKey, body });
      assert.equal(put.status, 200, put.text);
      const expected = {
        merge_queue: { mode: 'parallel', max_parallel_checks: 8, skip_intermediate_results: false, reset_on_external_merge: 'always' },
        queue_rules: [
          { name: 'hotfix', batch_size: { min: 2, max: 6 }, batch_max_wait_time: 30, checks_timeout: 3600, max_checks_retries: 0, merge_method: 'fast-forward', required_checks: ['ci/build', 'ci/test'], branches: ['main'] },
          { name: 'default', batch_size: 1, batch_max_wait_time: 0, checks_timeout: 60, max_checks_retries: 2, merge_method: 'merge', required_checks: [], branches: [] },
        ],
        priority_rules: [{ name: 'urgent', priority: 'high', labels: ['p0'] }],
        scopes: { missing: 'barrier', wait_seconds: 120, barrier_files: { include: ['.github/workflows/**'], exclude: ['*.md'] } },
      };
      assert.deepEqual(put.json, expected);
      assert.deepEqual((await t.request('GET', CONFIG)).json, expected);
      assert.deepEqual(await readMergeQueueConfig(t.store, widgetsId), expected, 'the planner reads the same');
      assert.deepEqual(changes.at(-1), widgetsId, 'the executor is told');

      const queues = await t.request('GET', '/v1/repos/ACME/Widgets/queues/configuration');
      assert.equal(queues.status, 200);
      assert.equal(queues.headers.get('deprecation'), 'true');
      assert.deepEqual(queues.json.configuration.map((rule: { name: string }) => rule.name), ['hotfix', 'default'], 'in processing order');
      assert.deepEqual(queues.json.configuration[0].config, optionsOf(expected.queue_rules[0]!), 'each rule with its options');
    });

    test('the queues/configuration answer fits the public QueuesConfig schema', { skip: !publicReferenceAvailable && 'the public reference is not beside the repository' }, async () => {
      for (const repository of ['widgets', 'gadgets']) {
        const answer = await t.request('GET', `/v1/repos/acme/${repository}/queues/configuration`);
        assert.equal(publicShapeProblem('QueuesConfig', answer.json), undefined);
      }
    });

    test('a PUT replaces the whole configuration: options left out return to their defaults', async () => {
      assert.equal((await t.request('PUT', CONFIG, { body: { merge_queue: { mode: 'isolated' } } })).status, 200);
      assert.deepEqual((await t.request('GET', CONFIG)).json, { ...DEFAULTS, merge_queue: { ...DEFAULTS.merge_queue, mode: 'isolated' } });
      assert.equal((await t.request('PUT', CONFIG, { body: {} })).status, 200);
      assert.deepEqual((await t.request('GET', CONFIG)).json, DEFAULTS);
    });

    test('each invalid option is a 422 naming it, and nothing is written', async () => {
      const stored = { merge_queue: { mode: 'parallel' }, queue_rules: [{ name: 'only' }] };
      assert.equal((await t.request('PUT', CONFIG, { body: stored })).status, 200);
      const before = (await t.request('GET', CONFIG)).json;
      const changesBefore = changes.length;
      const cases: [unknown, (string | number)[], RegExp?][] = [
        [{ merge_queue: { mode: 'speculative' } }, ['body', 'merge_queue', 'mode'], /serial/],
        [{ merge_queue: { max_parallel_checks: 0 } }, ['body', 'merge_queue', 'max_parallel_checks']],
        [{ merge_queue: { max_parallel_checks: 129 } }, ['body', 'merge_queue', 'max_parallel_checks']],
        [{ merge_queue: { reset_on_external_merge: 'sometimes' } }, ['body', 'merge_queue', 'reset_on_external_merge']],
        [{ merge_queue: { queued_label: 'q' } }, ['body', 'merge_queue', 'queued_label'], /Unknown field/],
        [{ queue_rule: [{ name: 'x' }] }, ['body', 'queue_rule'], /Unknown field/],
        [{ queue_rules: [] }, ['body', 'queue_rules']],
        [{ queue_rules: [{ batch_size: 1 }] }, ['body', 'queue_rules', 0, 'name'], /required/],
        [{ queue_rules: [{ name: 'a', batch_size: 0 }] }, ['body', 'queue_rules', 0, 'batch_size']],
        [{ queue_rules: [{ name: 'a', batch_size: 129 }] }, ['body', 'queue_rules', 0, 'batch_size']],
        [{ queue_rules: [{ name: 'a', batch_size: { min: 5, max: 2 } }] }, ['body', 'queue_rules', 0, 'batch_size'], /min \(5\) must not exceed max \(2\)/],
        [{ queue_rules: [{ name: 'a', checks_timeout: 59 }] }, ['body', 'queue_rules', 0, 'checks_timeout'], />= 60/],
        [{ queue_rules: [{ name: 'a', merge_method: 'merge-batch' }] }, ['body', 'queue_rules', 0, 'merge_method'], /fast-forward/],
        [{ queue_rules: [{ name: 'a', max_checks_retries: -1 }] }, ['body', 'queue_rules', 0, 'max_checks_retries']],
        [{ queue_rules: [{ name: 'a', speculative_checks: 3 }] }, ['body', 'queue_rules', 0, 'speculative_checks'], /Unknown field/],
        [{ queue_rules: [{ name: 'a' }, { name: 'a' }] }, ['body', 'queue_rules', 1, 'name'], /unique/],
        [{ priority_rules: [{ name: 'p', priority: 'urgent' }] }, ['body', 'priority_rules', 0, 'priority'], /high/],
        [{ priority_rules: [{ name: 'p' }, { name: 'p' }] }, ['body', 'priority_rules', 1, 'name'], /unique/],
        [{ scopes: { missing: 'skip' } }, ['body', 'scopes', 'missing']],
        [{ scopes: { wait_seconds: -1 } }, ['body', 'scopes', 'wait_seconds']],
        [{ scopes: { barrier_files: { include: [] } } }, ['body', 'scopes', 'barrier_files', 'include']],
      ];
      for (const [body, loc, msg] of cases) {
        const answer = await t.request('PUT', CONFIG, { body });
        assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
        const issue = answer.json.detail.find((d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(loc));
        assert.ok(issue, `${JSON.stringify(body)}: no issue at ${JSON.stringify(loc)} in ${answer.text}`);
        if (msg) assert.match(issue.msg, msg, JSON.stringify(body));
      }
      assert.deepEqual((await t.request('GET', CONFIG)).json, before, 'nothing written');
      assert.equal(changes.length, changesBefore, 'the executor is told of nothing');
      const logs = await t.request('GET', '/v1/repos/acme/widgets/logs?per_page=100');
      assert.deepEqual(logs.json.events.filter((e: { type: string }) => !e.type.startsWith('product.')), [], 'a configuration change records no event');
    });

    test('rights: admins write; readers read; ci keys and other owners nothing', async () => {
      const reader = 'hosting-reader';
      assert.equal((await t.request('GET', CONFIG, { token: reader })).status, 200);
      assert.equal((await t.request('GET', '/v1/repos/acme/widgets/queues/configuration', { token: reader })).status, 200);
      assert.equal((await t.request('PUT', CONFIG, { token: reader, body: {} })).status, 403, 'pull rights do not configure');
      assert.equal((await t.request('PUT', CONFIG, { token: 'hosting-admin', body: {} })).status, 200);
      assert.equal((await t.request('PUT', CONFIG, { token: adminKey, body: {} })).status, 200);
      const ciKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } })).json.key;
      const otherAdmin = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'globex', scope: 'admin', name: 'other' } })).json.key;
      for (const token of [ciKey, otherAdmin, null]) {
        assert.equal((await t.request('GET', CONFIG, { token })).status, 403);
        assert.equal((await t.request('PUT', CONFIG, { token, body: {} })).status, 403);
      }
    });

    test('an unknown repository: 404 Repository not found', async () => {
      for (const [method, path] of [['GET', '/v1/repos/acme/nothing/merge-queue/configuration'], ['PUT', '/v1/repos/acme/nothing/merge-queue/configuration'], ['GET', '/v1/repos/acme/nothing/queues/configuration']] as const) {
        const answer = await t.request(method, path, method === 'PUT' ? { body: {} } : {});
        assert.equal(answer.status, 404, `${method} ${path}`);
        assert.deepEqual(answer.json, { detail: 'Repository not found' });
      }
    });
  });
}
