// Pull requests on the fake platform carry GitHub's fields in REST reads and webhooks (labels,
// assignees, reviewers, milestone, lock, totals), list their files and commits from the real
// diff, come from forks, and compare branches as GitHub does.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';
import { WebhookReceiver } from '../support/fake-platform/webhook-receiver.ts';

describe('fake platform: pull requests', () => {
  let platform: FakePlatform;
  let receiver: WebhookReceiver;
  let token: string;
  let count = 0;
  const call = (method: string, path: string, body?: unknown) => restCall(platform.url, token, method, path, body);

  async function newRepo(files: Record<string, string> = { 'README.md': 'hello\n', 'src/app.ts': 'one\ntwo\nthree\n' }): Promise<string> {
    const name = `pulls${++count}`;
    await platform.createRepository({ owner: 'acme', name, files });
    return `acme/${name}`;
  }

  before(async () => {
    platform = await new FakePlatform({ firstId: 2n ** 53n + 7n }).start();
    receiver = await new WebhookReceiver().start();
    platform.subscribe({ url: receiver.url, secret: 'pulls' });
    platform.createOrganization('acme');
    token = platform.createUser('alice').token;
    platform.setMembership('acme', 'alice', { role: 'admin', state: 'active' });
    platform.createUser('bob');
    platform.setMembership('acme', 'bob');
  });
  after(async () => {
    await platform.stop();
    await receiver.stop();
  });

  test("a single read carries GitHub's fields and totals; a list leaves the totals out", async () => {
    const repo = await newRepo();
    const pr = await platform.openPullRequest({ repo, changes: { 'src/app.ts': 'one\n2\nthree\nfour\n', 'new.txt': 'n\n' }, title: 'Two files', body: 'Why', author: 'bob' });
    await platform.addLabels(repo, pr.number, ['bug', 'area/ci'], 'alice');
    await platform.assign(repo, pr.number, ['alice'], 'alice');
    await platform.setMilestone(repo, pr.number, 'v1', 'alice');
    const read = await call('GET', `/repos/${repo}/pulls/${pr.number}`);
    assert.equal(read.status, 200);
    const p = read.json;
    assert.deepEqual(
      [p.title, p.body, p.user.login, p.labels.map((l: { name: string }) => l.name), p.assignees.map((a: { login: string }) => a.login), p.milestone.title, p.locked, p.draft, p.merged, p.merged_by],
      ['Two files', 'Why', 'bob', ['bug', 'area/ci'], ['alice'], 'v1', false, false, false, null],
    );
    assert.deepEqual([p.commits, p.additions, p.deletions, p.changed_files], [1, 3, 1, 2]);
    assert.deepEqual([p.head.repo.full_name, p.base.repo.full_name, p.head.label], [repo, repo, `acme:${pr.branch}`]);
    assert.deepEqual([p.mergeable, p.mergeable_state, p.requested_reviewers, p.requested_teams, p.closed_at, p.merged_at], [true, 'clean', [], [], null, null]);
    assert.match(p.html_url, new RegExp(`/${repo}/pull/${pr.number}$`));
    const [listed] = (await call('GET', `/repos/${repo}/pulls`)).json;
    assert.deepEqual(listed.labels.map((l: { name: string }) => l.name), ['bug', 'area/ci']);
    for (const detail of ['merged', 'mergeable', 'commits', 'additions', 'deletions', 'changed_files']) assert.equal(detail in listed, false, detail);
    await platform.webhooks.settled();
    const opened = receiver.of('pull_request', 'opened').find((h) => h.payload.pull_request.head.ref === pr.branch)!.payload;
    assert.deepEqual([opened.pull_request.changed_files, opened.pull_request.mergeable, opened.pull_request.merged], [2, null, false]);
  });

  test('PATCH of title and body sends one edited webhook with both old values; an unchanged PATCH sends none', async () => {
    const repo = await newRepo();
    const pr = await platform.openPullRequest({ repo, changes: { 'e.txt': 'e\n' }, title: 'Old', body: 'old body' });
    assert.equal((await call('PATCH', `/repos/${repo}/pulls/${pr.number}`, { title: 'New', body: 'new body' })).status, 200);
    assert.equal((await call('PATCH', `/repos/${repo}/pulls/${pr.number}`, { title: 'New' })).status, 200);
    await platform.webhooks.settled();
    const edits = receiver.of('pull_request', 'edited').filter((h) => h.payload.pull_request.head.ref === pr.branch).map((h) => h.payload);
    assert.equal(edits.length, 1);
    assert.deepEqual(edits[0].changes, { title: { from: 'Old' }, body: { from: 'old body' } });
    assert.deepEqual([edits[0].pull_request.title, edits[0].pull_request.body], ['New', 'new body']);
  });

  test('a pull request from a fork: head repository, label and pushes to the fork synchronise it; it merges', async () => {
    const repo = await newRepo();
    const pr = await platform.openPullRequest({ repo, fork: 'mallory/widgets', changes: { 'f.txt': 'from a fork\n' }, title: 'Fork change' });
    const read = (await call('GET', `/repos/${repo}/pulls/${pr.number}`)).json;
    assert.deepEqual([read.head.repo.full_name, read.head.repo.fork, read.head.label, read.user.login, read.base.repo.full_name], ['mallory/widgets', true, `mallory:${pr.branch}`, 'mallory', repo]);
    assert.equal((await call('GET', `/repos/${repo}/pulls?head=mallory:${pr.branch}`)).json.length, 1);
    assert.equal((await call('GET', '/repos/mallory/widgets')).status, 200, 'a private fork inherits the access of its parent');
    const next = await platform.push({ repo: 'mallory/widgets', branch: pr.branch, changes: { 'f.txt': 'again\n' } });
    assert.equal(platform.pullRequest(repo, pr.number).headSha, next);
    await platform.webhooks.settled();
    const sync = receiver.of('pull_request', 'synchronize').find((h) => h.payload.after === next)!.payload;
    assert.equal(sync.repository.full_name, repo);
    const merged = await call('PUT', `/repos/${repo}/pulls/${pr.number}/merge`, { merge_method: 'squash', sha: next });
    assert.equal(merged.status, 200);
    assert.equal((await platform.files(repo, 'main')).get('f.txt'), 'again\n');
  });

  test('a fork reads as one: fork, parent and source', async () => {
    const repo = await newRepo();
    await platform.fork(repo, 'alice/mine');
    const read = await call('GET', '/repos/alice/mine');
    assert.equal(read.status, 200);
    assert.deepEqual([read.json.fork, read.json.parent.full_name, read.json.source.full_name, read.json.default_branch], [true, repo, repo, 'main']);
    assert.equal((await call('GET', `/repos/${repo}`)).json.fork, false);
  });

  test('files: added, modified, removed and renamed with line counts, paginated 30 by default and 100 at most', async () => {
    const files: Record<string, string> = { 'keep.txt': 'a\nb\nc\n', 'gone.txt': 'bye\n', 'old-name.txt': 'same content for a rename\nline two\nline three\n' };
    for (let i = 0; i < 40; i++) files[`many/${String(i).padStart(2, '0')}.txt`] = `${i}\n`;
    const repo = await newRepo(files);
    const changes: Record<string, string | null> = { 'keep.txt': 'a\nB\nc\nd\n', 'gone.txt': null, 'old-name.txt': null, 'new-name.txt': 'same content for a rename\nline two\nline three\n', 'added.txt': 'x\ny\n' };
    for (let i = 0; i < 40; i++) changes[`many/${String(i).padStart(2, '0')}.txt`] = `${i}!\n`;
    const pr = await platform.openPullRequest({ repo, changes });
    const first = await call('GET', `/repos/${repo}/pulls/${pr.number}/files`);
    assert.equal(first.status, 200);
    assert.equal(first.json.length, 30);
    assert.match(first.headers.get('link') ?? '', /rel="next"/);
    const all = (await call('GET', `/repos/${repo}/pulls/${pr.number}/files?per_page=100`)).json;
    assert.equal(all.length, 44);
    const byName = new Map(all.map((f: { filename: string }) => [f.filename, f]));
    const pick = (name: string) => {
      const f = byName.get(name) as Record<string, unknown>;
      return [f.status, f.additions, f.deletions, f.changes, f.previous_filename];
    };
    assert.deepEqual(pick('keep.txt'), ['modified', 2, 1, 3, undefined]);
    assert.deepEqual(pick('gone.txt'), ['removed', 0, 1, 1, undefined]);
    assert.deepEqual(pick('added.txt'), ['added', 2, 0, 2, undefined]);
    assert.deepEqual(pick('new-name.txt'), ['renamed', 0, 0, 0, 'old-name.txt']);
    assert.equal((await call('GET', `/repos/${repo}/pulls/${pr.number}/files?per_page=500`)).json.length, 44, 'per_page is capped at 100');
    assert.equal((await call('GET', `/repos/${repo}/pulls/999/files`)).status, 404);
  });

  test('files of a pull request changing more than 3000 files stop at 3000; changed_files says how many', async () => {
    const repo = await newRepo();
    const changes: Record<string, string> = {};
    for (let i = 0; i < 3005; i++) changes[`big/${i}.txt`] = `${i}\n`;
    const pr = await platform.openPullRequest({ repo, changes });
    assert.equal((await call('GET', `/repos/${repo}/pulls/${pr.number}`)).json.changed_files, 3005);
    assert.equal((await call('GET', `/repos/${repo}/pulls/${pr.number}/files?per_page=100&page=30`)).json.length, 100);
    assert.equal((await call('GET', `/repos/${repo}/pulls/${pr.number}/files?per_page=100&page=31`)).json.length, 0);
  });

  test('commits: oldest first with message, author login and parents; a merged pull request keeps its files', async () => {
    const repo = await newRepo();
    const pr = await platform.openPullRequest({ repo, changes: { 'c.txt': '1\n' }, title: 'First', author: 'bob' });
    const second = await platform.push({ repo, branch: pr.branch, changes: { 'c.txt': '2\n' }, message: 'Second', author: 'alice' });
    const commits = (await call('GET', `/repos/${repo}/pulls/${pr.number}/commits`)).json;
    assert.deepEqual(commits.map((c: { commit: { message: string }; author: { login: string } }) => [c.commit.message, c.author.login]), [['First', 'bob'], ['Second', 'alice']]);
    assert.deepEqual(commits[1].parents.map((p: { sha: string }) => p.sha), [pr.headSha]);
    assert.equal(commits[1].sha, second);
    assert.equal((await call('PUT', `/repos/${repo}/pulls/${pr.number}/merge`, { merge_method: 'squash' })).status, 200);
    const files = (await call('GET', `/repos/${repo}/pulls/${pr.number}/files`)).json;
    assert.deepEqual(files.map((f: { filename: string; status: string }) => [f.filename, f.status]), [['c.txt', 'added']]);
    const read = (await call('GET', `/repos/${repo}/pulls/${pr.number}`)).json;
    assert.deepEqual([read.merged, read.commits, read.changed_files, read.merged_by.login], [true, 2, 1, 'alice']);
  });

  test('compare: ahead_by, behind_by, merge base and the files of base...head', async () => {
    const repo = await newRepo();
    const start = (await platform.branchSha(repo, 'main'))!;
    await platform.push({ repo, branch: 'topic', changes: { 't1.txt': '1\n' } });
    await platform.push({ repo, branch: 'topic', changes: { 't2.txt': '2\n' } });
    await platform.push({ repo, branch: 'main', changes: { 'm.txt': 'm\n' } });
    const diverged = await call('GET', `/repos/${repo}/compare/main...topic`);
    assert.equal(diverged.status, 200);
    const c = diverged.json;
    assert.deepEqual([c.status, c.ahead_by, c.behind_by, c.total_commits, c.merge_base_commit.sha, c.commits.length], ['diverged', 2, 1, 2, start, 2]);
    assert.deepEqual(c.files.map((f: { filename: string; status: string }) => [f.filename, f.status]), [['t1.txt', 'added'], ['t2.txt', 'added']]);
    const behind = (await call('GET', `/repos/${repo}/compare/topic...main`)).json;
    assert.deepEqual([behind.status, behind.ahead_by, behind.behind_by, behind.files.map((f: { filename: string }) => f.filename)], ['diverged', 1, 2, ['m.txt']]);
    const same = (await call('GET', `/repos/${repo}/compare/main...main`)).json;
    assert.deepEqual([same.status, same.ahead_by, same.behind_by, same.files], ['identical', 0, 0, []]);
    assert.equal((await call('GET', `/repos/${repo}/compare/main...nope`)).status, 404);
  });

  test('push: each commit lists the files it added, modified and removed; head_commit is the new tip', async () => {
    const repo = await newRepo();
    const first = await platform.push({ repo, branch: 'listed', changes: { 'a.txt': 'a\n', 'README.md': 'changed\n' } });
    const second = await platform.push({ repo, branch: 'listed', changes: { 'a.txt': null, 'b.txt': 'b\n' } });
    await platform.webhooks.settled();
    const pushes = receiver.of('push').filter((h) => h.payload.repository.full_name === repo && h.payload.ref === 'refs/heads/listed').map((h) => h.payload);
    assert.deepEqual(pushes[0].head_commit.id, first);
    assert.deepEqual([pushes[0].head_commit.added, pushes[0].head_commit.modified, pushes[0].head_commit.removed], [['a.txt'], ['README.md'], []]);
    assert.deepEqual(pushes[1].commits.map((c: { id: string; added: string[]; removed: string[] }) => [c.id, c.added, c.removed]), [[second, ['b.txt'], ['a.txt']]]);
    assert.equal(pushes[1].repository.default_branch, 'main');
    const created = await platform.push({ repo, branch: 'main', changes: { 'm.txt': 'm\n' } });
    assert.equal((await call('POST', `/repos/${repo}/git/refs`, { ref: 'refs/heads/copy', sha: created })).status, 201);
    await platform.webhooks.settled();
    const copy = receiver.of('push').find((h) => h.payload.repository.full_name === repo && h.payload.ref === 'refs/heads/copy')!.payload;
    assert.deepEqual([copy.commits, copy.head_commit.id, copy.head_commit.distinct], [[], created, false]);
  });
});
