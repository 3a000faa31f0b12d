// The crash points of the merge queue made deterministic (issue 15): the platform does what the
// executor asked, but its answer never comes back (as when the process dies before recording
// it), once for each kind of change the executor makes. Asked again, each step must find what
// was done rather than do it twice or go on from a stale record: the queue finishes with the same
// outcome and platform history as without faults (queueProblems, as after real SIGKILLs in
// executor-crash.test.ts). Both backends, in one process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import { QueueScene, queueDone, queueProblems, readLog, until } from '../support/merge-queue-process.ts';

/** Platform changes the executor makes; the answer of the first call of each is lost. */
const CHANGES = ['createBranch', 'mergeIntoBranch', 'createPullRequest', 'mergePullRequest', 'closePullRequest', 'deleteBranch'] as const;

function losingFirstAnswers(platform: HostingPlatform, lost: string[]): HostingPlatform {
  const seen = new Set<string>();
  return new Proxy(platform, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const name = String(property);
      if (!(CHANGES as readonly string[]).includes(name)) return value.bind(target);
      return async (...args: unknown[]) => {
        const answer = await value.apply(target, args);
        if (!seen.has(name)) {
          seen.add(name);
          lost.push(name);
          throw new Error(`the answer of ${name} was lost (a test fault)`);
        }
        return answer;
      };
    },
  });
}

for (const backend of await backends()) {
  describe(`merge queue, answers of the platform lost once per kind of change (${backend})`, () => {
    let t: TestApp;
    const lost: string[] = [];
    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {}, executorPlatform: (platform) => losingFirstAnswers(platform, lost) });
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      assert.equal((await t.request('PUT', '/v1/products/acme/widgets', { body: { products: ['merge_queue'] } })).status, 204);
    });
    after(() => t.close());

    test('every change is found when asked again: each pull request merged once, after the checks of a head holding it passed', { timeout: 400_000 }, async () => {
      const scene = await QueueScene.setUp(t.hosting, '', { ciDelayMs: 30 });
      const pulls = await scene.openPulls(3, [3]);
      await scene.queueByComment(pulls);
      const log = await until('the queue to finish', async () => {
        const events = await readLog(t.baseUrl);
        return (await queueDone(scene, events)) && events;
      }, 300_000);
      assert.deepEqual([...lost].sort(), [...CHANGES].sort(), 'an answer of each kind of change was lost');
      assert.deepEqual(await queueProblems(scene, log), []);
      assert.deepEqual(pulls.map((pull) => t.hosting.pullRequest('acme/widgets', pull.number).merged), [true, true, false]);
    });
  });
}
