// `switchyard config validate|simulate|show|refresh` against a real server on each backend, with
// the rules engine reading the fake platform; and the request the hosted service's own
// `mergify config simulate` sends (POST …/pulls/{n}/simulator, a bearer, `{"mergify_yml"}`),
// answered with the `title` and `summary` it prints and a 422 whose `detail` it shows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends } from '../support/backends.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';
import { cliFor } from '../support/cli-runner.ts';
import { registerWithProducts } from '../support/automation-world.ts';

const REPO = 'acme/tools';
const CONFIG = 'pull_request_rules:\n  - name: docs\n    conditions: [files~=^docs/]\n    actions: {label: {add: [docs]}}\n';

for (const backend of await backends()) {
  describe(`switchyard config (${backend})`, () => {
    let t: TestApp;
    let run: ReturnType<typeof cliFor>;
    let dir: string;
    let adminKey: string;
    before(async () => {
      t = await startTestApp(backend, undefined, { rules: { owner: 'acme' } });
      await t.hosting.createRepository({ owner: 'acme', name: 'tools', files: { 'README.md': 'tools\n', '.mergify.yml': CONFIG } });
      await registerWithProducts(t, REPO, ['workflow_automation']);
      run = cliFor(t.baseUrl, SERVICE_TOKEN);
      dir = await mkdtemp(join(tmpdir(), 'switchyard-config-'));
      adminKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'admin', name: 'cli' } })).json.key;
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
      await t.close();
    });

    test('validate: a valid file says so and lists what is not supported; an invalid one prints where and exits 1', async () => {
      const good = join(dir, 'good.yml');
      await writeFile(good, CONFIG);
      const ok = await run(['config', 'validate', REPO, good]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /The configuration is valid\. Not supported by Switchyard .*pull_request_rules\[0\]\.actions/);
      const bad = join(dir, 'bad.yml');
      await writeFile(bad, 'queue_rules:\n  - name: a\n    batch_size: 0\n');
      const refused = await run(['config', 'validate', REPO, bad]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /HTTP 422/);
    });

    test('simulate prints the Summary title and body for a pull request; show prints the report', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'docs/a.md': 'a\n' }, title: 'Docs' });
      const file = join(dir, 'sim.yml');
      await writeFile(file, CONFIG);
      const simulated = await run(['config', 'simulate', REPO, String(pull.number), file]);
      assert.equal(simulated.code, 0, simulated.stderr);
      assert.match(simulated.stdout, /^1 rule matches and 0 potential rules\n\n/);
      assert.match(simulated.stdout, /Rule: docs/);
      const shown = await run(['config', 'show', REPO]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /^file: \.mergify\.yml \([0-9a-f]{12}\)\nvalid\n/);
    });

    test("the hosted service's command line: its request, with an admin key, gets the title and summary it prints", async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'docs/b.md': 'b\n' }, title: 'More docs' });
      const answer = await fetch(`${t.baseUrl}/v1/repos/${REPO}/pulls/${pull.number}/simulator`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ mergify_yml: CONFIG }),
      });
      assert.equal(answer.status, 200);
      const body = (await answer.json()) as { title: unknown; summary: unknown };
      assert.equal(typeof body.title, 'string');
      assert.equal(typeof body.summary, 'string');
      const invalid = await fetch(`${t.baseUrl}/v1/repos/${REPO}/pulls/${pull.number}/simulator`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mergify_yml: 'pull_request_rules: 3\n' }),
      });
      assert.equal(invalid.status, 422, 'the command line turns a 422 into a configuration error (its exit 8)');
      assert.ok(Array.isArray(((await invalid.json()) as { detail: unknown }).detail));
    });
  });
}
