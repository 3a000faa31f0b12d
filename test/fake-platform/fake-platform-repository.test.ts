// A repository's files, settings and comments on the fake platform as GitHub serves them: the
// contents API over the real tree (base64, directories, 404s, files over 1 MiB without
// content), the default branch, and comments edited and deleted by whom GitHub allows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';

describe('fake platform: contents, repository settings and comments', () => {
  let platform: FakePlatform;
  const tokens: Record<string, string> = {};
  const repo = 'acme/files';
  const as = (login: string, method: string, path: string, body?: unknown) => restCall(platform.url, tokens[login], method, path, body);

  before(async () => {
    platform = await new FakePlatform().start();
    platform.createOrganization('acme');
    for (const login of ['alice', 'bob', 'carol']) tokens[login] = platform.createUser(login).token;
    platform.setMembership('acme', 'alice', { role: 'admin', state: 'active' });
    await platform.createRepository({ owner: 'acme', name: 'files', files: { '.mergify.yml': 'pull_request_rules: []\n', 'docs/guide.md': '# Guide\n', 'docs/deep/x.txt': 'x\n', 'héllo wörld.txt': 'ünïcode ✓\n' } });
    platform.grant(repo, 'bob', 'write');
    platform.grant(repo, 'carol', 'read');
  });
  after(() => platform.stop());

  test('a file: base64 content, blob sha, size, name and path; at a ref; 404 for a missing path or ref', async () => {
    const read = await as('carol', 'GET', `/repos/${repo}/contents/.mergify.yml`);
    assert.equal(read.status, 200);
    const f = read.json;
    assert.deepEqual([f.type, f.encoding, f.name, f.path, f.size], ['file', 'base64', '.mergify.yml', '.mergify.yml', 23]);
    assert.equal(Buffer.from(f.content, 'base64').toString('utf8'), 'pull_request_rules: []\n');
    assert.match(f.sha, /^[0-9a-f]{40}$/);
    assert.notEqual(f.sha, await platform.branchSha(repo, 'main'), 'the blob, not the commit');
    const unicode = (await as('carol', 'GET', `/repos/${repo}/contents/${encodeURIComponent('héllo wörld.txt')}`)).json;
    assert.equal(Buffer.from(unicode.content, 'base64').toString('utf8'), 'ünïcode ✓\n');
    const first = (await platform.branchSha(repo, 'main'))!;
    await platform.push({ repo, branch: 'main', changes: { '.mergify.yml': 'changed: true\n' } });
    const old = (await as('carol', 'GET', `/repos/${repo}/contents/.mergify.yml?ref=${first}`)).json;
    assert.equal(Buffer.from(old.content, 'base64').toString('utf8'), 'pull_request_rules: []\n');
    await platform.push({ repo, branch: 'other', changes: { 'only-here.txt': 'o\n' } });
    assert.equal((await as('carol', 'GET', `/repos/${repo}/contents/only-here.txt?ref=other`)).status, 200);
    assert.equal((await as('carol', 'GET', `/repos/${repo}/contents/only-here.txt`)).status, 404);
    assert.equal((await as('carol', 'GET', `/repos/${repo}/contents/.mergify.yml?ref=no-such-branch`)).status, 404);
    assert.equal((await as('carol', 'GET', `/repos/${repo}/contents/docs/nothing.md`)).status, 404);
    assert.equal((await restCall(platform.url, platform.createUser('stranger').token, 'GET', `/repos/${repo}/contents/.mergify.yml`)).status, 404, 'a private repository is invisible to others');
  });

  test('a directory lists its entries; the root too; a nested path slash or %2F', async () => {
    const docs = (await as('carol', 'GET', `/repos/${repo}/contents/docs`)).json;
    assert.deepEqual(docs.map((e: { type: string; name: string; path: string }) => [e.type, e.name, e.path]), [['dir', 'deep', 'docs/deep'], ['file', 'guide.md', 'docs/guide.md']]);
    assert.equal('content' in docs[1], false);
    const root = (await as('carol', 'GET', `/repos/${repo}/contents`)).json;
    assert.ok(root.some((e: { path: string }) => e.path === '.mergify.yml'));
    for (const path of ['docs/deep/x.txt', 'docs%2Fdeep%2Fx.txt']) {
      const read = await as('carol', 'GET', `/repos/${repo}/contents/${path}`);
      assert.deepEqual([read.status, read.json.path], [200, 'docs/deep/x.txt'], path);
    }
  });

  test('a file over 1 MiB comes with its size and no content (encoding "none")', async () => {
    await platform.push({ repo, branch: 'big', changes: { 'big.txt': 'x'.repeat(1024 * 1024 + 1), 'edge.txt': 'y'.repeat(1024 * 1024) } });
    const big = (await as('carol', 'GET', `/repos/${repo}/contents/big.txt?ref=big`)).json;
    assert.deepEqual([big.size, big.encoding, big.content], [1024 * 1024 + 1, 'none', '']);
    const edge = (await as('carol', 'GET', `/repos/${repo}/contents/edge.txt?ref=big`)).json;
    assert.deepEqual([edge.size, edge.encoding, Buffer.from(edge.content, 'base64').length], [1024 * 1024, 'base64', 1024 * 1024]);
  });

  test('the default branch: read, changed by an admin only, to an existing branch, with a repository webhook', async () => {
    await platform.push({ repo, branch: 'develop', changes: { 'd.txt': 'd\n' } });
    assert.equal((await as('bob', 'PATCH', `/repos/${repo}`, { default_branch: 'develop' })).status, 403);
    assert.equal((await as('alice', 'PATCH', `/repos/${repo}`, { default_branch: 'nope' })).status, 422);
    const changed = await as('alice', 'PATCH', `/repos/${repo}`, { default_branch: 'develop' });
    assert.deepEqual([changed.status, changed.json.default_branch], [200, 'develop']);
    const read = (await as('carol', 'GET', `/repos/${repo}`)).json;
    assert.deepEqual([read.default_branch, read.full_name, read.owner.login, read.private, read.fork], ['develop', repo, 'acme', true, false]);
    assert.equal((await as('carol', 'GET', `/repos/${repo}/contents/d.txt`)).status, 200, 'contents read the default branch');
    await platform.webhooks.settled();
    const [edited] = platform.webhooks.sent('repository', 'edited').map((d) => d.payload as { changes: { default_branch: { from: string } }; repository: { default_branch: string } });
    assert.deepEqual([edited!.changes.default_branch.from, edited!.repository.default_branch], ['main', 'develop']);
    await platform.setDefaultBranch(repo, 'main');
  });

  test('comments: listed by page, edited and deleted by their author or a writer, 403 for other readers, 404 when gone', async () => {
    const pr = await platform.openPullRequest({ repo, changes: { 'c.txt': 'c\n' } });
    const ids = [];
    for (let i = 0; i < 32; i++) ids.push(platform.comment(repo, pr.number, 'carol', `comment ${i}`));
    const page = await as('carol', 'GET', `/repos/${repo}/issues/${pr.number}/comments`);
    assert.deepEqual([page.json.length, page.json[0].body], [30, 'comment 0']);
    assert.equal((await as('carol', 'GET', `/repos/${repo}/issues/${pr.number}/comments?page=2`)).json.length, 2);
    const edited = await as('carol', 'PATCH', `/repos/${repo}/issues/comments/${ids[0]}`, { body: 'edited by its author' });
    assert.deepEqual([edited.status, edited.json.body], [200, 'edited by its author']);
    const mine = platform.comment(repo, pr.number, 'bob', 'by bob');
    assert.equal((await as('carol', 'PATCH', `/repos/${repo}/issues/comments/${mine}`, { body: 'not yours' })).status, 403);
    assert.equal((await as('carol', 'DELETE', `/repos/${repo}/issues/comments/${mine}`)).status, 403);
    assert.equal((await as('bob', 'PATCH', `/repos/${repo}/issues/comments/${ids[1]}`, { body: 'a writer may' })).status, 200);
    assert.equal((await as('carol', 'PATCH', `/repos/${repo}/issues/comments/${ids[2]}`, { body: '' })).status, 422);
    assert.equal((await as('carol', 'DELETE', `/repos/${repo}/issues/comments/${ids[0]}`)).status, 204);
    assert.equal((await as('carol', 'DELETE', `/repos/${repo}/issues/comments/${ids[0]}`)).status, 404);
    assert.equal((await as('carol', 'PATCH', `/repos/${repo}/issues/comments/${ids[0]}`, { body: 'gone' })).status, 404);
    await platform.webhooks.settled();
    const events = platform.webhooks.sent('issue_comment').filter((d) => d.action !== 'created').map((d) => d.payload as { action: string; comment: { id: bigint | number; body: string }; changes?: { body: { from: string } }; sender: { login: string } });
    assert.deepEqual(events.map((e) => [e.action, BigInt(e.comment.id), e.changes?.body.from ?? null, e.sender.login]), [
      ['edited', ids[0], 'comment 0', 'carol'],
      ['edited', ids[1], 'comment 1', 'bob'],
      ['deleted', ids[0], null, 'carol'],
    ]);
  });
});
