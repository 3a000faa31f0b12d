// What holds or ends a batch on the platform: a pause and a scheduled freeze hold a passed batch
// (seconds_waiting_for_freeze counted), a check that never reports times out, and each merge
// method lands as the platform's method says. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { queueEvents, until } from '../support/merge-queue-e2e.ts';

const REPO = 'acme/tools';

for (const backend of await backends()) {
  describe(`merge queue controls on the hosting platform (${backend})`, () => {
    let t: TestApp;
    let skew = 0;
    before(async () => {
      t = await startTestApp(backend, undefined, { executor: { clock: () => Date.now() + skew } });
      await t.hosting.createRepository({ owner: 'acme', name: 'tools', files: { 'README.md': 'tools\n' } });
      t.hosting.createUser('alice');
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      t.hosting.ci.configure({ delayMs: 50, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: () => 'success' }] });
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
    });
    after(() => t.close());

    const configure = async (body: unknown) => {
      const answer = await t.request('PUT', `/v1/repos/${REPO}/merge-queue/configuration`, { body });
      assert.equal(answer.status, 200, answer.text);
    };
    const open = async (file: string) => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { [file]: `${file}\n` }, author: 'alice', title: `Add ${file}` });
      await t.hosting.webhooks.settled();
      return pull;
    };
    const enter = async (number: bigint, body: unknown = {}) => assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pull/${number}`, { body })).status, 202);
    const statusOf = async () => (await t.request('GET', `/v1/repos/${REPO}/merge-queue/status?branch=main`)).json;
    // The window reaches past now: the timeout test runs the executor's clock ahead.
    const log = () => queueEvents(t, REPO, `&received_to=${encodeURIComponent(new Date(Date.now() + 300_000).toISOString())}`);
    const leaveOf = async (number: bigint) => (await log()).find((e) => e.type === 'action.queue.leave' && String(e.pull_request) === String(number));

    test('each merge method: a merge commit, a squash, a rebase, a fast-forward to the checked head', async () => {
      await configure({
        queue_rules: [
          { name: 'merged', merge_method: 'merge' },
          { name: 'squashed', merge_method: 'squash' },
          { name: 'rebased', merge_method: 'rebase' },
        ],
      });
      const pulls = { merged: await open('m.txt'), squashed: await open('s.txt'), rebased: await open('r.txt') };
      for (const [rule, pull] of Object.entries(pulls)) await enter(pull.number, { queue_rule: rule });
      await until('all merged', async () => Object.values(pulls).every((p) => t.hosting.pullRequest(REPO, p.number).merged), 120_000);
      const history = await t.hosting.history(REPO, 'main', { firstParent: true });
      const commitOf = (file: string) => history.find((c) => c.message.includes(file) || c.message.includes(`Add ${file}`));
      const merge = history.find((c) => c.parents.length === 2 && c.parents.includes(pulls.merged.headSha));
      assert.ok(merge, 'a merge commit whose second parent is the checked head');
      const squash = commitOf('s.txt');
      assert.ok(squash && squash.parents.length === 1 && squash.sha !== pulls.squashed.headSha, 'one new commit for the squash');
      const rebase = commitOf('r.txt');
      assert.ok(rebase && rebase.parents.length === 1 && rebase.sha !== pulls.rebased.headSha, 'the commit replayed on the base');

      await configure({ queue_rules: [{ name: 'ff', merge_method: 'fast-forward' }] });
      const ff = await open('ff.txt');
      await enter(ff.number);
      const merged = await until('merged', async () => (await queueEvents(t, REPO)).find((e) => e.type === 'action.queue.merged' && String(e.pull_request) === String(ff.number)), 120_000);
      assert.equal(t.hosting.pullRequest(REPO, ff.number).merged, true);
      assert.equal(await t.hosting.branchSha(REPO, 'main'), merged.metadata.merge_commit_sha);
      const ends = (await queueEvents(t, REPO)).filter((e) => e.type === 'action.queue.checks_end' && String(e.pull_request) === String(ff.number));
      assert.equal(ends.length, 1, 'checked once');
      assert.equal(ends[0]!.metadata.speculative_check_pull_request.checks_conclusion, 'success');
      const checked = t.hosting.requestLog.find((r) => r.method === 'POST' && r.url.endsWith('/pulls') && r.status === 201 && JSON.stringify(r.body).includes('Merge queue: #' + ff.number));
      assert.ok(checked, 'a draft pull request checked the batch');
      const draft = t.hosting.pullRequest(REPO, BigInt(ends.at(-1)!.metadata.speculative_check_pull_request.number));
      assert.equal(draft.merged, true, 'the draft landed with the base: its head is the base now');
    });

    test('a pause holds a passed batch until unpaused; a freeze holds it and is counted', async () => {
      await configure({});
      t.hosting.ci.configure({ delayMs: 800, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: () => 'success' }] });
      const paused = await open('paused.txt');
      await enter(paused.number);
      await until('checks started', async () => (await statusOf()).batches[0]?.status.code === 'running');
      assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pause`, { body: { reason: 'release' } })).status, 200);
      await until('passed, held by the pause', async () => (await statusOf()).batches[0]?.status.code === 'waiting_for_merge' && (await queueEvents(t, REPO)).some((e) => e.type === 'action.queue.checks_end' && String(e.pull_request) === String(paused.number)));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(t.hosting.pullRequest(REPO, paused.number).merged, false, 'nothing merges while paused');
      assert.equal((await t.request('DELETE', `/v1/repos/${REPO}/merge-queue/pause`)).status, 204);
      await until('merged once unpaused', async () => (await leaveOf(paused.number))?.metadata.merged, 60_000);

      const frozen = await open('frozen.txt');
      await enter(frozen.number);
      await until('checks started', async () => (await statusOf()).batches[0]?.status.code === 'running');
      const freeze = await t.request('POST', `/v1/repos/${REPO}/scheduled_freeze`, { body: { reason: 'code freeze', start: null, timezone: 'UTC', matching_conditions: ['base=main'] } });
      assert.equal(freeze.status, 201, freeze.text);
      await until('passed, frozen', async () => (await statusOf()).batches[0]?.status.code === 'frozen', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.equal(t.hosting.pullRequest(REPO, frozen.number).merged, false, 'nothing merges during the freeze');
      assert.equal((await t.request('DELETE', `/v1/repos/${REPO}/scheduled_freeze/${freeze.json.id}`)).status, 204);
      const leave = await until('merged after the freeze', async () => leaveOf(frozen.number), 60_000);
      assert.equal(t.hosting.pullRequest(REPO, frozen.number).merged, true);
      assert.ok(leave.metadata.seconds_waiting_for_freeze >= 2, `waited ${leave.metadata.seconds_waiting_for_freeze} s for the freeze`);
      assert.equal((await leaveOf(paused.number))!.metadata.seconds_waiting_for_freeze, 0);
    });

    test('a check that never reports times out: CHECKS_TIMEOUT after checks_timeout', async () => {
      await configure({ queue_rules: [{ name: 'default', checks_timeout: 60, required_checks: ['ci/slow'] }] });
      t.hosting.ci.configure({ delayMs: 50, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/slow', verdict: () => 'success', hang: 'pending' }] });
      const pull = await open('slow.txt');
      await enter(pull.number);
      await until('checks started', async () => (await statusOf()).batches[0]?.status.code === 'running');
      skew = 61_000; // the executor's clock moves past the timeout
      const leave = await until('timed out', async () => leaveOf(pull.number), 60_000);
      skew = 0;
      assert.equal(leave.metadata.dequeue_code, 'CHECKS_TIMEOUT');
      const end = (await log()).find((e) => e.type === 'action.queue.checks_end' && String(e.pull_request) === String(pull.number))!;
      assert.equal(end.metadata.speculative_check_pull_request.checks_timed_out, true);
      assert.equal(end.metadata.speculative_check_pull_request.checks_conclusion, 'timed_out');
      assert.equal(t.hosting.pullRequest(REPO, pull.number).merged, false);
    });
  });
}
