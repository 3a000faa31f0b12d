// The merge queue's HTTP surface (DESIGN.md §9) on each backend: entering by API and every
// refusal, the public reads (status, pull, queues, branches, dequeue impact) valid against the
// public merge-queue document, dequeuing, rights (§3), 64-bit pull request numbers, and the
// activity log a scripted sequence leaves.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson } from '../../src/json/exact-json.ts';
import { backends } from '../support/backends.ts';
import { referenceMissing, referenceProblems } from '../support/public-reference.ts';
import { changedTables, stateChecksum } from '../support/state-checksum.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const HEAD = 'ab'.repeat(20);
const BATCH_CODES = ['running', 'bisecting', 'preparing', 'failed', 'merged', 'waiting_for_merge', 'waiting_for_previous_batches', 'waiting_for_requeue', 'waiting_schedule', 'waiting_for_batch', 'waiting_for_checks_slot', 'frozen'];

for (const backend of await backends()) {
  describe(`merge queue API (${backend})`, () => {
    let t: TestApp;
    const queue = (repository: string) => `/v1/repos/acme/${repository}/merge-queue`;

    async function register(repository: string): Promise<void> {
      assert.equal((await t.request('PUT', `/v1/admin/repos/acme/${repository}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/acme/${repository}`, { body: { products: ['merge_queue'] } })).status, 204);
    }
    async function record(repository: string, number: number | bigint, state = 'open', base = 'main'): Promise<void> {
      const answer = await t.request('PUT', `/v1/admin/repos/acme/${repository}/pulls/${number}`, { body: { state, head_sha: HEAD, base_ref: base } });
      assert.equal(answer.status, 204, answer.text);
    }
    /** What the hosting platform's webhooks will tell (title, author, labels, draft), written as they would store it. */
    async function describePull(repository: string, number: number, facts: { title?: string; author?: [string, number]; labels?: string[]; draft?: boolean }): Promise<void> {
      const repo = await t.store.repositories.identify('acme', repository);
      await t.store.db
        .updateTable('pull_requests')
        .set({
          ...(facts.title !== undefined && { title: facts.title }),
          ...(facts.author && { author_login: facts.author[0], author_id: String(facts.author[1]) }),
          ...(facts.labels && { labels: facts.labels }),
          ...(facts.draft !== undefined && { draft: facts.draft }),
        })
        .where('repository_id', '=', repo!.id)
        .where('number', '=', String(number))
        .execute();
    }
    const enter = (repository: string, number: number | bigint | string, body: unknown = {}, token?: string) => t.request('PUT', `${queue(repository)}/pull/${number}`, { body, token });
    const assertValid = (schema: string, body: unknown) => {
      if (referenceMissing) return;
      assert.deepEqual(referenceProblems(schema, body), [], `${schema}: ${JSON.stringify(body)}`);
    };

    before(async () => {
      t = await startTestApp(backend);
    });
    after(() => t.close());

    test('entering by API answers 202 with the public MergeQueuePullRequest', async (context) => {
      if (referenceMissing) context.diagnostic(`reference checks skipped: ${referenceMissing}`);
      await register('entry');
      await record('entry', 1);
      const answer = await enter('entry', 1);
      assert.equal(answer.status, 202, answer.text);
      const body = answer.json;
      assertValid('MergeQueuePullRequest', body);
      assert.equal(body.number, 1);
      assert.equal(body.position, 0);
      assert.equal(body.queue_rule_name, 'default');
      assert.equal(body.queue_rule.name, 'default');
      assert.equal(body.queue_rule.config.checks_timeout, 3600);
      assert.equal(body.queue_rule.config.name, undefined);
      assert.equal(body.priority_rule_name, '<default>', 'no priority rule: the public default, never null');
      assert.equal(body.mergeability_check, null, 'nothing checks it yet');
      assert.equal(body.checks_timeout_at, null);
      // No check has ever ended in this queue: the estimate is the rule's checks_timeout from now.
      const wait = Date.parse(body.estimated_time_of_merge) - Date.parse(body.queued_at);
      assert.ok(wait >= 3_600_000 && wait < 3_660_000, `estimated ${wait} ms after queued_at`);
    });

    test('every refused entry answers why and writes nothing', async () => {
      await register('refusals');
      await record('refusals', 2, 'closed');
      await record('refusals', 3, 'merged');
      await record('refusals', 4);
      await describePull('refusals', 4, { draft: true });
      await record('refusals', 5);
      assert.equal((await enter('refusals', 5)).status, 202);
      const cases: [string, number | string, unknown, number, (json: any) => void][] = [
        ['unknown pull request', 1, {}, 409, (json) => assert.match(json.detail, /no record of pull request #1/)],
        ['closed', 2, {}, 409, (json) => assert.match(json.detail, /#2 is closed/)],
        ['merged', 3, {}, 409, (json) => assert.match(json.detail, /#3 is merged/)],
        ['draft', 4, {}, 409, (json) => assert.match(json.detail, /#4 is a draft/)],
        ['already queued', 5, {}, 409, (json) => assert.match(json.detail, /#5 is already in the merge queue/)],
        ['unknown queue rule', 5, { queue_rule: 'nightly' }, 422, (json) => assert.deepEqual(json.detail.map((i: any) => [i.loc, i.type]), [[['body', 'queue_rule'], 'queue_rule_unknown']])],
        ['bad priority', 5, { priority: 'urgent' }, 422, (json) => assert.deepEqual(json.detail[0].loc, ['body', 'priority'])],
        ['unknown field', 5, { queue_rul: 'default' }, 422, (json) => assert.equal(json.detail[0].loc[0], 'body')],
        ['not a body object', 5, [], 422, (json) => assert.equal(json.detail[0].loc[0], 'body')],
        ['number not an integer', 'five', {}, 422, (json) => assert.deepEqual(json.detail[0].loc, ['path', 'pr_number'])],
        ['number over 2^63-1', '9223372036854775808', {}, 422, (json) => assert.deepEqual(json.detail[0].loc, ['path', 'pr_number'])],
      ];
      for (const [what, number, body, status, check] of cases) {
        const before = await stateChecksum(t.store);
        const answer = await enter('refusals', number, body);
        assert.equal(answer.status, status, `${what}: ${answer.text}`);
        check(answer.json);
        assert.deepEqual(changedTables(before, await stateChecksum(t.store)), [], `${what} wrote`);
      }
      const unknownRepository = await enter('nowhere', 5);
      assert.deepEqual([unknownRepository.status, unknownRepository.json], [404, { detail: 'Repository not found' }]);
      // Once open again, the closed one may enter.
      await record('refusals', 2);
      assert.equal((await enter('refusals', 2)).status, 202);
    });

    test('status: batches in plan order, in the public MergeQueueStatus shape', async () => {
      await register('status');
      for (const number of [11, 12, 13]) {
        await record('status', number);
        await describePull('status', number, { title: `Change ${number}`, author: ['alice', 4242], labels: ['backend'] });
      }
      for (const [number, body] of [[11, {}], [12, {}], [13, { priority: 'high' }]] as const) assert.equal((await enter('status', number, body)).status, 202);
      const answer = await t.request('GET', `${queue('status')}/status?branch=main`);
      assert.equal(answer.status, 200, answer.text);
      const status = answer.json;
      assertValid('MergeQueueStatus', status);
      assert.equal(status.mode, 'serial');
      assert.deepEqual(status.waiting_pull_requests, []);
      assert.equal(status.pause, null);
      assert.deepEqual(status.scope_queues, {}, 'a serial queue has no scopes');
      assert.deepEqual(status.batches.map((b: any) => b.pull_requests.map((p: any) => p.number)), [[13], [11], [12]], 'high priority first, then entry order');
      assert.deepEqual(status.batches.map((b: any) => b.parent_ids), [[], [status.batches[0].id], [status.batches[1].id]], 'serial: a chain');
      for (const batch of status.batches) {
        assert.ok(BATCH_CODES.includes(batch.status.code), batch.status.code);
        assert.equal(batch.started_at, null, 'proposed, not started');
        assert.equal(batch.ci_finished_at, null);
        assert.deepEqual(batch.checks_summary, { passed: 0, total: 0 });
        assert.equal(batch.sub_batches, null);
      }
      const merges = status.batches.map((b: any) => Date.parse(b.estimated_merge_at));
      assert.ok(merges[0] < merges[1] && merges[1] < merges[2], `each batch merges after its parent: ${merges}`);
      const pull = status.batches[0].pull_requests[0];
      assert.deepEqual(
        [pull.title, pull.author, pull.labels, pull.priority_alias, pull.scopes, pull.all_scopes, pull.url],
        // No webhook told its page: the platform's usual address of it (SWITCHYARD_HOSTING_WEB_URL).
        ['Change 13', { id: 4242, login: 'alice' }, ['backend'], 'high', [], null, 'https://github.com/acme/status/pull/13'],
      );
      const defaulted = await t.request('GET', `${queue('status')}/status`);
      assert.deepEqual(defaulted.json, { ...status, batches: defaulted.json.batches }, 'without branch: its only active branch');
      assert.deepEqual(defaulted.json.batches.map((b: any) => b.id), status.batches.map((b: any) => b.id));
      const unused = await t.request('GET', `${queue('status')}/status?branch=release`);
      assert.deepEqual([unused.status, unused.json.batches, unused.json.waiting_pull_requests], [200, [], []]);
      assert.equal((await t.request('GET', `${queue('status')}/status?branch=main&brnach=x`)).status, 422);
      assert.deepEqual((await t.request('GET', `${queue('nowhere')}/status`)).json, { detail: 'Repository not found' });
    });

    test('status in parallel mode: scope queues, pull requests waiting for scopes, priority rules, the pause', async () => {
      await register('controlled');
      const configured = await t.request('PUT', '/v1/repos/acme/controlled/merge-queue/configuration', {
        body: { merge_queue: { mode: 'parallel' }, priority_rules: [{ name: 'hotfix', priority: 'high', labels: ['hotfix'] }] },
      });
      assert.equal(configured.status, 200, configured.text);
      for (const number of [61, 62, 63]) await record('controlled', number);
      await describePull('controlled', 62, { labels: ['hotfix'] });
      for (const [number, scope] of [[61, 'api'], [62, 'web']] as const) assert.equal((await t.request('PUT', `/v1/repos/acme/controlled/pulls/${number}/scopes`, { body: { scopes: [scope] } })).status, 204);
      for (const number of [61, 62, 63]) assert.equal((await enter('controlled', number)).status, 202);
      const status = (await t.request('GET', `${queue('controlled')}/status?branch=main`)).json;
      assertValid('MergeQueueStatus', status);
      assert.equal(status.mode, 'parallel');
      assert.deepEqual(status.batches.map((b: any) => [b.pull_requests.map((p: any) => p.number), b.scopes, b.parent_ids]), [[[62], ['web'], []], [[61], ['api'], []]], 'the hotfix first; disjoint scopes: no parents');
      assert.deepEqual(status.scope_queues, { web: [status.batches[0].id], api: [status.batches[1].id] });
      assert.deepEqual([status.batches[0].pull_requests[0].priority_rule_name, status.batches[0].pull_requests[0].priority_alias], ['hotfix', 'high']);
      assert.deepEqual(status.waiting_pull_requests.map((p: any) => [p.number, p.scopes, p.all_scopes, p.estimated_merge_at]), [[63, [], null, null]]);
      assert.equal((await t.request('GET', `${queue('controlled')}/pull/63`)).json.position, 2);

      assert.equal((await t.request('PUT', `${queue('controlled')}/pause`, { body: { reason: 'release' } })).status, 200);
      const paused = (await t.request('GET', `${queue('controlled')}/status`)).json;
      assertValid('MergeQueueStatus', paused);
      assert.deepEqual([paused.pause.paused, paused.pause.reason, typeof paused.pause.paused_at], [true, 'release', 'string']);
      assert.deepEqual(paused.batches.map((b: any) => b.estimated_merge_at), [null, null], 'a paused queue merges nothing');
    });

    test('without branch, status reads the only branch with pull requests queued', async () => {
      await register('release-only');
      await record('release-only', 1, 'open', 'release/2.0');
      assert.equal((await enter('release-only', 1)).status, 202);
      const status = (await t.request('GET', `${queue('release-only')}/status`)).json;
      assert.deepEqual(status.batches.map((b: any) => b.pull_requests.map((p: any) => p.number)), [[1]]);
    });

    test('a queued pull request, the queues, the branches and the dequeue impact in their public shapes', async () => {
      await register('reads');
      for (const [number, base] of [[21, 'main'], [22, 'main'], [23, 'release']] as const) await record('reads', number, 'open', base);
      for (const [number, body] of [[21, {}], [22, { priority: 'low' }], [23, {}]] as const) assert.equal((await enter('reads', number, body)).status, 202);

      const pull = await t.request('GET', `${queue('reads')}/pull/22`);
      assert.equal(pull.status, 200, pull.text);
      assertValid('MergeQueuePullRequest', pull.json);
      assert.deepEqual([pull.json.number, pull.json.position, pull.json.queue_rule_name], [22, 1, 'default']);

      const queues = await t.request('GET', '/v1/repos/acme/reads/queues');
      assert.equal(queues.status, 200, queues.text);
      assertValid('Queues', queues.json);
      assert.deepEqual(
        queues.json.queues.map((q: any) => [q.branch.name, q.pull_requests.map((p: any) => [p.number, p.position, p.priority, p.priority_alias, p.partition_name])]),
        [['main', [[21, 0, 2000, 'medium', '__default__'], [22, 1, 1000, 'low', '__default__']]], ['release', [[23, 0, 2000, 'medium', '__default__']]]],
      );

      const branches = await t.request('GET', `${queue('reads')}/branches`);
      assertValid('MergeQueueBranches', branches.json);
      assert.deepEqual(branches.json, { branches: ['main', 'release'] });
      const baseRefs = await t.request('GET', '/v1/repos/acme/reads/queues/branches');
      assertValid('BaseRefsResponse', baseRefs.json);
      assert.deepEqual(baseRefs.json, { base_refs: ['main', 'release'] });
      const longAgo = await t.request('GET', '/v1/repos/acme/reads/queues/branches?start_at=2020-01-01T00:00:00Z&end_at=2020-01-02T00:00:00Z');
      assert.deepEqual(longAgo.json, { base_refs: [] });
      const backwards = await t.request('GET', '/v1/repos/acme/reads/queues/branches?start_at=2030-01-02T00:00:00Z&end_at=2020-01-01T00:00:00Z');
      assert.deepEqual([backwards.status, backwards.json], [200, { base_refs: [] }], 'an empty window');
      assert.equal(baseRefs.headers.get('deprecation'), 'true');
      assert.equal(queues.headers.get('deprecation'), 'true');
      assert.equal(branches.headers.get('deprecation'), null);

      const impact = await t.request('GET', `${queue('reads')}/pull/21/dequeue-impact`);
      assert.equal(impact.status, 200, impact.text);
      assertValid('MergeQueueDequeueImpact', impact.json);
      assert.deepEqual(impact.json, { interrupted_batches: 0, rechecked_pull_requests: 0, cascaded_pull_requests: 0 }, 'no batch has started');

      for (const path of [`${queue('reads')}/pull/99`, `${queue('reads')}/pull/99/dequeue-impact`]) {
        const missing = await t.request('GET', path);
        assert.deepEqual([missing.status, missing.json.detail], [404, 'The pull request is not in the merge queue.'], path);
      }
      assert.deepEqual((await t.request('GET', `${queue('nowhere')}/pull/21`)).json, { detail: 'Repository not found' });
    });

    test('dequeue: 204, then the pull request is no longer queued and its place is taken', async () => {
      await register('leaving');
      for (const number of [31, 32]) await record('leaving', number);
      for (const number of [31, 32]) assert.equal((await enter('leaving', number)).status, 202);
      const left = await t.request('POST', `${queue('leaving')}/pull/31/dequeue`);
      assert.deepEqual([left.status, left.text], [204, '']);
      assert.equal((await t.request('GET', `${queue('leaving')}/pull/31`)).status, 404);
      assert.equal((await t.request('GET', `${queue('leaving')}/pull/32`)).json.position, 0);
      const again = await t.request('POST', `${queue('leaving')}/pull/31/dequeue`);
      assert.deepEqual([again.status, again.json.detail], [404, 'The pull request is not in the merge queue.']);
      assert.equal((await enter('leaving', 31)).status, 202, 'it may enter again');
      assert.equal((await t.request('GET', `${queue('leaving')}/pull/31`)).json.position, 1);
    });

    test('rights: ci keys nothing; hosting users read with pull rights and act with push rights', async () => {
      await register('rights');
      for (const number of [41, 42]) await record('rights', number);
      const ciKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } })).json.key;
      t.hosting.users.set('mq-reader', { login: 'reader', id: 7, repos: { 'acme/rights': { admin: false, pull: true } } });
      t.hosting.users.set('mq-pusher', { login: 'pusher', id: 8, repos: { 'acme/rights': { admin: false, pull: true, push: true } } });
      assert.equal((await t.request('GET', `${queue('rights')}/status`, { token: ciKey })).status, 403);
      assert.equal((await enter('rights', 41, {}, ciKey)).status, 403);
      assert.equal((await t.request('GET', `${queue('rights')}/status`, { token: 'mq-reader' })).status, 200);
      assert.equal((await t.request('GET', `${queue('rights')}/branches`, { token: 'mq-reader' })).status, 200);
      const refused = await enter('rights', 41, {}, 'mq-reader');
      assert.deepEqual([refused.status, refused.json.detail], [403, 'The credential has no rights on this owner or repository.']);
      assert.equal((await enter('rights', 41, {}, 'mq-pusher')).status, 202);
      assert.equal((await t.request('GET', `${queue('rights')}/pull/41`, { token: 'mq-reader' })).status, 200);
      assert.equal((await t.request('POST', `${queue('rights')}/pull/41/dequeue`, { token: 'mq-reader' })).status, 403);
      assert.equal((await t.request('POST', `${queue('rights')}/pull/41/dequeue`, { token: 'mq-pusher' })).status, 204);
    });

    test('a pull request numbered 2^63-1 round-trips exactly', async () => {
      const big = 9223372036854775807n;
      await register('big');
      await record('big', big);
      const entered = await enter('big', big);
      assert.equal(entered.status, 202, entered.text);
      assert.match(entered.text, /"number":9223372036854775807[,}]/);
      assert.equal((parseJson(entered.text) as { number: bigint }).number, big);
      const pull = await t.request('GET', `${queue('big')}/pull/${big}`);
      assert.equal((parseJson(pull.text) as { number: bigint }).number, big);
      const status = parseJson((await t.request('GET', `${queue('big')}/status`)).text) as any;
      assert.equal(status.batches[0].pull_requests[0].number, big);
      const queues = parseJson((await t.request('GET', '/v1/repos/acme/big/queues')).text) as any;
      assert.equal(queues.queues[0].pull_requests[0].number, big);
      assert.equal((await t.request('GET', `${queue('big')}/pull/${big - 1n}`)).status, 404, 'not rounded onto a neighbour');
      assert.equal((await t.request('POST', `${queue('big')}/pull/${big}/dequeue`)).status, 204);
      const events = parseJson((await t.request('GET', '/v1/repos/acme/big/logs?event_type=action.queue.leave')).text) as any;
      assert.deepEqual(events.events.map((e: any) => e.pull_request), [big]);
    });

    test('the activity log holds exactly the events of a scripted sequence', async () => {
      await register('logbook');
      for (const number of [51, 52, 53]) await record('logbook', number);
      for (const number of [51, 52, 53]) assert.equal((await enter('logbook', number)).status, 202);
      assert.equal((await t.request('POST', `${queue('logbook')}/pull/52/dequeue`)).status, 204);
      const answer = await t.request('GET', '/v1/repos/acme/logbook/logs?per_page=100');
      assert.equal(answer.status, 200, answer.text);
      // The product.enabled of the set-up is the first event; the queue's follow.
      const events = [...answer.json.events].reverse().filter((e: any) => !e.type.startsWith('product.'));
      assert.deepEqual(
        events.map((e: any) => [e.type, e.pull_request, e.type === 'action.queue.change' ? e.metadata.size : null]),
        [
          ['action.queue.enter', 51, null],
          ['action.queue.change', null, 1],
          ['action.queue.enter', 52, null],
          ['action.queue.change', null, 2],
          ['action.queue.enter', 53, null],
          ['action.queue.change', null, 3],
          ['action.queue.leave', 52, null],
          ['action.queue.change', null, 2],
        ],
      );
      const entered = events.find((e: any) => e.type === 'action.queue.enter' && e.pull_request === 52);
      const leave = events.find((e: any) => e.type === 'action.queue.leave');
      assert.equal(leave.metadata.dequeue_code, 'PR_MANUALLY_DEQUEUED');
      assert.equal(leave.metadata.merged, false);
      assert.equal(leave.outcome, 'failure');
      assert.equal(leave.metadata.session_id, entered.metadata.session_id);
      assert.notEqual(entered.metadata.session_id, events[0].metadata.session_id, 'one session per stay');
      assert.ok(events.every((e: any) => e.base_ref === 'main' && e.trigger === 'merge queue API'));
    });
  });
}
