// The merge queue run end to end: pull requests queued by comment on the fake platform (real git
// repositories, signed webhooks, a fake CI), checked in batches on draft pull requests, merged
// pinned to the checked heads, and every step in the activity log. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { failWhenAllPresent } from '../support/fake-platform/fake-ci.ts';
import { queueEvents, until } from '../support/merge-queue-e2e.ts';

const REPO = 'acme/widgets';

for (const backend of await backends()) {
  describe(`merge queue on the hosting platform, serial (${backend})`, () => {
    let t: TestApp;
    let aliceToken: string;
    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {} });
      await t.hosting.createRepository({ owner: 'acme', name: 'widgets', files: { 'README.md': 'widgets\n' } });
      aliceToken = t.hosting.createUser('alice').token;
      t.hosting.createUser('mallory');
      t.hosting.grant(REPO, 'alice', 'write');
      t.hosting.grant(REPO, 'mallory', 'read');
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      t.hosting.ci.configure({ delayMs: 30, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: failWhenAllPresent(['a.flag', 'b.flag']) }] });
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
    });
    after(() => t.close());

    test('three pull requests queued by comment are checked and merged in order, each once', async () => {
      const pulls: { number: bigint; branch: string; headSha: string }[] = [];
      for (const name of ['one', 'two', 'three']) pulls.push(await t.hosting.openPullRequest({ repo: REPO, changes: { [`${name}.txt`]: `${name}\n` }, title: `Add ${name}`, author: 'alice' }));
      await t.hosting.webhooks.settled();
      for (const pull of pulls) t.hosting.comment(REPO, pull.number, 'alice', '@switchyard queue');
      await t.hosting.webhooks.settled();
      await until('every pull request merged', async () => pulls.every((pull) => t.hosting.pullRequest(REPO, pull.number).merged));
      const queueRefs = async () => [...(await t.hosting.repo(REPO).git.branches()).keys()].filter((branch) => branch.startsWith('switchyard'));
      const botPulls = () => [...t.hosting.repo(REPO).pulls.values()].filter((p) => p.user.login === QUEUE_BOT);
      await until('the queue cleaned up', async () => (await queueRefs()).length === 0 && botPulls().length === 3 && botPulls().every((p) => p.state === 'closed'));

      const files = await t.hosting.files(REPO, 'main');
      assert.deepEqual([...files.keys()].sort(), ['README.md', 'one.txt', 'three.txt', 'two.txt']);
      const merges = t.hosting.mutations().filter((r) => r.url.endsWith('/merge') && r.status === 200);
      assert.equal(merges.length, 3, 'each pull request merged once');
      const drafts = t.hosting.mutations().filter((r) => r.method === 'POST' && r.url.endsWith('/pulls') && r.status === 201);
      assert.equal(drafts.length, 3, 'one draft pull request per batch');
      // CI runs on the queue's branches: each batch's commit is built elsewhere and its branch
      // created once, at that commit, so each batch starts one run, on the head it checks.
      const ciRuns = t.hosting.ci.runs.filter((run) => run.repository === REPO);
      assert.deepEqual(ciRuns.map((run) => run.sha).sort(), botPulls().map((p) => p.headSha).sort(), 'one CI run per batch, on its head');
      const scratch = t.hosting.mutations().filter((r) => r.method === 'POST' && r.url.endsWith('/git/refs') && !String(r.body?.ref).startsWith('refs/heads/switchyard/merge-queue/'));
      assert.ok(scratch.length >= 3 && scratch.every((r) => String(r.body?.ref).startsWith('refs/heads/switchyard-tmp/')), 'commits are built outside the branches CI runs on');

      const log = await queueEvents(t, REPO);
      const types = (n: bigint) => log.filter((e) => String(e.pull_request) === String(n)).map((e) => e.type);
      for (const pull of pulls) {
        assert.deepEqual(types(pull.number), ['command.queue', 'action.queue.enter', 'action.queue.checks_start', 'action.queue.checks_end', 'action.queue.merged', 'action.queue.leave'], `events of #${pull.number}`);
        const enter = log.find((e) => e.type === 'action.queue.enter' && String(e.pull_request) === String(pull.number))!;
        const leave = log.find((e) => e.type === 'action.queue.leave' && String(e.pull_request) === String(pull.number))!;
        const start = log.find((e) => e.type === 'action.queue.checks_start' && String(e.pull_request) === String(pull.number))!;
        const merged = log.find((e) => e.type === 'action.queue.merged' && String(e.pull_request) === String(pull.number))!;
        assert.equal(leave.metadata.session_id, enter.metadata.session_id);
        assert.equal(leave.metadata.dequeue_code, 'PR_MERGED');
        assert.equal(leave.metadata.merged, true);
        assert.equal(leave.metadata.batch_id, start.metadata.batch_id);
        assert.equal(leave.metadata.pull_request_head_sha, pull.headSha);
        const draft = t.hosting.pullRequest(REPO, BigInt(start.metadata.speculative_check_pull_request.number));
        assert.equal(draft.draft, true);
        assert.equal(draft.state, 'closed');
        assert.match(merged.metadata.merge_commit_sha, /^[0-9a-f]{40}$/);
      }
      const command = log.find((e) => e.type === 'command.queue')!;
      assert.equal(command.metadata.author.login, 'alice');
    });

    test('speculative batches start from the commit of the batch ahead: one merge per pull request, one CI run per batch', async () => {
      const repo = 'acme/speculative';
      await t.hosting.createRepository({ owner: 'acme', name: 'speculative', files: { 'README.md': 'speculative\n' } });
      t.hosting.grant(repo, 'alice', 'write');
      t.hosting.grant(repo, QUEUE_BOT, 'write');
      assert.equal((await t.request('PUT', `/v1/admin/repos/${repo}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${repo}`, { body: { products: ['merge_queue'] } })).status, 204);
      const body = { merge_queue: { mode: 'serial', max_parallel_checks: 3 }, queue_rules: [{ name: 'default', batch_size: 2, batch_max_wait_time: 0 }] };
      assert.equal((await t.request('PUT', `/v1/repos/${repo}/merge-queue/configuration`, { body })).status, 200);
      // Slow enough that each batch is checked while the one ahead still runs.
      t.hosting.ci.configure({ delayMs: 1500, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: () => 'success' }] });
      const pulls: { number: bigint }[] = [];
      for (let i = 1; i <= 6; i++) pulls.push(await t.hosting.openPullRequest({ repo, changes: { [`f${i}.txt`]: `${i}\n` }, author: 'alice' }));
      await t.hosting.webhooks.settled();
      // Entered while paused, so that no batch starts before all six are queued (a slow machine
      // would otherwise start a batch of one between two entries).
      assert.equal((await t.request('PUT', `/v1/repos/${repo}/merge-queue/pause`, { body: { reason: 'filling' } })).status, 200);
      for (const pull of pulls) assert.equal((await t.request('PUT', `/v1/repos/${repo}/merge-queue/pull/${pull.number}`, { body: {} })).status, 202);
      assert.equal((await t.request('DELETE', `/v1/repos/${repo}/merge-queue/pause`)).status, 204);
      try {
        await until('every pull request merged', async () => pulls.every((pull) => t.hosting.pullRequest(repo, pull.number).merged), 120_000);
      } finally {
        t.hosting.ci.configure({ delayMs: 30, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: failWhenAllPresent(['a.flag', 'b.flag']) }] });
      }
      const drafts = [...t.hosting.repo(repo).pulls.values()].filter((p) => p.user.login === QUEUE_BOT);
      assert.equal(drafts.length, 3, 'three batches of two');
      // Batches were speculative: a later batch's commit holds the pull requests ahead of it.
      const held = await Promise.all(drafts.map(async (draft) => [...(await t.hosting.files(repo, draft.headSha)).keys()].filter((f) => f.startsWith('f')).length));
      assert.deepEqual(held.sort(), [2, 4, 6]);
      const merges = t.hosting.mutations().filter((r) => r.method === 'POST' && r.url === `/repos/${repo}/merges`);
      assert.equal(merges.length, 6, 'each pull request merged into one batch commit, not into every batch behind it');
      const ciRuns = t.hosting.ci.runs.filter((run) => run.repository === repo);
      assert.deepEqual(ciRuns.map((run) => run.sha).sort(), drafts.map((d) => d.headSha).sort(), 'one CI run per batch');
    });

    test('skip_intermediate_results: the batch behind passing merges the one ahead without its result', async () => {
      const repo = 'acme/skipping';
      await t.hosting.createRepository({ owner: 'acme', name: 'skipping', files: { 'README.md': 'skipping\n' } });
      t.hosting.grant(repo, 'alice', 'write');
      t.hosting.grant(repo, QUEUE_BOT, 'write');
      assert.equal((await t.request('PUT', `/v1/admin/repos/${repo}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${repo}`, { body: { products: ['merge_queue'] } })).status, 204);
      const body = { merge_queue: { mode: 'serial', max_parallel_checks: 2, skip_intermediate_results: true }, queue_rules: [{ name: 'default', batch_size: 1, batch_max_wait_time: 0 }] };
      assert.equal((await t.request('PUT', `/v1/repos/${repo}/merge-queue/configuration`, { body })).status, 200);
      // The first batch's checks never end; the second's, holding both, pass.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      t.hosting.ci.configure({ delayMs: 30, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: async (files): Promise<'success'> => (files.paths.has('g2.txt') ? 'success' : (await held, 'success')) }] });
      const first = await t.hosting.openPullRequest({ repo, changes: { 'g1.txt': '1\n' }, author: 'alice' });
      const second = await t.hosting.openPullRequest({ repo, changes: { 'g2.txt': '2\n' }, author: 'alice' });
      await t.hosting.webhooks.settled();
      for (const pull of [first, second]) assert.equal((await t.request('PUT', `/v1/repos/${repo}/merge-queue/pull/${pull.number}`, { body: {} })).status, 202);
      try {
        await until('both merged', async () => [first, second].every((pull) => t.hosting.pullRequest(repo, pull.number).merged), 60_000);
      } finally {
        release();
        t.hosting.ci.configure({ delayMs: 30, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: failWhenAllPresent(['a.flag', 'b.flag']) }] });
      }
      const log = await until('both leaves recorded', async () => {
        const events = await queueEvents(t, repo);
        return events.filter((e) => e.type === 'action.queue.leave').length === 2 && events;
      });
      const of = (number: bigint, type: string) => log.filter((e) => String(e.pull_request) === String(number) && e.type === type);
      const end = of(first.number, 'action.queue.checks_end')[0]!;
      assert.deepEqual([end.metadata.aborted, end.metadata.abort_code], [true, 'INTERMEDIATE_RESULTS_SKIPPED']);
      assert.deepEqual(of(first.number, 'action.queue.leave').map((e) => [e.metadata.dequeue_code, e.metadata.merged]), [['PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED', true]]);
      assert.deepEqual(of(second.number, 'action.queue.leave').map((e) => e.metadata.dequeue_code), ['PR_MERGED']);
      const skipped = await t.store.db.selectFrom('merge_queue_batches').select('entry_ids').where('intermediate_skipped', '=', true).execute();
      assert.equal(skipped.length, 1, 'the batch ahead is recorded as passed on the later result');
    });

    test('a comment from someone without write permission queues nothing and gets a reply', async () => {
      const pull = await t.hosting.openPullRequest({ repo: REPO, changes: { 'm.txt': 'm\n' }, author: 'mallory' });
      await t.hosting.webhooks.settled();
      t.hosting.comment(REPO, pull.number, 'mallory', '@switchyard queue');
      await t.hosting.webhooks.settled();
      const reply = await until('a reply', async () => {
        const comments = await fetch(`${t.hosting.url}/repos/${REPO}/issues/${pull.number}/comments`, { headers: { authorization: `token ${aliceToken}` } });
        const list = (await comments.json()) as { body: string; user: { login: string } }[];
        return list.find((c) => c.user.login === QUEUE_BOT);
      });
      assert.match(reply.body, /^@mallory only people with write permission/);
      const queued = await t.request('GET', `/v1/repos/${REPO}/logs?pull_request=${pull.number}&event_type=action.queue.enter&event_type=command.queue`);
      assert.equal(queued.json.events.length, 0);
    });
  });
}
