// Issue 15's acceptance scene: 20 pull requests over 4 scopes in parallel mode, batches of 4, one
// culprit. Bisection must find exactly the culprit, the other 19 land once each, the base holds
// exactly their changes, and the activity log tells the whole story, field by field. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { failWhenAllPresent } from '../support/fake-platform/fake-ci.ts';
import { queueEvents, until, type LoggedEvent } from '../support/merge-queue-e2e.ts';

const REPO = 'acme/monorepo';
const SCOPES = ['api', 'web', 'docs', 'infra'];
const CULPRIT_INDEX = 6; // the 7th pull request, in scope "docs"

for (const backend of await backends()) {
  describe(`merge queue: 20 pull requests, 4 scopes, parallel, one culprit (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {} });
      await t.hosting.createRepository({ owner: 'acme', name: 'monorepo', files: { 'README.md': 'monorepo\n' } });
      t.hosting.createUser('alice');
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      t.hosting.ci.configure({ delayMs: 100, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: failWhenAllPresent(['culprit.flag']) }] });
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
      const configured = await t.request('PUT', `/v1/repos/${REPO}/merge-queue/configuration`, {
        body: { merge_queue: { mode: 'parallel', max_parallel_checks: 8 }, queue_rules: [{ name: 'default', batch_size: 4, batch_max_wait_time: 2, required_checks: ['ci/test'] }] },
      });
      assert.equal(configured.status, 200, configured.text);
    });
    after(() => t.close());

    test('bisection finds exactly the culprit; the other 19 merge once each', async () => {
      const pulls: { number: bigint; scope: string; culprit: boolean; headSha: string; file: string }[] = [];
      for (let i = 0; i < 20; i++) {
        const scope = SCOPES[i % 4]!;
        const culprit = i === CULPRIT_INDEX;
        const file = `${scope}/change-${i}.txt`;
        const opened = await t.hosting.openPullRequest({ repo: REPO, changes: { [file]: `${i}\n`, ...(culprit ? { 'culprit.flag': '' } : {}) }, author: 'alice' });
        pulls.push({ number: opened.number, scope, culprit, headSha: opened.headSha, file });
      }
      await t.hosting.webhooks.settled();
      for (const pull of pulls) {
        const reported = await t.request('PUT', `/v1/repos/${REPO}/pulls/${pull.number}/scopes`, { body: { scopes: [pull.scope] } });
        assert.equal(reported.status, 204, reported.text);
      }
      for (const pull of pulls) assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pull/${pull.number}`, { body: {} })).status, 202);

      const leaves = async () => (await queueEvents(t, REPO)).filter((e) => e.type === 'action.queue.leave');
      await until('every pull request left the queue', async () => (await leaves()).length === 20, 900_000).catch(async (error: unknown) => {
        const status = await t.request('GET', `/v1/repos/${REPO}/merge-queue/status?branch=main`);
        const counts = new Map<string, number>();
        for (const event of await queueEvents(t, REPO)) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
        throw new Error(`${(error as Error).message}; events ${JSON.stringify([...counts])}; status ${status.text}`);
      });

      const culprit = pulls[CULPRIT_INDEX]!;
      const log = await queueEvents(t, REPO);
      const leaveOf = new Map(log.filter((e) => e.type === 'action.queue.leave').map((e) => [String(e.pull_request), e]));
      for (const pull of pulls) {
        const leave = leaveOf.get(String(pull.number))!;
        assert.equal(leave.metadata.dequeue_code, pull.culprit ? 'CHECKS_FAILED' : 'PR_MERGED', `#${pull.number}`);
        assert.equal(t.hosting.pullRequest(REPO, pull.number).merged, !pull.culprit, `#${pull.number} merged on the platform`);
      }

      // The base holds exactly the 19 changes, each merged once.
      const files = await t.hosting.files(REPO, 'main');
      assert.deepEqual([...files.keys()].sort(), ['README.md', ...pulls.filter((p) => !p.culprit).map((p) => p.file)].sort());
      const merges = t.hosting.mutations().filter((r) => r.url.endsWith('/merge') && r.method === 'PUT' && r.status === 200);
      const mergedNumbers = merges.map((r) => r.url.split('/').at(-2));
      assert.equal(mergedNumbers.length, 19);
      assert.equal(new Set(mergedNumbers).size, 19, 'no pull request merged twice');

      checkStory(log, pulls, culprit.number);
    });

    test('a batch depending on two batches starts from one\'s commit and merges the other\'s, not each pull request ahead', async () => {
      const repo = 'acme/lanes';
      await t.hosting.createRepository({ owner: 'acme', name: 'lanes', files: { 'README.md': 'lanes\n' } });
      t.hosting.grant(repo, QUEUE_BOT, 'write');
      assert.equal((await t.request('PUT', `/v1/admin/repos/${repo}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${repo}`, { body: { products: ['merge_queue'] } })).status, 204);
      const body = { merge_queue: { mode: 'parallel', max_parallel_checks: 3 }, queue_rules: [{ name: 'default', batch_size: 1, required_checks: ['ci/test'] }] };
      assert.equal((await t.request('PUT', `/v1/repos/${repo}/merge-queue/configuration`, { body })).status, 200);
      // Slow enough that the batch depending on both is built while they still run.
      t.hosting.ci.configure({ delayMs: 1500, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test' }] });
      const specs = [{ file: 'api.txt', scopes: ['api'] }, { file: 'web.txt', scopes: ['web'] }, { file: 'both.txt', scopes: ['api', 'web'] }];
      const pulls: { file: string; scopes: string[]; number: bigint }[] = [];
      for (const spec of specs) pulls.push({ ...spec, ...(await t.hosting.openPullRequest({ repo, changes: { [spec.file]: 'x\n' }, author: 'alice' })) });
      await t.hosting.webhooks.settled();
      for (const pull of pulls) assert.equal((await t.request('PUT', `/v1/repos/${repo}/pulls/${pull.number}/scopes`, { body: { scopes: pull.scopes } })).status, 204);
      for (const pull of pulls) assert.equal((await t.request('PUT', `/v1/repos/${repo}/merge-queue/pull/${pull.number}`, { body: {} })).status, 202);
      try {
        await until('every pull request merged', async () => pulls.every((pull) => t.hosting.pullRequest(repo, pull.number).merged), 120_000);
      } finally {
        t.hosting.ci.configure({ delayMs: 100, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: failWhenAllPresent(['culprit.flag']) }] });
      }
      const drafts = [...t.hosting.repo(repo).pulls.values()].filter((p) => p.user.login === QUEUE_BOT);
      assert.equal(drafts.length, 3);
      const last = drafts.at(-1)!;
      assert.deepEqual([...(await t.hosting.files(repo, last.headSha)).keys()].sort(), ['README.md', 'api.txt', 'both.txt', 'web.txt']);
      const merges = t.hosting.mutations().filter((r) => r.method === 'POST' && r.url === `/repos/${repo}/merges`);
      const parentHeads = new Set(drafts.slice(0, 2).map((d) => d.headSha));
      assert.equal(merges.filter((r) => parentHeads.has(String(r.body?.head))).length, 1, 'the other parent\'s commit merged in once');
      assert.equal(merges.length, 4, 'a merge per pull request, and one of a parent\'s commit');
      assert.equal(t.hosting.ci.runs.filter((run) => run.repository === repo).length, 3, 'one CI run per batch');
    });
  });
}

/** Walks the log: each stay's events in order, every field the spec names filled truthfully. */
function checkStory(log: LoggedEvent[], pulls: { number: bigint; scope: string; culprit: boolean; headSha: string }[], culprit: bigint): void {
  const drafts = new Set<string>();
  for (const pull of pulls) {
    const mine = log.filter((e) => String(e.pull_request) === String(pull.number));
    const types = mine.map((e) => e.type);
    assert.equal(types[0], 'action.queue.enter');
    assert.equal(types.at(-1), 'action.queue.leave');
    const enter = mine[0]!;
    const session = enter.metadata.session_id;
    assert.deepEqual([enter.metadata.branch, enter.metadata.queue_name, enter.metadata.priority_rule_name], ['main', 'default', null]);
    for (const event of mine) if ('session_id' in event.metadata) assert.equal(event.metadata.session_id, session, `${event.type} of #${pull.number} in the stay`);
    // checks_start and checks_end alternate, batch by batch.
    const checks = mine.filter((e) => e.type === 'action.queue.checks_start' || e.type === 'action.queue.checks_end');
    assert.ok(checks.length >= 2, `#${pull.number} was checked`);
    for (let i = 0; i < checks.length; i += 2) {
      const [start, end] = [checks[i]!, checks[i + 1]!];
      assert.equal(start.type, 'action.queue.checks_start');
      assert.equal(end?.type, 'action.queue.checks_end');
      assert.equal(end.metadata.batch_id, start.metadata.batch_id);
      assert.equal(start.metadata.train_car_id, start.metadata.batch_id);
      assert.ok(start.metadata.pull_request_numbers.map(String).includes(String(pull.number)));
      assert.equal(start.metadata.all_scopes, false);
      assert.deepEqual(start.metadata.scopes, [pull.scope]);
      const spec = start.metadata.speculative_check_pull_request;
      assert.equal(spec.in_place, false);
      assert.equal(spec.checks_conclusion, 'pending');
      assert.equal(end.metadata.speculative_check_pull_request.number, spec.number);
      assert.ok(Number(spec.number) > 20, 'the check runs on a draft pull request of its own');
      drafts.add(`${start.metadata.batch_id}:${spec.number}`);
      if (!end.metadata.aborted) assert.ok(['success', 'failure'].includes(end.metadata.speculative_check_pull_request.checks_conclusion));
      else assert.ok(end.metadata.abort_code, 'an aborted check says why');
    }
    const lastEnd = checks.at(-1)!;
    const leave = mine.at(-1)!;
    assert.equal(leave.metadata.batch_id, lastEnd.metadata.batch_id);
    assert.deepEqual(leave.metadata.scopes, [pull.scope]);
    assert.equal(leave.metadata.all_scopes, false);
    assert.equal(leave.metadata.pull_request_head_sha, pull.headSha);
    assert.equal(leave.metadata.merged, !pull.culprit);
    if (pull.culprit) {
      assert.equal(lastEnd.metadata.speculative_check_pull_request.checks_conclusion, 'failure');
      assert.deepEqual(leave.metadata.unsuccessful_checks.map((c: { name: string }) => c.name), ['ci/test']);
      assert.equal(lastEnd.metadata.pull_request_numbers.length, 1, 'the culprit is last checked alone');
    } else {
      assert.equal(lastEnd.metadata.speculative_check_pull_request.checks_conclusion, 'success');
      const merged = mine.at(-2)!;
      assert.equal(merged.type, 'action.queue.merged');
      assert.match(merged.metadata.merge_commit_sha, /^[0-9a-f]{40}$/);
    }
  }
  // The culprit's batch was bisected: the bisection events name it, and only it.
  const ends = log.filter((e) => e.type === 'action.queue.batch_bisection_end' && e.metadata.culprit_found);
  assert.ok(ends.length > 0, 'a bisection ended with a culprit');
  for (const end of ends) assert.deepEqual(end.metadata.culprit_pr_numbers.map(String), [String(culprit)]);
  const starts = log.filter((e) => e.type === 'action.queue.batch_bisection_start');
  assert.ok(starts.some((e) => e.metadata.is_top_level && e.metadata.bisection_depth === 1 && e.metadata.number_of_sub_batches === 2));
  assert.ok(starts.every((e) => e.metadata.original_batch_pr_numbers.map(String).includes(String(e.pull_request))));
  // One draft pull request per checked batch attempt, never two for one batch.
  const byBatch = new Map<string, Set<string>>();
  for (const key of drafts) {
    const [batch, number] = key.split(':') as [string, string];
    byBatch.set(batch, (byBatch.get(batch) ?? new Set()).add(number));
  }
  for (const [batch, numbers] of byBatch) assert.equal(numbers.size, 1, `batch ${batch} checked on one draft`);
}
