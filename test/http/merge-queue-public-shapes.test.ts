// Every read of the merge queue, checked against the public merge-queue document with nothing
// forgiven (issue 26): a strict generated client refuses a null where the document promises a
// string, so `priority_rule_name` and `url` must be strings. The queue here is a real one: pull
// requests opened on the fake platform (their webhooks tell title, author and page), batches
// running on draft pull requests, a pause and a freeze. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { until } from '../support/merge-queue-e2e.ts';
import { publicReferenceAvailable, publicShapeProblem, referenceMissing } from '../support/public-reference.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';

const REPO = 'acme/shapes';
const BASE = `/v1/repos/${REPO}`;

for (const backend of await backends()) {
  describe(`merge queue reads in the public shapes, nothing forgiven (${backend})`, { skip: !publicReferenceAvailable && String(referenceMissing) }, () => {
    let t: TestApp;
    /** Each read's answer with the public schema it must fit. */
    const reads: [string, string, unknown][] = [];
    const pulls: { number: bigint }[] = [];

    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {} });
      await t.hosting.createRepository({ owner: 'acme', name: 'shapes', files: { 'README.md': 'shapes\n' } });
      t.hosting.createUser('alice');
      t.hosting.grant(REPO, 'alice', 'write');
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      // Checks that never end: the batches stay running while they are read.
      t.hosting.ci.configure({ branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', hang: 'pending' }] });
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
      for (let i = 1; i <= 3; i++) pulls.push(await t.hosting.openPullRequest({ repo: REPO, changes: { [`f${i}.txt`]: `${i}\n` }, title: `Change ${i}`, author: 'alice' }));
      await t.hosting.webhooks.settled();
      // The first enters while a priority rule matches every pull request; the others with none.
      const configure = async (priorityRules: unknown[]) => {
        const body = { merge_queue: { mode: 'serial', max_parallel_checks: 2 }, queue_rules: [{ name: 'default', batch_size: 1, required_checks: ['ci/test'] }], priority_rules: priorityRules };
        assert.equal((await t.request('PUT', `${BASE}/merge-queue/configuration`, { body })).status, 200);
      };
      await configure([{ name: 'everyone', priority: 'medium', labels: [] }]);
      const read = async (name: string, method: string, path: string, schema: string, body?: unknown) => {
        const answer = await t.request(method, path, body === undefined ? {} : { body });
        assert.ok(answer.status < 300, `${name}: ${answer.status} ${answer.text}`);
        reads.push([name, schema, answer.json]);
        return answer.json;
      };
      await read('enter, rule matched', 'PUT', `${BASE}/merge-queue/pull/${pulls[0]!.number}`, 'MergeQueuePullRequest', {});
      await configure([]);
      await read('enter, no rule', 'PUT', `${BASE}/merge-queue/pull/${pulls[1]!.number}`, 'MergeQueuePullRequest', {});
      await read('enter, priority asked', 'PUT', `${BASE}/merge-queue/pull/${pulls[2]!.number}`, 'MergeQueuePullRequest', { priority: 'low' });
      await until('two batches running', async () => {
        const status = await t.request('GET', `${BASE}/merge-queue/status?branch=main`);
        return status.json.batches.filter((batch: any) => batch.status.code === 'running').length === 2;
      }, 60_000);
      await read('status', 'GET', `${BASE}/merge-queue/status?branch=main`, 'MergeQueueStatus');
      for (const pull of pulls) await read(`pull #${pull.number}`, 'GET', `${BASE}/merge-queue/pull/${pull.number}`, 'MergeQueuePullRequest');
      await read('dequeue impact', 'GET', `${BASE}/merge-queue/pull/${pulls[0]!.number}/dequeue-impact`, 'MergeQueueDequeueImpact');
      await read('queues', 'GET', `${BASE}/queues`, 'Queues');
      await read('branches', 'GET', `${BASE}/merge-queue/branches`, 'MergeQueueBranches');
      await read('base refs', 'GET', `${BASE}/queues/branches`, 'BaseRefsResponse');
      await read('configuration', 'GET', `${BASE}/queues/configuration`, 'QueuesConfig');
      await read('pause, none', 'GET', `${BASE}/merge-queue/pause`, 'MergeQueuePauseResponse');
      await read('pause', 'PUT', `${BASE}/merge-queue/pause`, 'MergeQueuePauseResponse', { reason: 'release' });
      await read('pause, older path', 'GET', `${BASE}/queue/pause`, 'QueuePauseResponse');
      await read('status, paused', 'GET', `${BASE}/merge-queue/status?branch=main`, 'MergeQueueStatus');
      await read('freeze', 'POST', `${BASE}/scheduled_freeze`, 'ScheduledFreezeObjectResponse', { reason: 'quiet', start: null, timezone: 'UTC', matching_conditions: ['base=main'] });
      await read('freezes', 'GET', `${BASE}/scheduled_freeze`, 'GetScheduledFreezesResponse');
    });
    after(() => t.close());

    test('every read fits its public schema, with no null where the document wants a value', () => {
      for (const [name, schema, body] of reads) assert.equal(publicShapeProblem(schema, body), undefined, name);
    });

    test('priority_rule_name: the matching rule, else the public default', () => {
      const names = reads.filter(([name]) => name.startsWith('enter')).map(([, , body]) => (body as any).priority_rule_name);
      assert.deepEqual(names, ['everyone', '<default>', '<default>']);
      const status = reads.find(([name]) => name === 'status')![2] as any;
      const byNumber = new Map(status.batches.flatMap((batch: any) => batch.pull_requests).map((pull: any) => [String(pull.number), pull]));
      assert.equal((byNumber.get(String(pulls[0]!.number)) as any).priority_rule_name, 'everyone');
    });

    test("url: the pull request's page as the platform's webhooks told it", () => {
      const status = reads.find(([name]) => name === 'status')![2] as any;
      const shown = status.batches.flatMap((batch: any) => batch.pull_requests);
      assert.equal(shown.length, 3);
      for (const pull of shown) assert.equal(pull.url, `${t.hosting.url}/${REPO}/pull/${pull.number}`);
    });

    test('the check cannot pass on null: a null url or priority rule is a problem', () => {
      const status = structuredClone(reads.find(([name]) => name === 'status')![2]) as any;
      const pull = status.batches[0].pull_requests[0];
      for (const field of ['url', 'priority_rule_name']) {
        const broken = structuredClone(status);
        broken.batches[0].pull_requests[0][field] = null;
        assert.ok(publicShapeProblem('MergeQueueStatus', broken), `${field}: null refused`);
      }
      const entered = structuredClone(reads[0]![2]) as any;
      entered.priority_rule_name = null;
      assert.ok(publicShapeProblem('MergeQueuePullRequest', entered));
      assert.ok(pull);
    });
  });
}
