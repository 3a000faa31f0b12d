// The rules engine evaluating pull requests through webhooks (DESIGN.md §14): the Summary check
// run on the head after each change, three-valued conditions (a running check is pending, never
// failed), a time condition that flips on its own (a durable timer that survives a restart), a
// pull request that changes the configuration, and a disabled product that evaluates nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { until } from '../support/merge-queue-e2e.ts';
import { checkRunWhen, readerToken, registerWithProducts } from '../support/automation-world.ts';
import { RulesEngine } from '../../src/services/automation/rules-engine.ts';

const REPO = 'acme/gadgets';
const SOON = () => new Date(Date.now() + 15_000).toISOString();

const config = (opensAt: string) => `
pull_request_rules:
  - name: docs
    conditions:
      - files~=^docs/
      - -draft
    actions:
      label:
        add: [documentation]
  - name: ready to merge
    conditions:
      - label=ready
      - check-success=ci/test
    actions:
      comment:
        message: ready
  - name: release branch only
    conditions:
      - base=release
    actions:
      comment:
        message: release
  - name: after the window opens
    conditions:
      - current-datetime>=${opensAt}
    actions:
      comment:
        message: open
`;

for (const backend of await backends()) {
  describe(`rules engine and the Summary (${backend})`, () => {
    let t: TestApp;
    let token: string;
    let opensAt: string;
    before(async () => {
      t = await startTestApp(backend, undefined, { rules: { owner: 'acme' } });
      opensAt = SOON();
      await t.hosting.createRepository({ owner: 'acme', name: 'gadgets', files: { 'README.md': 'gadgets\n', '.mergify.yml': config(opensAt) } });
      t.hosting.ci.configure({ delayMs: 60_000, branches: (branch) => branch.startsWith('feature'), checks: [{ name: 'ci/test', hang: 'pending' }] });
      token = readerToken(t, REPO);
      await registerWithProducts(t, REPO, ['workflow_automation']);
    });
    after(() => t.close());

    test('a pull request gets a Summary: matching rules checked, a pending check pending, rules for another base folded', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'docs/guide.md': 'hello\n' }, title: 'Docs' });
      const summary = await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', (run) => /1 rule matches/.test(run.output.title ?? ''));
      assert.equal(summary.conclusion, 'success');
      const body = summary.output.summary ?? '';
      assert.match(body, /Rules that match[\s\S]*docs[\s\S]*files~=\^docs\//);
      assert.match(body, /Rules that potentially match[\s\S]*ready to merge/);
      assert.match(body, /<details>[\s\S]*release branch only[\s\S]*<\/details>/);
      assert.doesNotMatch(body.split('ready to merge')[1]!.split('#####')[0]!, /\[X\] `check-success=ci\/test`/);
    });

    test('a label webhook re-evaluates: the rule that waited for it now matches, its check still pending', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'src/a.ts': 'a\n' }, title: 'A' });
      await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', () => true);
      await t.hosting.addLabels(REPO, pull.number, ['ready']);
      const summary = await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', (run) => /\[X\] `label=ready`/.test(run.output.summary ?? ''));
      assert.match(summary.output.title ?? '', /0 rules match/);
    });

    test('a time condition flips by itself at its instant (a durable timer, not a webhook)', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'src/b.ts': 'b\n' }, title: 'B' });
      await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', () => true);
      const summary = await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', (run) => /Rules that match[\s\S]*after the window opens/.test(run.output.summary ?? ''), 40_000);
      assert.ok(Date.now() >= Date.parse(opensAt));
      assert.ok(summary);
    });

    test('a pull request that breaks the configuration gets a failing "Configuration changed" check; the rules in force do not change', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { '.mergify.yml': 'pull_request_rules: nope\n' }, title: 'Break it' });
      const check = await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Configuration changed', (run) => run.status === 'completed');
      assert.equal(check.conclusion, 'failure');
      assert.match(check.output.summary ?? '', /pull_request_rules/);
      const report = await t.request('GET', `/v1/repos/${REPO}/configuration`);
      assert.equal(report.json.valid, true);
    });

    test('the pull request simulator shows the Summary a configuration would give, writing nothing', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'docs/x.md': 'x\n' }, title: 'X' });
      await t.hosting.webhooks.settled();
      const writes = t.hosting.mutations().length;
      const answer = await t.request('POST', `/v1/repos/${REPO}/pulls/${pull.number}/simulator`, { body: { mergify_yml: 'pull_request_rules:\n  - name: only docs\n    conditions: [files~=^docs/]\n    actions: {}\n' } });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.title, '1 rule matches and 0 potential rules');
      assert.match(answer.json.summary, /only docs/);
      assert.equal(t.hosting.mutations().length, writes);
      const missing = await t.request('POST', `/v1/repos/${REPO}/pulls/99999/simulator`, { body: { mergify_yml: '{}' } });
      assert.equal(missing.status, 404, missing.text);
    });

    test('with workflow_automation off, pull_request_rules are not evaluated', async () => {
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: [] } })).status, 204);
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'docs/off.md': 'off\n' }, title: 'Off' });
      // The Summary is still written (the file governs), with none of the rules of the disabled product.
      const summary = await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', () => true);
      assert.equal(summary.output.title, 'no rules configured, just listening for commands');
      assert.doesNotMatch(summary.output.summary ?? '', /Rule: docs/);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['workflow_automation'] } })).status, 204);
    });
  });
}

for (const backend of await backends()) {
  describe(`rules engine across a restart (${backend})`, () => {
    test('a timer due while no engine runs is kept in storage and fires when an engine starts again', async () => {
      const t = await startTestApp(backend, undefined, { rules: { owner: 'acme' } });
      try {
        const opensAt = new Date(Date.now() + 12_000).toISOString();
        await t.hosting.createRepository({ owner: 'acme', name: 'gadgets', files: { 'README.md': 'x\n', '.mergify.yml': config(opensAt) } });
        const token = readerToken(t, REPO);
        await registerWithProducts(t, REPO, ['workflow_automation']);
        const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'src/c.ts': 'c\n' }, title: 'C' });
        await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', () => true);
        await t.automation.engine!.stop();
        const due = (await t.store.db.selectFrom('rule_evaluations_due').select('due_at').execute()).map((row) => new Date(row.due_at).getTime());
        // One row per pull request holds its earliest due instant: the timer, or an evaluation asked
        // for sooner, which derives the timer again.
        assert.equal(due.length, 1, 'the pull request is due in storage');
        assert.ok(due[0]! <= Date.parse(opensAt) + 1000, `due no later than the instant the condition flips: ${new Date(due[0]!).toISOString()} vs ${opensAt}`);
        await until('the instant passed', async () => Date.now() > Date.parse(opensAt) + 200);
        // Another process (a new engine, a new lease holder) finds the timer and evaluates.
        const restarted = new RulesEngine({ store: t.store, work: t.automation.service!, tickMs: 50 });
        restarted.start();
        try {
          await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', (run) => /Rules that match[\s\S]*after the window opens/.test(run.output.summary ?? ''));
        } finally {
          await restarted.stop();
        }
      } finally {
        await t.close();
      }
    });
  });
}
