// The merge queue against what happens on a real platform: a pull request that conflicts with
// its base or with one ahead, a push to a queued pull request, a push to the base from outside,
// and check webhooks that never arrive (the executor polls). Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { queueEvents, until } from '../support/merge-queue-e2e.ts';
import type { CommitFiles, Verdict } from '../support/fake-platform/fake-ci.ts';

const REPO = 'acme/gadgets';

for (const backend of await backends()) {
  describe(`merge queue scenarios on the hosting platform (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {} });
      await t.hosting.createRepository({ owner: 'acme', name: 'gadgets', files: { 'README.md': 'gadgets\n', 'shared.txt': 'base\n' } });
      t.hosting.createUser('alice');
      t.hosting.grant(REPO, 'alice', 'write');
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      // Slow enough that a batch is still running when the next one is built on it.
      t.hosting.ci.configure({ delayMs: 400, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: () => 'success' }] });
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
    });
    after(() => t.close());

    const leaveOf = async (number: bigint) => (await queueEvents(t, REPO)).filter((e) => e.type === 'action.queue.leave' && String(e.pull_request) === String(number));
    const queue = async (numbers: bigint[]) => {
      await t.hosting.webhooks.settled();
      for (const number of numbers) t.hosting.comment(REPO, number, 'alice', '@switchyard queue');
      await t.hosting.webhooks.settled();
    };

    test('conflicts, a push to a queued pull request, and lost check webhooks', async () => {
      // Checks are read by polling only: every check webhook is lost.
      t.hosting.webhooks.drop = (delivery) => ['check_run', 'check_suite', 'status'].includes(delivery.event);
      const withBase = await t.hosting.openPullRequest({ repo: REPO, changes: { 'shared.txt': 'from the pull request\n' }, author: 'alice' });
      await t.hosting.push({ repo: REPO, branch: 'main', changes: { 'shared.txt': 'moved on main\n' } });
      const fine = await t.hosting.openPullRequest({ repo: REPO, changes: { 'fine.txt': 'fine\n' }, author: 'alice' });
      const first = await t.hosting.openPullRequest({ repo: REPO, changes: { 'clash.txt': 'first\n' }, author: 'alice' });
      const second = await t.hosting.openPullRequest({ repo: REPO, changes: { 'clash.txt': 'second\n' }, author: 'alice' });
      const pushed = await t.hosting.openPullRequest({ repo: REPO, changes: { 'pushed.txt': 'v1\n' }, author: 'alice' });
      await queue([withBase.number, fine.number, first.number, second.number, pushed.number]);
      await t.hosting.push({ repo: REPO, branch: pushed.branch, changes: { 'pushed.txt': 'v2\n' } });

      const all = [withBase, fine, first, second, pushed];
      await until('every stay over', async () => (await Promise.all(all.map((p) => leaveOf(p.number)))).every((l) => l.length === 1), 120_000);
      const code = async (number: bigint) => (await leaveOf(number))[0]!.metadata.dequeue_code;
      assert.equal(await code(withBase.number), 'CONFLICT_WITH_BASE_BRANCH');
      assert.equal(await code(fine.number), 'PR_MERGED');
      assert.equal(await code(first.number), 'PR_MERGED');
      assert.equal(await code(second.number), 'CONFLICT_WITH_PULL_AHEAD');
      assert.equal(await code(pushed.number), 'PULL_REQUEST_UPDATED');
      const files = await t.hosting.files(REPO, 'main');
      assert.equal(files.get('clash.txt'), 'first\n');
      assert.equal(files.get('shared.txt'), 'moved on main\n');
      assert.ok(!files.has('pushed.txt'));
      assert.ok(t.hosting.webhooks.sent('check_run').length > 0 && t.hosting.webhooks.sent('check_run').every((d) => d.dropped));
      t.hosting.webhooks.drop = () => false;
    });

    test('a push to the base from outside resets the queue, which merges on the new base', async () => {
      // The checks of a batch built on the old base hold their verdict until the queue has reset,
      // so a loaded machine cannot let them pass (and merge) before the push is seen.
      let releaseOldBase!: () => void;
      const oldBaseHeld = new Promise<void>((resolve) => (releaseOldBase = resolve));
      const onNewBase = (files: CommitFiles) => files.paths.has('outside.txt');
      t.hosting.ci.configure({
        delayMs: 100,
        branches: (branch) => branch.startsWith('switchyard/'),
        checks: [
          {
            name: 'ci/test',
            verdict: async (files): Promise<Verdict> => {
              if (!onNewBase(files)) await oldBaseHeld;
              return 'success';
            },
          },
        ],
      });
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'reset.txt': 'reset\n' }, author: 'alice' });
      const ofPull = async () => (await queueEvents(t, REPO)).filter((e) => String(e.pull_request) === String(pull.number));
      try {
        await queue([pull.number]);
        await until('checks started', async () => (await ofPull()).some((e) => e.type === 'action.queue.checks_start'));
        await t.hosting.push({ repo: REPO, branch: 'main', changes: { 'outside.txt': 'outside\n' } });
        await until('checks aborted by the reset', async () => (await ofPull()).some((e) => e.type === 'action.queue.checks_end' && e.metadata.aborted === true), 60_000);
      } finally {
        releaseOldBase();
      }
      await until('merged', async () => t.hosting.pullRequest(REPO, pull.number).merged, 120_000);
      const log = (await queueEvents(t, REPO)).filter((e) => String(e.pull_request) === String(pull.number));
      const ends = log.filter((e) => e.type === 'action.queue.checks_end');
      assert.equal(ends[0]!.metadata.aborted, true);
      assert.equal(ends[0]!.metadata.abort_code, 'MERGE_QUEUE_RESET');
      assert.equal(ends[0]!.metadata.abort_status, 'REEMBARKED');
      assert.equal(ends.at(-1)!.metadata.speculative_check_pull_request.checks_conclusion, 'success');
      const files = await t.hosting.files(REPO, 'main');
      assert.ok(files.has('outside.txt') && files.has('reset.txt'));
    });
  });
}
