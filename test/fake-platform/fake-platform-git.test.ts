// The fake platform's REST API does to real git history what GitHub does: merges, conflicts,
// each merge method, merges pinned to a head sha, fast-forward-only ref moves, update-branch,
// comparisons; and it keeps 64-bit numbers exact.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';

describe('fake platform: git behaviour', () => {
  let platform: FakePlatform;
  let token: string;
  let repoCount = 0;
  const call = (method: string, path: string, body?: unknown) => restCall(platform.url, token, method, path, body);

  async function newRepo(files: Record<string, string> = { 'README.md': 'hello\n' }): Promise<string> {
    const name = `repo${++repoCount}`;
    await platform.createRepository({ owner: 'alice', name, files });
    return `alice/${name}`;
  }

  before(async () => {
    platform = await new FakePlatform().start();
    token = platform.createUser('alice').token;
  });
  after(() => platform.stop());

  test('POST /merges makes a merge commit, answers 204 when nothing is left to merge and 409 on a conflict', async () => {
    const repo = await newRepo({ 'shared.txt': 'base\n' });
    const base = (await platform.branchSha(repo, 'main'))!;
    await platform.push({ repo, branch: 'batch', changes: {} , from: base, message: 'empty start' });
    const one = await platform.push({ repo, branch: 'one', changes: { 'one.txt': '1\n' } });
    const clash = await platform.push({ repo, branch: 'clash-a', changes: { 'shared.txt': 'a\n' } });
    await platform.push({ repo, branch: 'clash-b', changes: { 'shared.txt': 'b\n' } });

    const merged = await call('POST', `/repos/${repo}/merges`, { base: 'batch', head: one, commit_message: 'Merge one' });
    assert.equal(merged.status, 201);
    assert.equal(merged.json.commit.message, 'Merge one');
    assert.equal(merged.json.parents.length, 2);
    assert.equal(merged.json.parents[1].sha, one);
    assert.equal(await platform.branchSha(repo, 'batch'), merged.json.sha);
    assert.equal((await platform.files(repo, 'batch')).get('one.txt'), '1\n');

    assert.equal((await call('POST', `/repos/${repo}/merges`, { base: 'batch', head: one })).status, 204);
    assert.equal((await call('POST', `/repos/${repo}/merges`, { base: 'batch', head: 'clash-a' })).status, 201);
    const tip = await platform.branchSha(repo, 'batch');
    const conflict = await call('POST', `/repos/${repo}/merges`, { base: 'batch', head: 'clash-b' });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.message, 'Merge conflict');
    assert.equal(await platform.branchSha(repo, 'batch'), tip, 'a conflict moves nothing');
    assert.equal((await call('POST', `/repos/${repo}/merges`, { base: 'nope', head: clash })).status, 404);
  });

  test('merge, squash and rebase land in the base history as GitHub lands them', async () => {
    const repo = await newRepo();
    const pulls = [];
    for (const name of ['m', 's', 'r']) pulls.push(await platform.openPullRequest({ repo, changes: { [`${name}.txt`]: `${name}\n` }, title: `Add ${name}` }));
    await platform.push({ repo, branch: pulls[2]!.branch, changes: { 'r2.txt': 'second\n' }, message: 'Second commit of r' });

    const before = (await platform.branchSha(repo, 'main'))!;
    const merged = await call('PUT', `/repos/${repo}/pulls/${pulls[0]!.number}/merge`, { merge_method: 'merge' });
    assert.equal(merged.status, 200);
    assert.deepEqual(Object.keys(merged.json).sort(), ['merged', 'message', 'sha']);
    const [mergeCommit] = await platform.history(repo, 'main');
    assert.deepEqual(mergeCommit!.parents, [before, pulls[0]!.headSha]);
    assert.match(mergeCommit!.message, /^Merge pull request #1 from alice\/feature-1\n\nAdd m$/);

    const squashed = await call('PUT', `/repos/${repo}/pulls/${pulls[1]!.number}/merge`, { merge_method: 'squash' });
    const [squash] = await platform.history(repo, 'main');
    assert.equal(squash!.sha, squashed.json.sha);
    assert.equal(squash!.parents.length, 1);
    assert.match(squash!.message, /^Add s \(#2\)/);

    const rHead = platform.pullRequest(repo, pulls[2]!.number).headSha;
    const rebased = await call('PUT', `/repos/${repo}/pulls/${pulls[2]!.number}/merge`, { merge_method: 'rebase', sha: rHead });
    assert.equal(rebased.status, 200);
    const [second, first, ...rest] = await platform.history(repo, 'main', { firstParent: true });
    assert.equal(second!.sha, rebased.json.sha);
    assert.deepEqual([first!.message, second!.message], ['Add r', 'Second commit of r']);
    assert.notEqual(second!.sha, rHead, 'rebased commits are new commits');
    assert.equal(first!.parents[0], rest[0]!.sha);
    assert.deepEqual([second!.author.name, second!.committer.name], ['alice', 'GitHub']);
    assert.deepEqual([...(await platform.files(repo, 'main')).keys()].sort(), ['README.md', 'm.txt', 'r.txt', 'r2.txt', 's.txt']);

    const read = await call('GET', `/repos/${repo}/pulls/${pulls[2]!.number}`);
    assert.deepEqual([read.json.state, read.json.merged, read.json.merge_commit_sha], ['closed', true, rebased.json.sha]);
  });

  test('a merge pinned to a sha is refused with 409 once the head moved; a conflict or a draft with 405', async () => {
    const repo = await newRepo({ 'shared.txt': 'base\n' });
    const pinned = await platform.openPullRequest({ repo, changes: { 'a.txt': 'a\n' } });
    await platform.push({ repo, branch: pinned.branch, changes: { 'a.txt': 'a2\n' } });
    const base = await platform.branchSha(repo, 'main');
    const moved = await call('PUT', `/repos/${repo}/pulls/${pinned.number}/merge`, { merge_method: 'squash', sha: pinned.headSha });
    assert.equal(moved.status, 409);
    assert.equal(moved.json.message, 'Head branch was modified. Review and try the merge again.');
    assert.equal(await platform.branchSha(repo, 'main'), base);
    assert.equal(platform.pullRequest(repo, pinned.number).state, 'open');

    const clashing = await platform.openPullRequest({ repo, changes: { 'shared.txt': 'x\n' } });
    await platform.push({ repo, branch: 'main', changes: { 'shared.txt': 'y\n' } });
    const read = await call('GET', `/repos/${repo}/pulls/${clashing.number}`);
    assert.deepEqual([read.json.mergeable, read.json.mergeable_state], [false, 'dirty']);
    assert.equal((await call('PUT', `/repos/${repo}/pulls/${clashing.number}/merge`, {})).status, 405);

    const draft = await platform.openPullRequest({ repo, changes: { 'd.txt': 'd\n' }, draft: true });
    const refused = await call('PUT', `/repos/${repo}/pulls/${draft.number}/merge`, {});
    assert.deepEqual([refused.status, refused.json.message], [405, 'Pull Request is still a draft']);
  });

  test('a ref moves only as a fast-forward unless forced; refs are created once and deleted once', async () => {
    const repo = await newRepo();
    const main = (await platform.branchSha(repo, 'main'))!;
    assert.equal((await call('POST', `/repos/${repo}/git/refs`, { ref: 'refs/heads/queue/main/1', sha: main })).status, 201);
    const duplicate = await call('POST', `/repos/${repo}/git/refs`, { ref: 'refs/heads/queue/main/1', sha: main });
    assert.deepEqual([duplicate.status, duplicate.json.message], [422, 'Reference already exists']);
    assert.equal((await call('GET', `/repos/${repo}/git/ref/heads%2Fqueue%2Fmain%2F1`)).json.object.sha, main, 'an encoded ref');
    assert.equal((await call('GET', `/repos/${repo}/git/ref/heads/queue/main/1`)).json.object.sha, main, 'a raw ref');

    const ahead = await platform.push({ repo, branch: 'ahead', changes: { 'x.txt': 'x\n' } });
    const aside = await platform.push({ repo, branch: 'aside', changes: { 'y.txt': 'y\n' } });
    assert.equal((await call('PATCH', `/repos/${repo}/git/refs/heads/queue/main/1`, { sha: ahead, force: false })).status, 200);
    const refused = await call('PATCH', `/repos/${repo}/git/refs/heads/queue/main/1`, { sha: aside, force: false });
    assert.deepEqual([refused.status, refused.json.message], [422, 'Update is not a fast forward']);
    assert.equal(await platform.branchSha(repo, 'queue/main/1'), ahead);
    assert.equal((await call('PATCH', `/repos/${repo}/git/refs/heads/queue/main/1`, { sha: aside, force: true })).status, 200);
    assert.equal(await platform.branchSha(repo, 'queue/main/1'), aside);

    assert.equal((await call('DELETE', `/repos/${repo}/git/refs/heads/queue/main/1`)).status, 204);
    assert.equal((await call('DELETE', `/repos/${repo}/git/refs/heads/queue/main/1`)).status, 422);
    assert.equal((await call('GET', `/repos/${repo}/git/ref/heads/queue/main/1`)).status, 404);
  });

  test('compare says ahead, behind, diverged or identical, with the merge base', async () => {
    const repo = await newRepo();
    const main = (await platform.branchSha(repo, 'main'))!;
    const feature = await platform.push({ repo, branch: 'feature', changes: { 'f.txt': 'f\n' } });
    const compare = async (spec: string) => (await call('GET', `/repos/${repo}/compare/${spec}`)).json;
    assert.deepEqual(pick(await compare('main...feature')), ['ahead', 1, 0, main]);
    assert.deepEqual(pick(await compare('feature...main')), ['behind', 0, 1, main]);
    assert.deepEqual(pick(await compare('main...main')), ['identical', 0, 0, main]);
    await platform.push({ repo, branch: 'main', changes: { 'm.txt': 'm\n' } });
    assert.deepEqual(pick(await compare(`main...${feature}`)), ['diverged', 1, 1, main]);
  });

  test('update-branch merges the base into the head, checking the expected head', async () => {
    const repo = await newRepo();
    const pr = await platform.openPullRequest({ repo, changes: { 'p.txt': 'p\n' } });
    const upToDate = await call('PUT', `/repos/${repo}/pulls/${pr.number}/update-branch`, { expected_head_sha: pr.headSha });
    assert.deepEqual([upToDate.status, upToDate.json.message], [422, 'There are no new commits on the base branch.']);
    const base = await platform.push({ repo, branch: 'main', changes: { 'b.txt': 'b\n' } });
    assert.equal((await call('GET', `/repos/${repo}/pulls/${pr.number}`)).json.mergeable_state, 'behind');
    assert.equal((await call('PUT', `/repos/${repo}/pulls/${pr.number}/update-branch`, { expected_head_sha: base })).status, 422);
    platform.ci.configure({ delayMs: 0, branches: (branch) => branch === pr.branch, checks: [{ name: 'ci/test' }] });
    const updated = await call('PUT', `/repos/${repo}/pulls/${pr.number}/update-branch`, { expected_head_sha: pr.headSha });
    assert.equal(updated.status, 202);
    assert.deepEqual(Object.keys(updated.json).sort(), ['message', 'url']);
    assert.equal(updated.json.message, 'Updating pull request branch.');
    const head = platform.pullRequest(repo, pr.number).headSha;
    const [merge] = await platform.history(repo, pr.branch);
    assert.deepEqual([merge!.sha, merge!.parents, merge!.message.trim()], [head, [pr.headSha, base], `Merge branch 'main' into ${pr.branch}`]);
    assert.equal(platform.webhooks.sent('pull_request', 'synchronize').at(-1)!.payload.after, head);
    await platform.ci.settled();
    assert.deepEqual(platform.ci.runs.filter((run) => run.repository === repo).map((run) => [run.sha, run.verdict]), [[head, 'success']], 'CI runs on the new head of a branch it watches');
    platform.ci.configure(undefined);
  });

  test('update-branch refuses a conflict with the base and moves nothing', async () => {
    const repo = await newRepo({ 'shared.txt': 'base\n' });
    const pr = await platform.openPullRequest({ repo, changes: { 'shared.txt': 'mine\n' } });
    await platform.push({ repo, branch: 'main', changes: { 'shared.txt': 'theirs\n' } });
    const refused = await call('PUT', `/repos/${repo}/pulls/${pr.number}/update-branch`, { expected_head_sha: pr.headSha });
    assert.deepEqual([refused.status, refused.json.message], [422, 'merge conflict between base and head']);
    assert.equal(platform.pullRequest(repo, pr.number).headSha, pr.headSha);
    assert.equal(await platform.branchSha(repo, pr.branch), pr.headSha);
  });

  test('a base moved to a commit holding a pull request head marks that pull request merged', async () => {
    const repo = await newRepo();
    const pr = await platform.openPullRequest({ repo, changes: { 'q.txt': 'q\n' } });
    const batch = await call('POST', `/repos/${repo}/git/refs`, { ref: 'refs/heads/batch', sha: (await platform.branchSha(repo, 'main'))! });
    assert.equal(batch.status, 201);
    const merged = await call('POST', `/repos/${repo}/merges`, { base: 'batch', head: pr.headSha });
    assert.equal((await call('PATCH', `/repos/${repo}/git/refs/heads/main`, { sha: merged.json.sha, force: false })).status, 200);
    const read = await call('GET', `/repos/${repo}/pulls/${pr.number}`);
    assert.deepEqual([read.json.state, read.json.merged, read.json.merged_by.login], ['closed', true, 'alice']);
  });

  test('concurrent merges into one branch are applied one after the other', async () => {
    const repo = await newRepo();
    await platform.push({ repo, branch: 'target', changes: { 't.txt': 't\n' } });
    const heads = await Promise.all([1, 2, 3, 4].map((i) => platform.push({ repo, branch: `h${i}`, changes: { [`h${i}.txt`]: `${i}\n` } })));
    const answers = await Promise.all(heads.map((head) => call('POST', `/repos/${repo}/merges`, { base: 'target', head })));
    assert.deepEqual(answers.map((a) => a.status), [201, 201, 201, 201]);
    assert.deepEqual([...(await platform.files(repo, 'target')).keys()].sort(), ['README.md', 'h1.txt', 'h2.txt', 'h3.txt', 'h4.txt', 't.txt']);
  });

  test('rights: a reader cannot write (403), a stranger cannot see (404)', async () => {
    const repo = await newRepo();
    const reader = platform.createUser('reader').token;
    const stranger = platform.createUser('stranger').token;
    platform.grant(repo, 'reader', 'read');
    assert.equal((await restCall(platform.url, reader, 'GET', `/repos/${repo}`)).json.permissions.push, false);
    assert.equal((await restCall(platform.url, reader, 'POST', `/repos/${repo}/merges`, { base: 'main', head: 'main' })).status, 403);
    assert.equal((await restCall(platform.url, stranger, 'GET', `/repos/${repo}`)).status, 404);
    assert.equal((await restCall(platform.url, 'ghp_unknown', 'GET', `/repos/${repo}`)).status, 401);
  });
});

describe('fake platform: 64-bit numbers', () => {
  test('ids and pull request numbers above 2^53 are written exactly', async () => {
    const platform = await new FakePlatform({ firstId: 2n ** 62n }).start();
    try {
      const { token } = platform.createUser('big', { id: 2n ** 53n + 1n });
      await platform.createRepository({ owner: 'big', name: 'numbers', firstNumber: 2n ** 60n + 7n });
      const pr = await platform.openPullRequest({ repo: 'big/numbers', changes: { 'n.txt': 'n\n' } });
      assert.equal(pr.number, 2n ** 60n + 7n);
      const read = await restCall(platform.url, token, 'GET', `/repos/big/numbers/pulls/${pr.number}`);
      assert.equal(read.json.number, 2n ** 60n + 7n);
      assert.equal(read.json.user.id, 2n ** 53n + 1n);
      assert.ok(read.json.id > 2n ** 62n);
    } finally {
      await platform.stop();
    }
  });
});

function pick(comparison: { status: string; ahead_by: number; behind_by: number; merge_base_commit: { sha: string } }) {
  return [comparison.status, comparison.ahead_by, comparison.behind_by, comparison.merge_base_commit.sha];
}
