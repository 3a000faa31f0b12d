// One process drives a given queue at a time (DESIGN §10): two executors on one store, a short
// lease, and platform changes slowed so that preparing one batch (its branch, the heads of its
// closure merged in one by one, its check pull request) lasts longer than the lease. The holder
// renews its lease between steps, so every change reaching the platform comes from the process
// that holds the queue's lease at that moment.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import { MergeQueueExecutor } from '../../src/services/merge-queue/executor/merge-queue-executor.ts';
import { hostingClientFor } from '../support/fake-platform/platform-client.ts';
import { QueueScene, queueDone, queueProblems, readLog, sleep, until } from '../support/merge-queue-process.ts';

const CHANGES = new Set(['createBranch', 'moveBranch', 'mergeIntoBranch', 'createPullRequest', 'mergePullRequest', 'closePullRequest', 'deleteBranch']);
const LEASE_MS = 3_000;
const STEP_MS = 400;

for (const backend of await backends()) {
  describe(`merge queue, two executors on one store (${backend})`, () => {
    let t: TestApp;
    let other: MergeQueueExecutor;
    const outOfLease: string[] = [];
    const changesBy = new Map<string, number>();

    /** Each change slowed, and checked to come from the lease holder of the queue. */
    const watched = (holder: string) => (platform: HostingPlatform) =>
      new Proxy(platform, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          if (!CHANGES.has(String(property))) return value.bind(target);
          return async (...args: unknown[]) => {
            await sleep(STEP_MS);
            const holders = (await t.store.db.selectFrom('merge_queues').select('lease_holder').execute()).map((row) => row.lease_holder);
            if (!holders.includes(holder)) outOfLease.push(`${holder}: ${String(property)} while the lease is ${holders.join(', ')}`);
            changesBy.set(holder, (changesBy.get(holder) ?? 0) + 1);
            return value.apply(target, args);
          };
        },
      });

    before(async () => {
      t = await startTestApp(backend, undefined, { executor: { holder: 'executor-a', leaseMs: LEASE_MS }, executorPlatform: watched('executor-a') });
      const token = t.hosting.core.accounts.issueToken(t.hosting.core.accounts.get(QUEUE_BOT));
      other = new MergeQueueExecutor({ store: t.store, platform: watched('executor-b')(hostingClientFor(t.hosting, { kind: 'token', token })), holder: 'executor-b', tickMs: 50, pollMs: 100, leaseMs: LEASE_MS });
      other.start();
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      assert.equal((await t.request('PUT', '/v1/products/acme/widgets', { body: { products: ['merge_queue'] } })).status, 204);
    });
    after(async () => {
      await other.stop();
      await t.close();
    });

    test('preparing a batch outlasts the lease: every platform change comes from the holder of the moment', { timeout: 420_000 }, async () => {
      const scene = await QueueScene.setUp(t.hosting, '', { ciDelayMs: 30 });
      const pulls = await scene.openPulls(6);
      await scene.queueByComment(pulls);
      const log = await until('the queue to finish', async () => {
        if (outOfLease.length > 0) return [];
        const events = await readLog(t.baseUrl);
        return (await queueDone(scene, events)) && events;
      }, 360_000);
      assert.deepEqual(outOfLease, []);
      assert.deepEqual(await queueProblems(scene, log), []);
      assert.ok(pulls.every((pull) => t.hosting.pullRequest('acme/widgets', pull.number).merged));
    });
  });
}
