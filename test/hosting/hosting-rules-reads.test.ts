// What the rules engine reads through the hosting client, against the fake platform over real
// git: files of a branch (missing, too large), the repository, a pull request's full fields
// (numbers above 2^53 exact, forks), its files (null past GitHub's 3000), commits, reviews, team
// members and comments, which it also edits and deletes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import type { RepositoryRef } from '../../src/hosting/hosting-types.ts';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { hostingClientFor } from '../support/fake-platform/platform-client.ts';

describe('hosting client: what the rules engine reads', () => {
  let platform: FakePlatform;
  let client: HostingPlatform;
  let count = 0;

  async function newRepo(files: Record<string, string> = { 'README.md': 'hello\n' }, firstNumber?: bigint): Promise<{ ref: RepositoryRef; full: string }> {
    const name = `rules${++count}`;
    await platform.createRepository({ owner: 'acme', name, files, firstNumber });
    platform.grant(`acme/${name}`, 'carol', 'write');
    return { ref: { owner: 'acme', repo: name }, full: `acme/${name}` };
  }

  before(async () => {
    platform = await new FakePlatform({ firstId: 2n ** 53n + 100n }).start();
    platform.createOrganization('acme');
    const { token } = platform.createUser('switchyard-bot');
    platform.setMembership('acme', 'switchyard-bot', { role: 'admin', state: 'active' });
    for (const login of ['bob', 'carol', 'dave']) platform.createUser(login);
    platform.createTeam('acme', 'core', ['carol', 'dave']);
    client = hostingClientFor(platform, { kind: 'token', token });
  });
  after(() => platform.stop());

  test('fileContent: a file decoded (with its blob sha), at a ref; missing paths, refs and directories; too large above 1 MiB', async () => {
    const { ref, full } = await newRepo({ '.mergify.yml': 'queue_rules:\n  - name: ✓ default\n', '.github/mergify.yml': 'x: 1\n' });
    const file = await client.fileContent(ref, '.mergify.yml');
    assert.equal(file.kind, 'file');
    assert.equal(file.kind === 'file' && file.content, 'queue_rules:\n  - name: ✓ default\n');
    assert.match(file.kind === 'file' ? file.sha : '', /^[0-9a-f]{40}$/);
    const nested = await client.fileContent(ref, '.github/mergify.yml');
    assert.equal(nested.kind === 'file' && nested.content, 'x: 1\n', 'a nested path');
    assert.deepEqual(await client.fileContent(ref, '.switchyard.yml'), { kind: 'missing' });
    assert.deepEqual(await client.fileContent(ref, '.github'), { kind: 'missing' }, 'a directory is no file');
    assert.deepEqual(await client.fileContent(ref, '.mergify.yml', 'no-such-branch'), { kind: 'missing' });
    const asked = platform.requestLog.length;
    for (const path of ['', '../../user', 'a/./b', '.github/']) assert.deepEqual(await client.fileContent(ref, path), { kind: 'missing' }, path);
    assert.equal(platform.requestLog.length, asked, 'paths no file can have are not asked for');
    await platform.push({ repo: full, branch: 'next', changes: { '.mergify.yml': 'changed\n', 'big/file with space.yml': 'y'.repeat(1024 * 1024 + 10) } });
    assert.equal(((await client.fileContent(ref, '.mergify.yml', 'next')) as { content: string }).content, 'changed\n');
    assert.deepEqual(await client.fileContent(ref, 'big/file with space.yml', 'next'), { kind: 'too_large', size: 1024 * 1024 + 10 });
  });

  test('repository: default branch, full name, private; null when unknown', async () => {
    const { ref, full } = await newRepo();
    assert.deepEqual(await client.repository(ref), { defaultBranch: 'main', fullName: full, private: true });
    await platform.push({ repo: full, branch: 'trunk', changes: { 't.txt': 't\n' } });
    await platform.setDefaultBranch(full, 'trunk');
    assert.equal((await client.repository(ref))!.defaultBranch, 'trunk');
    assert.equal(await client.repository({ owner: 'acme', repo: 'nothing-here' }), null);
  });

  test('a pull request read in full: labels, assignees, requested users and teams, milestone, lock, totals; numbers above 2^53', async () => {
    const { ref, full } = await newRepo({ 'a.txt': 'one\ntwo\n' }, 2n ** 60n + 3n);
    const opened = await platform.openPullRequest({ repo: full, changes: { 'a.txt': 'one\n2\nthree\n', 'b.txt': 'b\n' }, title: 'Rules', body: 'Depends-On: #1', author: 'bob' });
    await platform.addLabels(full, opened.number, ['bug', 'queue'], 'switchyard-bot');
    await platform.assign(full, opened.number, ['carol'], 'switchyard-bot');
    await platform.requestReviews(full, opened.number, { reviewers: ['dave'], teams: ['core'] }, 'switchyard-bot');
    await platform.setMilestone(full, opened.number, 'v2', 'switchyard-bot');
    await platform.lock(full, opened.number, true, 'switchyard-bot');
    const pr = (await client.pullRequest(ref, opened.number))!;
    assert.equal(pr.number, 2n ** 60n + 3n);
    assert.deepEqual(
      { title: pr.title, body: pr.body, author: pr.author, labels: pr.labels, assignees: pr.assignees, requestedReviewers: pr.requestedReviewers, milestone: pr.milestone, locked: pr.locked, mergedBy: pr.mergedBy, closedAt: pr.closedAt, mergedAt: pr.mergedAt, headRepoFullName: pr.headRepoFullName, baseRepoFullName: pr.baseRepoFullName, additions: pr.additions, deletions: pr.deletions, changedFiles: pr.changedFiles },
      { title: 'Rules', body: 'Depends-On: #1', author: 'bob', labels: ['bug', 'queue'], assignees: ['carol'], requestedReviewers: ['dave', '@acme/core'], milestone: 'v2', locked: true, mergedBy: null, closedAt: null, mergedAt: null, headRepoFullName: full, baseRepoFullName: full, additions: 3, deletions: 1, changedFiles: 2 },
    );
    assert.match(pr.htmlUrl ?? '', new RegExp(`/${full}/pull/${opened.number}$`));
    assert.ok(!Number.isNaN(Date.parse(pr.createdAt)));
    const [listed] = await client.listPullRequests(ref);
    assert.deepEqual([listed!.labels, listed!.requestedReviewers, listed!.changedFiles, listed!.additions], [['bug', 'queue'], ['dave', '@acme/core'], undefined, undefined], 'lists carry no totals');
    await platform.lock(full, opened.number, false, 'switchyard-bot');
    await platform.review(full, opened.number, 'carol', 'APPROVE');
    const merged = await client.mergePullRequest(ref, opened.number, { sha: opened.headSha, method: 'squash' });
    assert.equal(merged.kind, 'merged');
    const landed = (await client.pullRequest(ref, opened.number))!;
    assert.deepEqual([landed.merged, landed.mergedBy, typeof landed.mergedAt, typeof landed.closedAt, landed.changedFiles], [true, 'switchyard-bot', 'string', 'string', 2]);
  });

  test('a pull request from a fork names its head repository; no description reads as ""', async () => {
    const { ref, full } = await newRepo();
    const opened = await platform.openPullRequest({ repo: full, fork: `mallory/${ref.repo}`, changes: { 'f.txt': 'f\n' } });
    const pr = (await client.pullRequest(ref, opened.number))!;
    assert.deepEqual([pr.headRepoFullName, pr.baseRepoFullName, pr.author, pr.body], [`mallory/${ref.repo}`, full, 'mallory', '']);
  });

  test('files with their status, old path and line counts; commits with author and parents', async () => {
    const { ref, full } = await newRepo({ 'keep.txt': 'a\nb\n', 'gone.txt': 'g\n', 'old.txt': 'a file that moves\nwith some lines\nto be found again\n' });
    const opened = await platform.openPullRequest({ repo: full, changes: { 'keep.txt': 'a\nB\nc\n', 'gone.txt': null, 'old.txt': null, 'new.txt': 'a file that moves\nwith some lines\nto be found again\n', 'added.txt': 'x\n' }, title: 'Change files', author: 'bob' });
    const second = await platform.push({ repo: full, branch: opened.branch, changes: { 'added.txt': 'x\ny\n' }, message: 'Second commit', author: 'carol' });
    const files = (await client.pullRequestFiles(ref, opened.number))!;
    assert.deepEqual(files, [
      { path: 'added.txt', status: 'added', additions: 2, deletions: 0 },
      { path: 'gone.txt', status: 'removed', additions: 0, deletions: 1 },
      { path: 'keep.txt', status: 'modified', additions: 2, deletions: 1 },
      { path: 'new.txt', status: 'renamed', previousPath: 'old.txt', additions: 0, deletions: 0 },
    ]);
    assert.deepEqual(await client.pullRequestCommits(ref, opened.number), [
      { sha: opened.headSha, message: 'Change files', authorLogin: 'bob', parents: [(await platform.history(full, 'main'))[0]!.sha] },
      { sha: second, message: 'Second commit', authorLogin: 'carol', parents: [opened.headSha] },
    ]);
  });

  test('files of a pull request changing more than 3000 files: null; exactly 3000: every one', async () => {
    const { ref, full } = await newRepo();
    const many = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}/${i}.txt`, `${i}\n`]));
    const over = await platform.openPullRequest({ repo: full, changes: many(3001, 'over') });
    assert.equal(await client.pullRequestFiles(ref, over.number), null);
    const exact = await platform.openPullRequest({ repo: full, changes: many(3000, 'exact') });
    assert.equal((await client.pullRequestFiles(ref, exact.number))!.length, 3000);
  });

  test('reviews in order with state, commit and time; ids above 2^53', async () => {
    const { ref, full } = await newRepo();
    const opened = await platform.openPullRequest({ repo: full, changes: { 'r.txt': 'r\n' }, author: 'bob' });
    const approval = await platform.review(full, opened.number, 'carol', 'APPROVE');
    await platform.review(full, opened.number, 'dave', 'REQUEST_CHANGES', 'Split it');
    await platform.dismissReview(full, opened.number, approval.id, 'New commits', 'switchyard-bot');
    await platform.review(full, opened.number, 'dave', 'COMMENT', 'ok now');
    const reviews = await client.reviews(ref, opened.number);
    assert.deepEqual(reviews.map((r) => [r.author, r.state, r.commitId]), [['carol', 'DISMISSED', opened.headSha], ['dave', 'CHANGES_REQUESTED', opened.headSha], ['dave', 'COMMENTED', opened.headSha]]);
    assert.equal(reviews[0]!.id, approval.id);
    assert.ok(reviews[0]!.id > 2n ** 53n);
    assert.ok(reviews.every((r) => r.submittedAt !== null));
  });

  test('team members by organisation and slug; null for a team the platform does not know', async () => {
    assert.deepEqual(await client.teamMembers('acme', 'core'), ['carol', 'dave']);
    const big = Array.from({ length: 130 }, (_, i) => platform.createUser(`crowd-${i}`).user.login);
    platform.createTeam('acme', 'crowd', big);
    assert.deepEqual(await client.teamMembers('acme', 'crowd'), big, 'every page');
    assert.equal(await client.teamMembers('acme', 'ghosts'), null);
  });

  test('comments listed, updated and deleted; false when the comment is gone', async () => {
    const { ref, full } = await newRepo();
    const opened = await platform.openPullRequest({ repo: full, changes: { 'c.txt': 'c\n' } });
    const theirs = platform.comment(full, opened.number, 'carol', 'from carol');
    const mine = await client.comment(ref, opened.number, 'Protections fail');
    assert.deepEqual((await client.comments(ref, opened.number)).map((c) => [c.id, c.author, c.body]), [[theirs, 'carol', 'from carol'], [mine, 'switchyard-bot', 'Protections fail']]);
    assert.equal(await client.updateComment(ref, mine, 'Protections pass'), true);
    assert.equal((await client.comments(ref, opened.number))[1]!.body, 'Protections pass');
    assert.equal(await client.deleteComment(ref, mine), true);
    assert.equal(await client.deleteComment(ref, mine), false);
    assert.equal(await client.updateComment(ref, mine, 'again'), false);
    assert.deepEqual((await client.comments(ref, opened.number)).map((c) => c.id), [theirs]);
    await platform.webhooks.settled();
    assert.deepEqual(platform.webhooks.sent('issue_comment').filter((d) => d.action !== 'created').map((d) => d.action), ['edited', 'deleted']);
  });
});
