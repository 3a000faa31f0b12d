// The configuration file (DESIGN.md §13) through the real thing: a file on the fake platform's
// default branch (real git), read through the contents API when the repository is registered and
// when a push touches it; reported by the API and on a check run; the last good file kept in
// force when a newer one fails; the merge-queue API read-only while a file governs. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { until } from '../support/merge-queue-e2e.ts';
import { checkRunWhen, readerToken, registerWithProducts } from '../support/automation-world.ts';

const REPO = 'acme/widgets';

const GOOD = `
queue_rules:
  - name: urgent
    queue_conditions:
      - label=urgent
    batch_size: 3
    batch_max_wait_time: 2 minutes
  - name: default
    queue_conditions:
      - base=main
    merge_conditions:
      - check-success=ci/test
pull_request_rules:
  - name: label docs
    conditions:
      - files~=^docs/
    actions:
      label:
        add: [documentation]
`;

for (const backend of await backends()) {
  describe(`configuration file (${backend})`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await startTestApp(backend, undefined, { rules: { owner: 'acme' } });
      await t.hosting.createRepository({ owner: 'acme', name: 'widgets', files: { 'README.md': 'widgets\n', '.mergify.yml': GOOD } });
      token = readerToken(t, REPO);
      await registerWithProducts(t, REPO, ['merge_queue', 'workflow_automation']);
    });
    after(() => t.close());

    test('read at registration: the report names the file, fills the defaults and lists what is not supported', async () => {
      const report = await t.request('GET', `/v1/repos/${REPO}/configuration`);
      assert.equal(report.status, 200, report.text);
      assert.equal(report.json.source.path, '.mergify.yml');
      assert.match(report.json.source.sha, /^[0-9a-f]{40}$/);
      assert.equal(report.json.valid, true);
      assert.deepEqual(report.json.errors, []);
      assert.deepEqual(report.json.in_force, report.json.source);
      assert.ok(report.json.not_supported.some((key: string) => key.startsWith('pull_request_rules[0].actions')), `actions are not carried out yet: ${report.json.not_supported}`);
      const main = (await t.hosting.branchSha(REPO, 'main'))!;
      const check = await checkRunWhen(t, token, REPO, main, 'Switchyard / Configuration', (run) => run.status === 'completed');
      assert.equal(check.conclusion, 'success');
    });

    test("the merge queue's options follow the file, and its API is read-only while the file governs", async () => {
      const read = await t.request('GET', `/v1/repos/${REPO}/merge-queue/configuration`);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json.queue_rules.map((rule: { name: string }) => rule.name), ['urgent', 'default']);
      assert.equal(read.json.queue_rules[0].batch_size, 3);
      assert.equal(read.json.queue_rules[0].batch_max_wait_time, 120);
      const put = await t.request('PUT', `/v1/repos/${REPO}/merge-queue/configuration`, { body: { merge_queue: { mode: 'parallel' } } });
      assert.equal(put.status, 409, put.text);
      assert.match(put.json.detail, /\.mergify\.yml/);
    });

    test('a push that breaks the file keeps the last good one in force and fails the check with the error and its line', async () => {
      const good = (await t.request('GET', `/v1/repos/${REPO}/configuration`)).json.source;
      await t.hosting.push({ repo: REPO, branch: 'main', changes: { '.mergify.yml': 'queue_rules:\n  - name: default\n    batch_size: many\n' } });
      const report = await until('the broken file read', async () => {
        const answer = await t.request('GET', `/v1/repos/${REPO}/configuration`);
        return answer.json.valid === false ? answer : undefined;
      });
      assert.notEqual(report.json.source.sha, good.sha);
      assert.deepEqual(report.json.in_force, good, 'the last good file stays in force');
      const error = report.json.errors.find((e: { loc: unknown[] }) => e.loc.join('.') === 'queue_rules.0.batch_size');
      assert.ok(error, JSON.stringify(report.json.errors));
      assert.equal(error.line, 3);
      assert.deepEqual(report.json.configuration.queue_rules.map((rule: { name: string }) => rule.name), ['urgent', 'default']);
      const main = (await t.hosting.branchSha(REPO, 'main'))!;
      const check = await checkRunWhen(t, token, REPO, main, 'Switchyard / Configuration', (run) => run.conclusion === 'failure');
      assert.match(check.output.summary ?? '', /batch_size/);
      assert.match(check.output.summary ?? '', /line 3/);
    });

    test('a push that does not touch the file does not read it again', async () => {
      const before = t.hosting.requestLog.filter((r) => r.url.includes('/contents/')).length;
      await t.hosting.push({ repo: REPO, branch: 'main', changes: { 'src/app.ts': 'export {};\n' } });
      await t.hosting.webhooks.settled();
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(t.hosting.requestLog.filter((r) => r.url.includes('/contents/')).length, before);
    });

    test('hostile files: an alias bomb, a file over 1 MiB and an unknown attribute are errors in the report, never a crash', async () => {
      const bomb = `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n`;
      for (const [text, pattern] of [
        [bomb, /alias/i],
        [`# ${'x'.repeat(1024 * 1024 + 10)}\n`, /1 MiB/],
        ['pull_request_rules:\n  - name: r\n    conditions: [frobnicate=3]\n    actions: {}\n', /frobnicate/],
      ] as const) {
        await t.hosting.push({ repo: REPO, branch: 'main', changes: { '.mergify.yml': text } });
        const sha = (await t.hosting.branchSha(REPO, 'main'))!;
        const check = await checkRunWhen(t, token, REPO, sha, 'Switchyard / Configuration', (run) => run.conclusion === 'failure');
        assert.match(check.output.summary ?? '', pattern);
        const report = await t.request('GET', `/v1/repos/${REPO}/configuration`);
        assert.equal(report.status, 200);
        assert.equal(report.json.valid, false);
        assert.equal(report.json.in_force.path, '.mergify.yml');
      }
      assert.equal((await t.request('GET', '/healthz')).status, 200);
    });

    test('refresh reads the file now; the simulators validate a text without storing it', async () => {
      await t.hosting.push({ repo: REPO, branch: 'main', changes: { '.mergify.yml': GOOD } });
      const refreshed = await t.request('POST', `/v1/repos/${REPO}/configuration/refresh`);
      assert.equal(refreshed.status, 200, refreshed.text);
      assert.equal(refreshed.json.valid, true);
      const valid = await t.request('POST', `/v1/repos/${REPO}/configuration-simulator`, { body: { mergify_yml: GOOD } });
      assert.equal(valid.status, 200, valid.text);
      assert.match(valid.json.message, /valid/);
      assert.deepEqual(valid.json.deprecations, []);
      const invalid = await t.request('POST', `/v1/repos/${REPO}/configuration-simulator`, { body: { mergify_yml: 'queue_rules:\n  - name: a\n    checks_timeout: soon\n' } });
      assert.equal(invalid.status, 422, invalid.text);
      assert.deepEqual(invalid.json.detail[0].loc.slice(0, 5), ['body', 'mergify_yml', 'queue_rules', 0, 'checks_timeout']);
      const after = await t.request('GET', `/v1/repos/${REPO}/configuration`);
      assert.equal(after.json.valid, true, 'the simulator stored nothing');
    });
  });
}
