// A merge the executor has begun is finished: while the platform is merging a passed batch (its
// merge call held open here), a dequeue by hand is refused with 409 and a pause does not hold the
// batch, so the pull request the platform merged is logged as merged, never as dequeued or left
// queued. A command comment acts once, whatever delivery id it comes under. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { queueEvents, until } from '../support/merge-queue-e2e.ts';
import { forgetWebhookPayloads } from '../../src/services/retention.ts';

const REPO = 'acme/mill';

for (const backend of await backends()) {
  describe(`merge queue, a merge in progress (${backend})`, () => {
    let t: TestApp;
    /** Merge calls wait for this gate while it is set; `reached` resolves when one is waiting. */
    let gate: { reached: () => void; open: Promise<void> } | undefined;

    const held = (platform: HostingPlatform) =>
      new Proxy(platform, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          if (property !== 'mergePullRequest') return value.bind(target);
          return async (...args: unknown[]) => {
            const answer = await value.apply(target, args);
            // The platform has merged; its answer is held back from the executor.
            if (gate) {
              gate.reached();
              await gate.open;
            }
            return answer;
          };
        },
      });

    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {}, executorPlatform: held });
      await t.hosting.createRepository({ owner: 'acme', name: 'mill', files: { 'README.md': 'mill\n' } });
      t.hosting.createUser('alice');
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      t.hosting.grant(REPO, 'alice', 'write');
      t.hosting.ci.configure({ delayMs: 50, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: () => 'success' }] });
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
    });
    after(() => t.close());

    test('a dequeue is refused and a pause does not hold a batch whose merge has begun', async () => {
      let release!: () => void;
      const reached = new Promise<void>((resolve) => {
        gate = { reached: resolve, open: new Promise<void>((open) => (release = open)) };
      });
      try {
        const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'grain.txt': 'grain\n' }, author: 'alice' });
        await t.hosting.webhooks.settled();
        assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pull/${pull.number}`, { body: {} })).status, 202);
        await reached;
        assert.equal(t.hosting.pullRequest(REPO, pull.number).merged, true, 'the platform merged it');

        const dequeue = await t.request('POST', `/v1/repos/${REPO}/merge-queue/pull/${pull.number}/dequeue`);
        assert.equal(dequeue.status, 409, dequeue.text);
        assert.equal(dequeue.json.detail, `Pull request #${pull.number} is being merged by the merge queue; it can no longer be dequeued.`);
        assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pause`, { body: { reason: 'hold everything' } })).status, 200);
        release();

        const leave = await until('left the queue', async () => (await queueEvents(t, REPO)).find((e) => e.type === 'action.queue.leave' && String(e.pull_request) === String(pull.number)));
        assert.equal(leave.metadata.dequeue_code, 'PR_MERGED');
        assert.equal(leave.metadata.merged, true);
        const events = (await queueEvents(t, REPO)).filter((e) => String(e.pull_request) === String(pull.number));
        assert.equal(events.filter((e) => e.type === 'action.queue.merged').length, 1);
        assert.ok(!events.some((e) => e.type === 'command.dequeue'), 'the refused dequeue wrote nothing');
        const status = (await t.request('GET', `/v1/repos/${REPO}/merge-queue/status?branch=main`)).json;
        assert.deepEqual(status.batches, [], 'nothing left queued');
        assert.equal(status.waiting_pull_requests?.length ?? 0, 0);
      } finally {
        gate = undefined;
        release?.();
        await t.request('DELETE', `/v1/repos/${REPO}/merge-queue/pause`);
      }
    });

    test('a command comment acts once, even sent again after its body is forgotten', async () => {
      // Paused, so the pull request stays queued until it is dequeued by hand.
      assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pause`, { body: { reason: 'replay test' } })).status, 200);
      try {
        const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'chaff.txt': 'chaff\n' }, author: 'alice' });
        await t.hosting.webhooks.settled();
        t.hosting.comment(REPO, pull.number, 'alice', '@switchyard queue');
        await t.hosting.webhooks.settled();
        const commands = async () => (await queueEvents(t, REPO)).filter((e) => e.type === 'command.queue' && String(e.pull_request) === String(pull.number));
        assert.equal((await commands()).length, 1);
        assert.equal((await t.request('POST', `/v1/repos/${REPO}/merge-queue/pull/${pull.number}/dequeue`)).status, 204);

        // A week and a day later the body's digest is gone; the captured delivery comes again.
        await forgetWebhookPayloads(t.store, 0, new Date(Date.now() + 8 * 24 * 3_600_000));
        const captured = t.hosting.webhooks.sent('issue_comment').at(-1)!;
        const replay = t.hosting.webhooks.send('issue_comment', captured.payload);
        await t.hosting.webhooks.settled();
        assert.equal(replay.results[0]?.status, 204);
        assert.equal((await commands()).length, 1, 'the command did not act again');
        assert.equal((await t.request('GET', `/v1/repos/${REPO}/merge-queue/pull/${pull.number}`)).status, 404, 'not queued again');
      } finally {
        await t.request('DELETE', `/v1/repos/${REPO}/merge-queue/pause`);
      }
    });
  });
}
