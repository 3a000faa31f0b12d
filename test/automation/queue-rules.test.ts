// The merge queue driven by a configuration file (DESIGN.md §13): a pull request queued by
// comment goes to the first queue rule whose queue_conditions hold and gets the priority of the
// first priority rule whose conditions hold; a batch waits for the checks its rule's
// merge_conditions name (check-success) on its head; the queue's reads show the rule's conditions
// as the rules engine evaluated them. Both backends, the executor and the engine running.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { until } from '../support/merge-queue-e2e.ts';
import { registerWithProducts } from '../support/automation-world.ts';

const REPO = 'acme/rails';
const CONFIG = `
queue_rules:
  - name: hotfix
    queue_conditions:
      - label=hotfix
    merge_conditions:
      - check-success=ci/fast
  - name: default
    queue_conditions:
      - -draft
    merge_conditions:
      - check-success=ci/test
priority_rules:
  - name: urgent
    conditions:
      - label=urgent
    priority: high
`;

for (const backend of await backends()) {
  describe(`queue and priority rules from the configuration file (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {}, rules: { owner: 'acme' } });
      await t.hosting.createRepository({ owner: 'acme', name: 'rails', files: { 'README.md': 'rails\n', '.mergify.yml': CONFIG } });
      t.hosting.createUser('alice');
      t.hosting.grant(REPO, 'alice', 'write');
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      // The batch's checks: ci/test never ends, so the batch stays under check and can be read.
      t.hosting.ci.configure({ delayMs: 30, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', hang: 'pending' }, { name: 'ci/fast' }] });
      await registerWithProducts(t, REPO, ['merge_queue']);
    });
    after(() => t.close());

    test('the first queue rule whose conditions hold, the priority rule whose conditions hold, the conditions in the read', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'a.txt': 'a\n' }, title: 'A', author: 'alice' });
      await t.hosting.addLabels(REPO, pull.number, ['urgent']);
      await t.hosting.webhooks.settled();
      t.hosting.comment(REPO, pull.number, 'alice', '@switchyard queue');
      const read = await until('queued with its conditions evaluated', async () => {
        const answer = await t.request('GET', `/v1/repos/${REPO}/merge-queue/pull/${pull.number}`);
        return answer.status === 200 && answer.json.mergeability_check?.conditions_evaluation ? answer : undefined;
      });
      assert.equal(read.json.queue_rule_name, 'default', 'hotfix needs the label hotfix');
      assert.equal(read.json.priority_rule_name, 'urgent');
      const evaluation = read.json.mergeability_check.conditions_evaluation;
      assert.equal(evaluation.label, 'all of');
      const labels = JSON.stringify(evaluation);
      assert.match(labels, /-draft/);
      assert.match(labels, /check-success=ci\/test/);
      assert.equal(evaluation.match, false, 'ci/test is still running on the pull request');
      // The batch waits for ci/test (its merge condition), not for ci/fast alone.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(t.hosting.pullRequest(REPO, pull.number).merged, false);
    });

    test('a named rule whose queue_conditions do not hold is refused with the reason', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'b.txt': 'b\n' }, title: 'B', author: 'alice' });
      await t.hosting.webhooks.settled();
      const answer = await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pull/${pull.number}`, { body: { queue_rule: 'hotfix' } });
      assert.equal(answer.status, 409, answer.text);
      assert.match(answer.json.detail, /hotfix \(label=hotfix is false\)/);
    });
  });
}
