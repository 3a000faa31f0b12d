// Every operation of the hosting client the merge-queue executor uses, against the fake
// platform: plain values back, conflicts and moved heads as values, 64-bit numbers exact, and
// a repeated draft creation that opens one pull request, not two.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import type { RepositoryRef } from '../../src/hosting/hosting-types.ts';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { hostingClientFor } from '../support/fake-platform/platform-client.ts';

describe('hosting client against the fake platform', () => {
  let platform: FakePlatform;
  let client: HostingPlatform;
  let count = 0;

  async function newRepo(files: Record<string, string> = { 'shared.txt': 'base\n' }, firstNumber?: bigint): Promise<{ ref: RepositoryRef; full: string }> {
    const name = `repo${++count}`;
    await platform.createRepository({ owner: 'acme', name, files, firstNumber });
    return { ref: { owner: 'acme', repo: name }, full: `acme/${name}` };
  }

  before(async () => {
    platform = await new FakePlatform({ firstId: 2n ** 53n + 100n }).start();
    platform.createOrganization('acme');
    const { token } = platform.createUser('queue-bot');
    platform.setMembership('acme', 'queue-bot', { role: 'admin', state: 'active' });
    platform.createUser('writer');
    platform.createUser('reader');
    platform.createUser('outsider');
    client = hostingClientFor(platform, { kind: 'token', token });
  });
  after(() => platform.stop());

  test('reads a pull request exactly, numbers above 2^53 included; null when there is none', async () => {
    const { ref, full } = await newRepo(undefined, 2n ** 60n + 1n);
    const opened = await platform.openPullRequest({ repo: full, changes: { 'a.txt': 'a\n' }, title: 'Add a', author: 'writer' });
    const pr = (await client.pullRequest(ref, opened.number))!;
    assert.equal(pr.number, 2n ** 60n + 1n);
    assert.ok(pr.id > 2n ** 53n);
    assert.deepEqual(
      { state: pr.state, draft: pr.draft, merged: pr.merged, mergeable: pr.mergeable, title: pr.title, author: pr.author, head: pr.head, base: pr.base.ref },
      { state: 'open', draft: false, merged: false, mergeable: true, title: 'Add a', author: 'writer', head: { ref: opened.branch, sha: opened.headSha }, base: 'main' },
    );
    assert.equal(await client.pullRequest(ref, 2n ** 62n), null);
    const listed = await client.listPullRequests(ref, { head: opened.branch });
    assert.deepEqual(listed.map((p) => p.number), [opened.number]);
    assert.deepEqual(await client.listPullRequests(ref, { state: 'closed' }), []);
  });

  test('branches: read, create once, move as a fast-forward only unless forced, delete once', async () => {
    const { ref, full } = await newRepo();
    const main = (await client.branchHead(ref, 'main'))!;
    assert.equal(await client.branchHead(ref, 'switchyard/merge-queue/main/1'), null);
    assert.deepEqual(await client.createBranch(ref, 'switchyard/merge-queue/main/1', main), { kind: 'created', sha: main });
    assert.deepEqual(await client.createBranch(ref, 'switchyard/merge-queue/main/1', main), { kind: 'exists' });
    const ahead = await platform.push({ repo: full, branch: 'ahead', changes: { 'x.txt': 'x\n' } });
    const aside = await platform.push({ repo: full, branch: 'aside', changes: { 'y.txt': 'y\n' } });
    assert.deepEqual(await client.moveBranch(ref, 'switchyard/merge-queue/main/1', ahead, { force: false }), { kind: 'moved', sha: ahead });
    assert.deepEqual(await client.moveBranch(ref, 'switchyard/merge-queue/main/1', aside, { force: false }), { kind: 'not_fast_forward' });
    assert.deepEqual(await client.moveBranch(ref, 'switchyard/merge-queue/main/1', aside, { force: true }), { kind: 'moved', sha: aside });
    assert.deepEqual(await client.moveBranch(ref, 'no-such-branch', aside, { force: true }), { kind: 'missing' });
    assert.equal(await client.deleteBranch(ref, 'switchyard/merge-queue/main/1'), true);
    assert.equal(await client.deleteBranch(ref, 'switchyard/merge-queue/main/1'), false);
    assert.deepEqual(await client.compare(ref, 'main', 'ahead'), { status: 'ahead', aheadBy: 1, behindBy: 0, mergeBaseSha: main });
  });

  test('merging heads into a branch: merged, nothing to merge, or a conflict as a value', async () => {
    const { ref, full } = await newRepo();
    const main = (await client.branchHead(ref, 'main'))!;
    await client.createBranch(ref, 'batch', main);
    const one = await platform.push({ repo: full, branch: 'one', changes: { 'shared.txt': 'one\n' } });
    const two = await platform.push({ repo: full, branch: 'two', changes: { 'shared.txt': 'two\n' } });
    const merged = await client.mergeIntoBranch(ref, { base: 'batch', head: one, message: 'Merge one' });
    assert.equal(merged.kind, 'merged');
    assert.equal(await client.branchHead(ref, 'batch'), merged.kind === 'merged' ? merged.sha : '');
    assert.deepEqual(await client.mergeIntoBranch(ref, { base: 'batch', head: one, message: 'again' }), { kind: 'nothing_to_merge' });
    assert.deepEqual(await client.mergeIntoBranch(ref, { base: 'batch', head: two, message: 'clash' }), { kind: 'conflict' });
    assert.equal(platform.mutations().filter((r) => r.url.endsWith('/merges')).length, 3, 'a 409 is an answer, not retried');
  });

  test('a draft pull request is opened once even when asked twice, and closed', async () => {
    const { ref, full } = await newRepo();
    await platform.push({ repo: full, branch: 'switchyard/merge-queue/main/b1', changes: { 'b.txt': 'b\n' } });
    const spec = { title: 'Merge queue batch b1', head: 'switchyard/merge-queue/main/b1', base: 'main', draft: true };
    const draft = await client.createPullRequest(ref, spec);
    const again = await client.createPullRequest(ref, spec);
    assert.equal(again.number, draft.number);
    assert.equal(draft.draft, true);
    assert.equal([...platform.repo(full).pulls.values()].length, 1);
    const closed = await client.closePullRequest(ref, draft.number);
    assert.deepEqual([closed.state, closed.merged], ['closed', false]);
  });

  test('merging a pull request pinned to its checked head, with each method', async () => {
    const { ref, full } = await newRepo();
    for (const method of ['merge', 'squash', 'rebase'] as const) {
      const pr = await platform.openPullRequest({ repo: full, changes: { [`${method}.txt`]: `${method}\n` } });
      const result = await client.mergePullRequest(ref, pr.number, { sha: pr.headSha, method });
      assert.equal(result.kind, 'merged', method);
      assert.equal(await client.branchHead(ref, 'main'), result.kind === 'merged' ? result.sha : '');
      const read = (await client.pullRequest(ref, pr.number))!;
      assert.deepEqual([read.merged, read.state], [true, 'closed']);
    }
    const [tip, squash, merge] = await platform.history(full, 'main', { firstParent: true });
    assert.deepEqual([merge!.parents.length, squash!.parents.length, tip!.message], [2, 1, 'Change rebase.txt']);
  });

  test('a merge is refused as a value when the head moved, when it conflicts and for a draft', async () => {
    const { ref, full } = await newRepo();
    const moved = await platform.openPullRequest({ repo: full, changes: { 'm.txt': 'm\n' } });
    await platform.push({ repo: full, branch: moved.branch, changes: { 'm.txt': 'm2\n' } });
    assert.deepEqual(await client.mergePullRequest(ref, moved.number, { sha: moved.headSha, method: 'squash' }), { kind: 'head_moved' });
    const clash = await platform.openPullRequest({ repo: full, changes: { 'shared.txt': 'clash\n' } });
    await platform.push({ repo: full, branch: 'main', changes: { 'shared.txt': 'moved on\n' } });
    assert.equal((await client.mergePullRequest(ref, clash.number, { sha: clash.headSha, method: 'merge' })).kind, 'not_mergeable');
    const draft = await platform.openPullRequest({ repo: full, changes: { 'd.txt': 'd\n' }, draft: true });
    assert.deepEqual(await client.mergePullRequest(ref, draft.number, { sha: draft.headSha, method: 'merge' }), { kind: 'not_mergeable', reason: 'Pull Request is still a draft' });
    assert.equal(platform.mutations().filter((r) => r.url === `/repos/${full}/pulls/${moved.number}/merge`).length, 1, 'a 409 is not retried');
  });

  test('updating a pull request branch: updating, head moved, up to date, conflict; the parents of the merge', async () => {
    const { ref, full } = await newRepo();
    const opened = await platform.branchSha(full, 'main');
    const pr = await platform.openPullRequest({ repo: full, changes: { 'p.txt': 'p\n' } });
    assert.deepEqual(await client.updatePullRequestBranch(ref, pr.number, pr.headSha), { kind: 'up_to_date' });
    await platform.push({ repo: full, branch: 'main', changes: { 'q.txt': 'q\n' } });
    assert.deepEqual(await client.updatePullRequestBranch(ref, pr.number, 'f'.repeat(40)), { kind: 'head_moved' });
    assert.deepEqual(await client.updatePullRequestBranch(ref, pr.number, pr.headSha), { kind: 'updating' });
    const updated = platform.pullRequest(full, pr.number).headSha;
    assert.deepEqual(await client.commitParents(ref, updated), [pr.headSha, await platform.branchSha(full, 'main')]);
    assert.deepEqual(await client.commitParents(ref, pr.headSha), [opened]);
    const clash = await platform.openPullRequest({ repo: full, changes: { 'shared.txt': 'mine\n' } });
    await platform.push({ repo: full, branch: 'main', changes: { 'shared.txt': 'theirs\n' } });
    assert.deepEqual(await client.updatePullRequestBranch(ref, clash.number, clash.headSha), { kind: 'conflict' });
  });

  test('check runs (every page) and the combined status of a commit', async () => {
    const { ref, full } = await newRepo();
    const names = Array.from({ length: 105 }, (_, i) => `ci/job-${String(i).padStart(3, '0')}`);
    platform.ci.configure({ checks: [...names.map((name) => ({ name })), { name: 'ci/status', kind: 'status' as const, verdict: () => 'failure' as const }] });
    const sha = await platform.push({ repo: full, branch: 'checked', changes: { 'c.txt': 'c\n' } });
    await platform.ci.settled();
    platform.ci.configure(undefined);
    const runs = await client.checkRuns(ref, sha);
    assert.equal(runs.length, 105);
    assert.deepEqual(new Set(runs.map((r) => `${r.status}/${r.conclusion}/${r.app}`)), new Set(['completed/success/fake-ci']));
    assert.deepEqual(runs.map((r) => r.name).sort(), names);
    assert.ok(runs.every((r) => r.id > 2n ** 53n && r.headSha === sha));
    const combined = await client.combinedStatus(ref, sha);
    assert.deepEqual([combined.sha, combined.state, combined.statuses.map((s) => [s.context, s.state])], [sha, 'failure', [['ci/status', 'failure']]]);
  });

  test("comments, and a commenter's permission", async () => {
    const { ref, full } = await newRepo();
    platform.grant(full, 'writer', 'write');
    platform.grant(full, 'reader', 'read');
    const pr = await platform.openPullRequest({ repo: full, changes: { 'k.txt': 'k\n' } });
    const id = await client.comment(ref, pr.number, 'Queued in batch b1.');
    assert.ok(id > 2n ** 53n);
    assert.deepEqual(platform.repo(full).comments.map((c) => [c.id, c.body, c.user.login]), [[id, 'Queued in batch b1.', 'queue-bot']]);
    assert.equal(await client.collaboratorPermission(ref, 'queue-bot'), 'admin');
    assert.equal(await client.collaboratorPermission(ref, 'writer'), 'write');
    assert.equal(await client.collaboratorPermission(ref, 'reader'), 'read');
    assert.equal(await client.collaboratorPermission(ref, 'outsider'), 'none');
    assert.equal(await client.collaboratorPermission(ref, 'nobody-at-all'), 'none');
  });
});
