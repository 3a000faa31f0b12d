// The fake CI judges each pushed commit by its files: two pull requests that pass alone can fail
// together. Its verdicts are check runs and commit statuses read back through the REST API as
// a merge queue polls them; a check can hang forever or never show up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { failWhenAllPresent } from '../support/fake-platform/fake-ci.ts';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';

describe('fake CI', () => {
  let platform: FakePlatform;
  let token: string;
  const repo = 'acme/ci';
  const runs = async (ref: string) => (await restCall(platform.url, token, 'GET', `/repos/${repo}/commits/${ref}/check-runs`)).json;
  const status = async (ref: string) => (await restCall(platform.url, token, 'GET', `/repos/${repo}/commits/${ref}/status`)).json;

  before(async () => {
    platform = await new FakePlatform().start();
    token = platform.createUser('alice').token;
    platform.createOrganization('acme');
    platform.setMembership('acme', 'alice', { role: 'admin', state: 'active' });
    await platform.createRepository({ owner: 'acme', name: 'ci' });
  });
  after(() => platform.stop());

  test('verdicts come from the tree: a.flag and b.flag pass alone and fail together', async () => {
    platform.ci.configure({ checks: [{ name: 'ci/test', verdict: failWhenAllPresent(['a.flag', 'b.flag']) }, { name: 'ci/status', kind: 'status', verdict: failWhenAllPresent(['a.flag', 'b.flag']) }] });
    try {
      const a = await platform.openPullRequest({ repo, changes: { 'a.flag': '' } });
      const b = await platform.openPullRequest({ repo, changes: { 'b.flag': '' } });
      await platform.push({ repo, branch: 'batch', changes: {} });
      const batch = (await restCall(platform.url, token, 'POST', `/repos/${repo}/merges`, { base: 'batch', head: a.headSha })).json.sha;
      const both = (await restCall(platform.url, token, 'POST', `/repos/${repo}/merges`, { base: 'batch', head: b.headSha })).json.sha;
      await platform.ci.settled();
      for (const [sha, expected] of [[a.headSha, 'success'], [b.headSha, 'success'], [batch, 'success'], [both, 'failure']] as const) {
        const checks = await runs(sha);
        assert.equal(checks.total_count, 1);
        assert.deepEqual([checks.check_runs[0].name, checks.check_runs[0].status, checks.check_runs[0].conclusion], ['ci/test', 'completed', expected], sha);
        const combined = await status(sha);
        assert.deepEqual([combined.state, combined.statuses.map((s: { context: string }) => s.context)], [expected, ['ci/status']]);
      }
      assert.equal((await runs('batch')).check_runs[0].head_sha, both, 'a branch name reads its tip');
      assert.ok(platform.ci.runs.some((r) => r.sha === both && r.check === 'ci/test' && r.verdict === 'failure'));
    } finally {
      platform.ci.configure(undefined);
    }
  });

  test('a hanging check stays in progress; an absent one never shows up', async () => {
    platform.ci.configure({ checks: [{ name: 'ci/slow', hang: 'pending' }, { name: 'ci/ghost', hang: 'absent' }, { name: 'ci/status-slow', kind: 'status', hang: 'pending' }] });
    try {
      const sha = await platform.push({ repo, branch: 'hanging', changes: { 'h.txt': 'h\n' } });
      await platform.ci.settled();
      const checks = await runs(sha);
      assert.deepEqual(checks.check_runs.map((r: { name: string; status: string; conclusion: null }) => [r.name, r.status, r.conclusion]), [['ci/slow', 'in_progress', null]]);
      assert.equal((await status(sha)).state, 'pending');
    } finally {
      platform.ci.configure(undefined);
    }
  });

  test('only the branches it is told to build, after its delay', async () => {
    platform.ci.configure({ delayMs: 20, branches: (branch) => branch.startsWith('queue/'), checks: [{ name: 'ci/test' }] });
    try {
      const built = await platform.push({ repo, branch: 'queue/main/1', changes: { 'q.txt': 'q\n' } });
      const ignored = await platform.push({ repo, branch: 'elsewhere', changes: { 'e.txt': 'e\n' } });
      await platform.ci.settled();
      assert.equal((await runs(built)).check_runs[0].conclusion, 'success');
      assert.equal((await runs(ignored)).total_count, 0);
      assert.equal((await status(ignored)).state, 'pending', 'no status at all reads as pending, as on GitHub');
    } finally {
      platform.ci.configure(undefined);
    }
  });

  test('check runs are written by apps only; a later run of a name replaces the earlier in `latest`', async () => {
    const sha = (await platform.branchSha(repo, 'main'))!;
    const refused = await restCall(platform.url, token, 'POST', `/repos/${repo}/check-runs`, { name: 'mine', head_sha: sha });
    assert.deepEqual([refused.status, refused.json.message], [403, 'You must authenticate via a GitHub App.']);
    platform.ci.configure({ checks: [{ name: 'ci/test', verdict: () => 'failure' }] });
    await platform.push({ repo, branch: 'rerun', changes: { 'r.txt': 'r\n' } });
    await platform.ci.settled();
    platform.ci.configure({ checks: [{ name: 'ci/test' }] });
    const tip = (await platform.branchSha(repo, 'rerun'))!;
    assert.equal((await restCall(platform.url, token, 'POST', `/repos/${repo}/git/refs`, { ref: 'refs/heads/rerun-again', sha: tip })).status, 201);
    await platform.ci.settled();
    platform.ci.configure(undefined);
    const latest = await runs(tip);
    assert.deepEqual(latest.check_runs.map((r: { conclusion: string }) => r.conclusion), ['success']);
    const all = (await restCall(platform.url, token, 'GET', `/repos/${repo}/commits/${tip}/check-runs?filter=all`)).json;
    assert.deepEqual(all.check_runs.map((r: { conclusion: string }) => r.conclusion), ['success', 'failure']);
  });
});
