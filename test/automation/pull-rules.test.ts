// GET /v1/repos/{o}/{r}/pulls/{n}/rules (DESIGN.md §14): the rules engine's last evaluation of a
// pull request, produced end to end (a file on the fake platform's default branch, pull requests
// opened there, webhooks, the engine), read back as the Summary shows it: each rule's match, its
// conditions as a tree with pending kept apart from false, rules that cannot apply, disabled
// rules with their reason, hostile names as they were written. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { until } from '../support/merge-queue-e2e.ts';
import { checkRunWhen, readerToken, registerWithProducts } from '../support/automation-world.ts';

const REPO = 'acme/gadgets';
const HOSTILE = '<img src=x onerror=alert(1)>';

const CONFIG = `
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
      - or:
          - check-success=ci/test
          - label=skip-ci
    actions:
      comment:
        message: ready
  - name: release branch only
    conditions:
      - base=release
    actions:
      comment:
        message: release
  - name: '${HOSTILE}'
    conditions:
      - title~=<b>
    actions:
      comment:
        message: hi
  - name: reviews decide
    conditions:
      - github-review-decision=approved
    actions:
      comment:
        message: approved
`;

interface Node {
  match: boolean;
  state: string;
  label: string;
  subconditions: Node[];
}

for (const backend of await backends()) {
  describe(`a pull request's rules through the API (${backend})`, () => {
    let t: TestApp;
    let token: string;
    let number: bigint;
    before(async () => {
      t = await startTestApp(backend, undefined, { rules: { owner: 'acme' } });
      await t.hosting.createRepository({ owner: 'acme', name: 'gadgets', files: { 'README.md': 'gadgets\n', '.mergify.yml': CONFIG } });
      t.hosting.ci.configure({ delayMs: 60_000, branches: (branch) => branch.startsWith('feature'), checks: [{ name: 'ci/test', hang: 'pending' }] });
      token = readerToken(t, REPO);
      await registerWithProducts(t, REPO, ['workflow_automation']);
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'docs/guide.md': 'hello\n' }, title: 'Docs <b>bold</b>' });
      number = pull.number;
      await t.hosting.addLabels(REPO, number, ['ready']);
      await checkRunWhen(t, token, REPO, pull.headSha, 'Switchyard / Summary', (run) => /\[X\] `label=ready`/.test(run.output.summary ?? ''));
    });
    after(() => t.close());

    test('each rule as the Summary shows it: matches, pending kept apart from false, folded and disabled rules', async () => {
      const answer = await t.request('GET', `/v1/repos/${REPO}/pulls/${number}/rules`, { token });
      assert.equal(answer.status, 200, answer.text);
      const body = answer.json;
      assert.equal(body.pull_request, Number(number));
      assert.equal(body.head_sha, t.hosting.pullRequest(REPO, number).headSha);
      assert.ok(Date.parse(body.evaluated_at) <= Date.now());
      assert.equal(body.title, '2 rules match and 1 potential rule');
      const rules = new Map<string, any>(body.rules.map((rule: { name: string }) => [rule.name, rule]));
      assert.deepEqual([...rules.keys()], ['docs', 'ready to merge', 'release branch only', HOSTILE, 'reviews decide'], 'in the order of the file, names as written');

      const docs = rules.get('docs');
      assert.deepEqual([docs.section, docs.match, docs.applicable, docs.disabled_reason], ['pull_request_rules', 'true', true, null]);
      assert.deepEqual(docs.does.length, 1, 'what it does, as the Summary lists it');
      assert.match(docs.does[0], /^label/);
      assert.equal(docs.conditions.label, 'all of');
      assert.deepEqual(docs.conditions.subconditions.map((node: Node) => [node.label, node.state, node.match]), [['files~=^docs/', 'true', true], ['-draft', 'true', true]]);

      const ready = rules.get('ready to merge');
      assert.equal(ready.match, 'pending', 'a running check is pending, never failed');
      const [label, any] = ready.conditions.subconditions as Node[];
      assert.deepEqual([label!.label, label!.state], ['label=ready', 'true']);
      assert.deepEqual([any!.label, any!.state, any!.match], ['any of', 'pending', false]);
      assert.deepEqual(any!.subconditions.map((node) => [node.label, node.state]), [['check-success=ci/test', 'pending'], ['label=skip-ci', 'false']]);

      const release = rules.get('release branch only');
      assert.deepEqual([release.match, release.applicable], ['false', false], 'a rule for another base cannot apply');

      const hostile = rules.get(HOSTILE);
      assert.deepEqual([hostile.match, hostile.conditions.subconditions[0].label], ['true', 'title~=<b>']);

      const disabled = rules.get('reviews decide');
      assert.equal(disabled.conditions, null);
      assert.match(disabled.disabled_reason, /github-review-decision/);
    });

    test('a condition that becomes true is true in the next evaluation read', async () => {
      await t.hosting.addLabels(REPO, number, ['skip-ci']);
      const rules = await until('the new evaluation', async () => {
        const answer = await t.request('GET', `/v1/repos/${REPO}/pulls/${number}/rules`);
        const ready = answer.json.rules?.find((rule: { name: string }) => rule.name === 'ready to merge');
        return ready?.match === 'true' ? ready : undefined;
      });
      assert.deepEqual(rules.conditions.subconditions[1].subconditions.map((node: Node) => node.state), ['pending', 'true']);
    });

    test('404 for a pull request never evaluated and for a repository not registered; 403 without read rights', async () => {
      const never = await t.request('GET', `/v1/repos/${REPO}/pulls/424242/rules`);
      assert.equal(never.status, 404, never.text);
      assert.equal(never.json.detail, 'The rules engine has not evaluated this pull request.');
      const unknown = await t.request('GET', `/v1/repos/acme/nothing/pulls/1/rules`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json.detail, 'Repository not found');
      const huge = await t.request('GET', `/v1/repos/${REPO}/pulls/9223372036854775807/rules`);
      assert.equal(huge.status, 404, 'a 64-bit number is a number like any other');
      const beyond = await t.request('GET', `/v1/repos/${REPO}/pulls/9223372036854775808/rules`);
      assert.equal(beyond.status, 422);
      const { token: stranger } = t.hosting.createUser('stranger');
      const refused = await t.request('GET', `/v1/repos/${REPO}/pulls/${number}/rules`, { token: stranger });
      assert.equal(refused.status, 403, refused.text);
    });
  });
}
