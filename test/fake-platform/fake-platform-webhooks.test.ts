// The fake platform's webhooks are what GitHub sends: signed with HMAC-SHA256 of the raw body
// (verified here by Switchyard's own check), one fresh delivery id each, GitHub's payload
// shapes for every pull request action, pushes, checks, statuses and comments; chosen
// deliveries can be dropped, and an app's subscription carries its installation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signatureMatches } from '../../src/domain/webhooks/signature.ts';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';
import { WebhookReceiver } from '../support/fake-platform/webhook-receiver.ts';

const SECRET = 'fake-platform-webhook-secret';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('fake platform: webhooks', () => {
  let platform: FakePlatform;
  let receiver: WebhookReceiver;
  let token: string;
  const repo = 'alice/hooks';

  before(async () => {
    platform = await new FakePlatform().start();
    receiver = await new WebhookReceiver().start();
    token = platform.createUser('alice').token;
    platform.createUser('bob');
    platform.subscribe({ url: receiver.url, secret: SECRET });
    await platform.createRepository({ owner: 'alice', name: 'hooks' });
  });
  after(async () => {
    await platform.stop();
    await receiver.stop();
  });

  test('every delivery is signed over its raw body and has its own delivery id', async () => {
    await platform.openPullRequest({ repo, changes: { 'a.txt': 'a\n' } });
    await platform.webhooks.settled();
    assert.ok(receiver.received.length >= 2);
    for (const hook of receiver.received) {
      assert.ok(signatureMatches(SECRET, hook.body, hook.signature), `${hook.event} signed`);
      assert.equal(signatureMatches('another-secret-entirely', hook.body, hook.signature), false);
      assert.match(hook.delivery, UUID);
      assert.equal(hook.payload.repository.full_name, repo);
      assert.equal(hook.payload.sender.login, 'alice');
      assert.equal('installation' in hook.payload, false, 'a repository webhook has no installation');
    }
    assert.equal(new Set(receiver.received.map((h) => h.delivery)).size, receiver.received.length);
  });

  test('pull_request: opened, synchronize, edited (base), draft changes, closed, reopened, merged', async () => {
    await platform.push({ repo, branch: 'release', changes: { 'r.txt': 'r\n' } });
    const pr = await platform.openPullRequest({ repo, changes: { 'b.txt': 'b\n' }, title: 'B' });
    const next = await platform.push({ repo, branch: pr.branch, changes: { 'b.txt': 'b2\n' } });
    await platform.changeBase(repo, pr.number, 'release');
    await platform.setDraft(repo, pr.number, true);
    await platform.setDraft(repo, pr.number, false);
    assert.equal((await restCall(platform.url, token, 'PATCH', `/repos/${repo}/pulls/${pr.number}`, { state: 'closed' })).status, 200);
    assert.equal((await restCall(platform.url, token, 'PATCH', `/repos/${repo}/pulls/${pr.number}`, { state: 'open' })).status, 200);
    assert.equal((await restCall(platform.url, token, 'PUT', `/repos/${repo}/pulls/${pr.number}/merge`, { sha: next })).status, 200);
    await platform.webhooks.settled();
    const mine = receiver.of('pull_request').filter((h) => BigInt(h.payload.number) === pr.number);
    assert.deepEqual(mine.map((h) => h.payload.action), ['opened', 'synchronize', 'edited', 'converted_to_draft', 'ready_for_review', 'closed', 'reopened', 'closed']);
    const [opened, sync, edited, draft, , closed, , merged] = mine.map((h) => h.payload);
    assert.deepEqual([opened.pull_request.head.ref, opened.pull_request.base.ref, opened.pull_request.draft], [pr.branch, 'main', false]);
    assert.deepEqual([sync.before, sync.after, sync.pull_request.head.sha], [pr.headSha, next, next]);
    assert.deepEqual([edited.changes.base.ref.from, edited.pull_request.base.ref], ['main', 'release']);
    assert.equal(draft.pull_request.draft, true);
    assert.deepEqual([closed.pull_request.state, closed.pull_request.merged], ['closed', false]);
    assert.deepEqual([merged.pull_request.merged, merged.pull_request.merged_by.login], [true, 'alice']);
  });

  test('push: one per ref update, with before, after, created, deleted and forced', async () => {
    const first = await platform.push({ repo, branch: 'pushy', changes: { 'p.txt': '1\n' } });
    const second = await platform.push({ repo, branch: 'pushy', changes: { 'p.txt': '2\n' } });
    const forced = await platform.push({ repo, branch: 'pushy', changes: { 'p.txt': '3\n' }, force: true });
    assert.equal((await restCall(platform.url, token, 'DELETE', `/repos/${repo}/git/refs/heads/pushy`)).status, 204);
    await platform.webhooks.settled();
    const pushes = receiver.of('push').filter((h) => h.payload.ref === 'refs/heads/pushy').map((h) => h.payload);
    const zero = '0'.repeat(40);
    assert.deepEqual(pushes.map((p) => [p.before, p.after, p.created, p.deleted, p.forced]), [
      [zero, first, true, false, false],
      [first, second, false, false, false],
      [second, forced, false, false, true],
      [forced, zero, false, true, false],
    ]);
    assert.equal(pushes[1].head_commit.id, second);
    assert.deepEqual(pushes[1].commits.map((c: { id: string }) => c.id), [second]);
  });

  test('check_run, check_suite and status from the fake CI; issue_comment from a comment', async () => {
    const pr = await platform.openPullRequest({ repo, changes: { 'c.txt': 'c\n' } });
    platform.ci.configure({ checks: [{ name: 'ci/test' }, { name: 'ci/legacy', kind: 'status' }] });
    pr.headSha = await platform.push({ repo, branch: pr.branch, changes: { 'c.txt': 'c2\n' } });
    await platform.ci.settled();
    platform.ci.configure(undefined);
    platform.comment(repo, pr.number, 'bob', '@switchyard queue');
    await platform.webhooks.settled();
    const runs = receiver.of('check_run').filter((h) => h.payload.check_run.head_sha === pr.headSha).map((h) => h.payload);
    assert.deepEqual(runs.map((r) => [r.action, r.check_run.status, r.check_run.conclusion]), [['created', 'in_progress', null], ['completed', 'completed', 'success']]);
    assert.equal(runs[1].check_run.app.slug, 'fake-ci');
    assert.deepEqual(runs[1].check_run.pull_requests.map((p: { number: number }) => BigInt(p.number)), [pr.number]);
    const suite = receiver.of('check_suite', 'completed').find((h) => h.payload.check_suite.head_sha === pr.headSha)!.payload;
    assert.deepEqual([suite.check_suite.conclusion, suite.check_suite.head_branch], ['success', pr.branch]);
    const statuses = receiver.of('status').filter((h) => h.payload.sha === pr.headSha).map((h) => [h.payload.context, h.payload.state]);
    assert.deepEqual(statuses, [['ci/legacy', 'pending'], ['ci/legacy', 'success']]);
    const comment = receiver.of('issue_comment', 'created').at(-1)!.payload;
    assert.deepEqual([comment.comment.body, comment.comment.user.login, comment.sender.login, BigInt(comment.issue.number)], ['@switchyard queue', 'bob', 'bob', pr.number]);
    assert.ok(comment.issue.pull_request.url.endsWith(`/pulls/${pr.number}`));
  });

  test('dropped deliveries are recorded but never sent', async () => {
    platform.webhooks.drop = (delivery) => delivery.event === 'pull_request' && delivery.action === 'opened';
    const before = receiver.received.length;
    const pr = await platform.openPullRequest({ repo, changes: { 'd.txt': 'd\n' } });
    await platform.webhooks.settled();
    platform.webhooks.drop = () => false;
    const recorded = platform.webhooks.sent('pull_request', 'opened').at(-1)!;
    assert.deepEqual([recorded.payload.number, recorded.dropped, recorded.results], [pr.number, true, []]);
    assert.deepEqual(receiver.received.slice(before).map((h) => h.event), ['push'], 'the push went, the opened did not');
  });

  test("an app's subscription gets its installation, and only for repositories it is installed on", async () => {
    const appReceiver = await new WebhookReceiver().start();
    try {
      const app = platform.createApp('queue-app', 'alice');
      const installation = platform.installApp(app, 'alice', ['hooks']);
      platform.subscribe({ url: appReceiver.url, secret: SECRET, app });
      await platform.createRepository({ owner: 'alice', name: 'elsewhere' });
      await platform.push({ repo, branch: 'app-seen', changes: { 'x.txt': 'x\n' } });
      await platform.push({ repo: 'alice/elsewhere', branch: 'app-unseen', changes: { 'x.txt': 'x\n' } });
      await platform.webhooks.settled();
      const refs = appReceiver.of('push').map((h) => [h.payload.ref, BigInt(h.payload.installation.id)]);
      assert.deepEqual(refs, [['refs/heads/app-seen', installation.id]]);
    } finally {
      await appReceiver.stop();
    }
  });
});
