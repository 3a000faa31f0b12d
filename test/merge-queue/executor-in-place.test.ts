// Checks in place (DESIGN §10): a queue checking one batch of one pull request at a time checks
// each pull request on itself, updated with its base when behind (update-branch), and merges it
// pinned to that head; no draft pull request, no branch of the queue's. The update's own head move
// does not dequeue the pull request; an author's push during its checks does; a conflict with the
// base dequeues it; an update or merge whose answer was lost is found, not done twice. CI runs on
// the pull requests' branches only, its verdicts held by the tests. Both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { queueEvents, until, type LoggedEvent } from '../support/merge-queue-e2e.ts';
import type { CommitFiles, Verdict } from '../support/fake-platform/fake-ci.ts';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';

const IN_PLACE = { merge_queue: { max_parallel_checks: 1 }, queue_rules: [{ name: 'default', batch_size: { min: 1, max: 1 }, required_checks: ['ci/test'] }] };

/** CI verdicts held until released, for commits holding a given file. */
class HeldVerdicts {
  private readonly gates = new Map<string, { held: Promise<void>; release: () => void }>();

  hold(path: string): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.gates.set(path, { held, release });
    return release;
  }

  releaseAll(): void {
    for (const gate of this.gates.values()) gate.release();
  }

  async verdict(files: CommitFiles): Promise<Verdict> {
    for (const [path, gate] of this.gates) if (files.paths.has(path)) await gate.held;
    return 'success';
  }
}

/** A repository queued in place, CI on its pull requests' branches only; the app beside it. */
async function inPlaceRepository(t: TestApp, name: string, verdicts: HeldVerdicts, rule: Record<string, unknown> = {}): Promise<string> {
  const repo = `acme/${name}`;
  await t.hosting.createRepository({ owner: 'acme', name, files: { 'README.md': `${name}\n`, 'shared.txt': 'base\n' } });
  t.hosting.grant(repo, 'alice', 'write');
  t.hosting.grant(repo, QUEUE_BOT, 'write');
  t.hosting.ci.configure({ delayMs: 20, branches: (branch) => branch.startsWith('feature-'), checks: [{ name: 'ci/test', verdict: (files) => verdicts.verdict(files) }] });
  assert.equal((await t.request('PUT', `/v1/admin/repos/${repo}`)).status, 201);
  assert.equal((await t.request('PUT', `/v1/products/${repo}`, { body: { products: ['merge_queue'] } })).status, 204);
  const body = { ...IN_PLACE, queue_rules: [{ ...IN_PLACE.queue_rules[0], ...rule }] };
  const configured = await t.request('PUT', `/v1/repos/${repo}/merge-queue/configuration`, { body });
  assert.equal(configured.status, 200, configured.text);
  return repo;
}

async function queueByComment(t: TestApp, repo: string, numbers: bigint[]): Promise<void> {
  await t.hosting.webhooks.settled();
  for (const number of numbers) t.hosting.comment(repo, number, 'alice', '@switchyard queue');
  await t.hosting.webhooks.settled();
}

const of = (log: LoggedEvent[], number: bigint, type?: string) => log.filter((e) => String(e.pull_request) === String(number) && (type === undefined || e.type === type));

/** What the queue changed on the platform, besides merging: drafts, branches, updates. */
function queueChanges(t: TestApp, repo: string) {
  const changes = t.hosting.mutations().filter((r) => r.url.startsWith(`/repos/${repo}/`));
  return {
    drafts: changes.filter((r) => r.method === 'POST' && /\/pulls$/.test(r.url)),
    branches: changes.filter((r) => r.method === 'POST' && r.url.endsWith('/git/refs')),
    updates: (number: bigint) => changes.filter((r) => r.url === `/repos/${repo}/pulls/${number}/update-branch`),
    merges: (number: bigint) => changes.filter((r) => r.url === `/repos/${repo}/pulls/${number}/merge` && r.status === 200),
  };
}

for (const backend of await backends()) {
  describe(`merge queue, checks in place (${backend})`, () => {
    let t: TestApp;
    const verdicts = new HeldVerdicts();
    /** What happens on the platform once it has updated a branch, before the executor hears of it. */
    let afterUpdate: (() => Promise<void>) | null = null;
    before(async () => {
      // The webhook reporting the update's head move is handled before the executor hears the
      // platform's answer: the move must not dequeue the pull request the executor is updating.
      const then = async () => {
        await afterUpdate?.();
        await t.hosting.webhooks.settled();
      };
      t = await startTestApp(backend, undefined, { executor: {}, executorPlatform: (platform) => afterAnswers(platform, ['updatePullRequestBranch'], then) });
      t.hosting.createUser('alice');
    });
    after(async () => {
      verdicts.releaseAll();
      await t.close();
    });

    test('two pull requests, each checked on itself; the second updated with the base once the first merged', async () => {
      const repo = await inPlaceRepository(t, 'inplace', verdicts);
      const releaseFirst = verdicts.hold('first.txt');
      const first = await t.hosting.openPullRequest({ repo, changes: { 'first.txt': '1\n' }, author: 'alice' });
      const second = await t.hosting.openPullRequest({ repo, changes: { 'second.txt': '2\n' }, author: 'alice' });
      const base = (await t.hosting.branchSha(repo, 'main'))!;
      await queueByComment(t, repo, [first.number, second.number]);

      await until('the first pull request checked', async () => of(await queueEvents(t, repo), first.number, 'action.queue.checks_start').length === 1);
      const queued = await t.request('GET', `/v1/repos/${repo}/merge-queue/pull/${first.number}`);
      assert.equal(queued.status, 200, queued.text);
      assert.equal(queued.json.mergeability_check.check_type, 'in_place');
      assert.equal(String(queued.json.mergeability_check.queue_pull_request_number), String(first.number));
      const status = await t.request('GET', `/v1/repos/${repo}/merge-queue/status?branch=main`);
      assert.deepEqual(status.json.batches.map((b: any) => b.status.code), ['running', 'waiting_for_checks_slot']);
      releaseFirst();

      await until('both merged', async () => t.hosting.pullRequest(repo, first.number).merged && t.hosting.pullRequest(repo, second.number).merged);
      await until('both stays over', async () => (await queueEvents(t, repo)).filter((e) => e.type === 'action.queue.leave').length === 2);
      const changes = queueChanges(t, repo);
      assert.deepEqual(changes.drafts, [], 'no draft pull request');
      assert.deepEqual(changes.branches, [], 'no branch of the queue');
      assert.deepEqual(changes.updates(first.number), [], 'the first held the base already');
      assert.deepEqual(changes.updates(second.number).map((r) => r.status), [202], 'the second updated once');
      assert.equal(changes.merges(first.number).length + changes.merges(second.number).length, 2);

      // The second's head: the platform's merge of the base (with the first) into its own head.
      const mergedFirst = t.hosting.pullRequest(repo, first.number).mergeCommitSha!;
      const updated = t.hosting.pullRequest(repo, second.number).headSha;
      const [update] = await t.hosting.history(repo, second.branch);
      assert.deepEqual([update!.sha, update!.parents], [updated, [second.headSha, mergedFirst]]);
      const line = await t.hosting.history(repo, 'main', { firstParent: true });
      assert.deepEqual(line[0]!.parents, [mergedFirst, updated], 'the second merged pinned to its updated head');
      assert.deepEqual([line[1]!.sha, line[1]!.parents], [mergedFirst, [base, first.headSha]], 'the first merged onto the base as it was');
      assert.equal(line[2]!.sha, base);
      const files = await t.hosting.files(repo, 'main');
      assert.deepEqual([files.get('first.txt'), files.get('second.txt')], ['1\n', '2\n']);
      assert.ok(t.hosting.webhooks.sent('pull_request', 'synchronize').some((d) => d.payload.after === updated), 'the update was reported by webhook');

      const log = await queueEvents(t, repo);
      for (const [pull, head] of [[first, first.headSha], [second, updated]] as const) {
        const types = of(log, pull.number).map((e) => e.type);
        assert.deepEqual(types, ['command.queue', 'action.queue.enter', 'action.queue.checks_start', 'action.queue.checks_end', 'action.queue.merged', 'action.queue.leave'], `events of #${pull.number}`);
        const [start] = of(log, pull.number, 'action.queue.checks_start');
        const [end] = of(log, pull.number, 'action.queue.checks_end');
        const [leave] = of(log, pull.number, 'action.queue.leave');
        for (const event of [start!, end!]) {
          assert.equal(event.metadata.speculative_check_pull_request.in_place, true, JSON.stringify(event));
          assert.equal(String(event.metadata.speculative_check_pull_request.number), String(pull.number));
          assert.deepEqual(event.metadata.pull_request_numbers.map(String), [String(pull.number)]);
        }
        assert.equal(start!.metadata.speculative_check_pull_request.checks_conclusion, 'pending');
        assert.equal(end!.metadata.speculative_check_pull_request.checks_conclusion, 'success');
        assert.equal(end!.metadata.aborted, false);
        assert.equal(leave!.metadata.dequeue_code, 'PR_MERGED');
        assert.equal(leave!.metadata.pull_request_head_sha, head, 'the head that was checked and merged');
      }
      // Nothing of the queue's to clean up: the pull requests' branches are the authors'.
      assert.notEqual(await t.hosting.branchSha(repo, second.branch), null);
    });

    test('a push by the author while its checks run in place dequeues the pull request', async () => {
      const repo = await inPlaceRepository(t, 'inplace-push', verdicts);
      const release = verdicts.hold('pushed.txt');
      try {
        const pull = await t.hosting.openPullRequest({ repo, changes: { 'pushed.txt': 'v1\n' }, author: 'alice' });
        await t.hosting.push({ repo, branch: 'main', changes: { 'main.txt': 'moved\n' } });
        await queueByComment(t, repo, [pull.number]);
        await until('checks started in place', async () => of(await queueEvents(t, repo), pull.number, 'action.queue.checks_start').length === 1);
        const updated = t.hosting.pullRequest(repo, pull.number).headSha;
        assert.notEqual(updated, pull.headSha, 'updated with the base first');
        await t.hosting.webhooks.settled();
        const reported = t.hosting.webhooks.sent('pull_request', 'synchronize').filter((d) => d.payload.after === updated);
        assert.deepEqual(reported.map((d) => d.results.map((r) => r.status)), [[204]], 'the update was reported by webhook, and handled');
        assert.equal(of(await queueEvents(t, repo), pull.number, 'action.queue.leave').length, 0, 'its own update did not dequeue it');

        await t.hosting.push({ repo, branch: pull.branch, changes: { 'pushed.txt': 'v2\n' }, author: 'alice' });
        const [leave] = await until('dequeued', async () => {
          const leaves = of(await queueEvents(t, repo), pull.number, 'action.queue.leave');
          return leaves.length > 0 && leaves;
        });
        assert.equal(leave!.metadata.dequeue_code, 'PULL_REQUEST_UPDATED');
        assert.equal(leave!.metadata.pull_request_head_sha, updated, 'it was checked on the update');
        const [end] = of(await queueEvents(t, repo), pull.number, 'action.queue.checks_end');
        assert.deepEqual([end!.metadata.aborted, end!.metadata.abort_code, end!.metadata.speculative_check_pull_request.in_place], [true, 'PULL_REQUEST_UPDATED', true]);
        assert.equal(t.hosting.pullRequest(repo, pull.number).merged, false);
        assert.ok(!(await t.hosting.files(repo, 'main')).has('pushed.txt'));
      } finally {
        release();
      }
    });

    test('a push by the author just after the update, before the executor saw it, dequeues the pull request', async () => {
      const repo = await inPlaceRepository(t, 'inplace-race', verdicts);
      const pull = await t.hosting.openPullRequest({ repo, changes: { 'race.txt': 'v1\n' }, author: 'alice' });
      await t.hosting.push({ repo, branch: 'main', changes: { 'main.txt': 'moved\n' } });
      let pushed: string | null = null;
      afterUpdate = async () => {
        afterUpdate = null;
        pushed = await t.hosting.push({ repo, branch: pull.branch, changes: { 'race.txt': 'v2\n' }, author: 'alice' });
      };
      try {
        await queueByComment(t, repo, [pull.number]);
        const [leave] = await until('dequeued', async () => {
          const leaves = of(await queueEvents(t, repo), pull.number, 'action.queue.leave');
          return leaves.length > 0 && leaves;
        });
        assert.equal(leave!.metadata.dequeue_code, 'PULL_REQUEST_UPDATED');
        assert.notEqual(pushed, null);
        assert.equal(t.hosting.pullRequest(repo, pull.number).headSha, pushed);
        assert.deepEqual(queueChanges(t, repo).updates(pull.number).map((r) => r.status), [202]);
        assert.deepEqual(of(await queueEvents(t, repo), pull.number, 'action.queue.checks_start'), [], 'never checked: its head was not the update');
        assert.equal(t.hosting.pullRequest(repo, pull.number).merged, false);
      } finally {
        afterUpdate = null;
      }
    });

    test('checks that fail in place are retried on a draft pull request, where CI runs again', async () => {
      const repo = await inPlaceRepository(t, 'inplace-retry', verdicts, { max_checks_retries: 1 });
      // Flaky on the pull request's own branch, fine on the queue's.
      t.hosting.ci.configure({
        delayMs: 20,
        branches: (branch) => branch.startsWith('feature-') || branch.startsWith('switchyard/'),
        checks: [{ name: 'ci/test', verdict: async (files) => (files.branch.startsWith('feature-') && files.paths.has('flaky.txt') ? 'failure' : verdicts.verdict(files)) }],
      });
      const pull = await t.hosting.openPullRequest({ repo, changes: { 'flaky.txt': 'flaky\n' }, author: 'alice' });
      await queueByComment(t, repo, [pull.number]);
      await until('merged', async () => t.hosting.pullRequest(repo, pull.number).merged);
      const log = await until('the stay over', async () => {
        const events = await queueEvents(t, repo);
        return of(events, pull.number, 'action.queue.leave').length > 0 && events;
      });
      const starts = of(log, pull.number, 'action.queue.checks_start').map((e) => e.metadata);
      const ends = of(log, pull.number, 'action.queue.checks_end').map((e) => e.metadata);
      assert.equal(queueChanges(t, repo).drafts.length, 1, 'one draft, for the retry');
      const draft = String(starts[1]?.speculative_check_pull_request.number);
      const opened = t.hosting.pullRequest(repo, BigInt(draft));
      assert.ok(opened.draft && opened.headRef.startsWith('switchyard/merge-queue/main/'), opened.headRef);
      assert.deepEqual(starts.map((m) => [m.speculative_check_pull_request.in_place, String(m.speculative_check_pull_request.number), m.start_reason]), [
        [true, String(pull.number), 'First time checking'],
        [false, draft, 'Checks retried (attempt 2)'],
      ]);
      assert.deepEqual(ends.map((m) => [m.speculative_check_pull_request.in_place, String(m.speculative_check_pull_request.number), m.speculative_check_pull_request.checks_conclusion, m.retry_attempt]), [
        [true, String(pull.number), 'failure', 0],
        [false, draft, 'success', 1],
      ]);
      assert.equal(of(log, pull.number, 'action.queue.leave')[0]!.metadata.dequeue_code, 'PR_MERGED');
      await until('the draft closed', async () => t.hosting.pullRequest(repo, BigInt(draft)).state === 'closed');
      assert.equal(t.hosting.pullRequest(repo, pull.number).state, 'closed', 'merged, not closed by the clean-up');
      assert.notEqual(await t.hosting.branchSha(repo, pull.branch), null, 'its branch left alone');
    });

    test('a pull request that conflicts with its base is dequeued without checks', async () => {
      const repo = await inPlaceRepository(t, 'inplace-conflict', verdicts);
      const pull = await t.hosting.openPullRequest({ repo, changes: { 'shared.txt': 'from the pull request\n' }, author: 'alice' });
      await t.hosting.push({ repo, branch: 'main', changes: { 'shared.txt': 'moved on main\n' } });
      await queueByComment(t, repo, [pull.number]);
      const [leave] = await until('dequeued', async () => {
        const leaves = of(await queueEvents(t, repo), pull.number, 'action.queue.leave');
        return leaves.length > 0 && leaves;
      });
      assert.equal(leave!.metadata.dequeue_code, 'CONFLICT_WITH_BASE_BRANCH');
      assert.deepEqual(of(await queueEvents(t, repo), pull.number, 'action.queue.checks_start'), []);
      assert.deepEqual(queueChanges(t, repo).updates(pull.number).map((r) => r.status), [422]);
      assert.equal(t.hosting.pullRequest(repo, pull.number).headSha, pull.headSha, 'its head untouched');
      assert.equal((await t.hosting.files(repo, 'main')).get('shared.txt'), 'moved on main\n');
    });

    test('a pull request the platform refuses to update is dequeued, and the queue goes on', async () => {
      const repo = await inPlaceRepository(t, 'inplace-refused', verdicts);
      const refused = await t.hosting.openPullRequest({ repo, changes: { 'refused.txt': 'refused\n' }, author: 'alice' });
      const next = await t.hosting.openPullRequest({ repo, changes: { 'next.txt': 'next\n' }, author: 'alice' });
      await t.hosting.push({ repo, branch: 'main', changes: { 'moved.txt': 'moved\n' } });
      // As for a fork that does not allow edits by maintainers: the bot may not write to the head branch.
      t.hosting.grant(repo, QUEUE_BOT, 'read');
      await queueByComment(t, repo, [refused.number]);
      const [leave] = await until('dequeued', async () => {
        const leaves = of(await queueEvents(t, repo), refused.number, 'action.queue.leave');
        return leaves.length > 0 && leaves;
      });
      assert.equal(leave!.metadata.dequeue_code, 'BRANCH_UPDATE_FAILED');
      assert.deepEqual(queueChanges(t, repo).updates(refused.number).map((r) => r.status), [403], 'asked once');
      t.hosting.grant(repo, QUEUE_BOT, 'write');
      await queueByComment(t, repo, [next.number]);
      await until('the next one merged', async () => t.hosting.pullRequest(repo, next.number).merged, 60_000);
    });
  });

  describe(`merge queue, checks in place, answers of the platform lost (${backend})`, () => {
    let t: TestApp;
    const lost: string[] = [];
    before(async () => {
      const loseFirst = async (name: string) => {
        await t.hosting.webhooks.settled();
        if (lost.includes(name)) return;
        lost.push(name);
        throw new Error(`the answer of ${name} was lost (a test fault)`);
      };
      t = await startTestApp(backend, undefined, { executor: {}, executorPlatform: (platform) => afterAnswers(platform, ['updatePullRequestBranch', 'mergePullRequest'], loseFirst) });
      t.hosting.createUser('alice');
    });
    after(() => t.close());

    test('an update and a merge whose answers were lost are found, not done again, and do not dequeue', async () => {
      const repo = await inPlaceRepository(t, 'inplace-lost', new HeldVerdicts());
      const pull = await t.hosting.openPullRequest({ repo, changes: { 'lost.txt': 'lost\n' }, author: 'alice' });
      await t.hosting.push({ repo, branch: 'main', changes: { 'main.txt': 'moved\n' } });
      await queueByComment(t, repo, [pull.number]);
      await until('merged', async () => t.hosting.pullRequest(repo, pull.number).merged);
      const [leave] = await until('the stay over', async () => {
        const leaves = of(await queueEvents(t, repo), pull.number, 'action.queue.leave');
        return leaves.length > 0 && leaves;
      });
      assert.deepEqual(lost.sort(), ['mergePullRequest', 'updatePullRequestBranch']);
      const changes = queueChanges(t, repo);
      assert.deepEqual(changes.updates(pull.number).map((r) => r.status), [202], 'updated once');
      assert.equal(changes.merges(pull.number).length, 1, 'merged once');
      const updated = t.hosting.pullRequest(repo, pull.number).headSha;
      assert.deepEqual((await t.hosting.history(repo, pull.branch))[0]!.parents, [pull.headSha, (await t.hosting.history(repo, 'main', { firstParent: true }))[1]!.sha]);
      assert.equal(leave!.metadata.dequeue_code, 'PR_MERGED');
      assert.equal(leave!.metadata.pull_request_head_sha, updated);
      const [end] = of(await queueEvents(t, repo), pull.number, 'action.queue.checks_end');
      assert.equal(end!.metadata.speculative_check_pull_request.checks_conclusion, 'success');
    });
  });
}

/** The platform does what the executor asks; `then` runs before the answer of the named calls reaches it (and may lose it, throwing). */
function afterAnswers(platform: HostingPlatform, names: string[], then: (name: string) => Promise<void>): HostingPlatform {
  return new Proxy(platform, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const name = String(property);
      if (!names.includes(name)) return value.bind(target);
      return async (...args: unknown[]) => {
        const answer = await value.apply(target, args);
        await then(name);
        return answer;
      };
    },
  });
}
