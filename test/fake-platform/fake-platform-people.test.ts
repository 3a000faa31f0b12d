// What people do on pull requests of the fake platform, through the REST API as GitHub answers
// it and with the webhooks GitHub sends: labels, assignees, review requests to users and teams,
// reviews and their dismissal, teams and their members, milestones and locks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';
import { WebhookReceiver } from '../support/fake-platform/webhook-receiver.ts';

describe('fake platform: labels, assignees, reviews and teams', () => {
  let platform: FakePlatform;
  let receiver: WebhookReceiver;
  const tokens: Record<string, string> = {};
  let count = 0;
  const as = (login: string, method: string, path: string, body?: unknown) => restCall(platform.url, tokens[login], method, path, body);

  async function newPull(): Promise<{ repo: string; number: bigint; branch: string; headSha: string }> {
    const repo = `acme/people${++count}`;
    await platform.createRepository({ owner: 'acme', name: `people${count}` });
    platform.grant(repo, 'bob', 'write');
    platform.grant(repo, 'carol', 'read');
    return { repo, ...(await platform.openPullRequest({ repo, changes: { 'p.txt': 'p\n' }, author: 'bob' })) };
  }

  async function hooks(repo: string, event: string, action?: string) {
    await platform.webhooks.settled();
    return receiver.of(event, action).filter((h) => h.payload.repository.full_name === repo).map((h) => h.payload);
  }

  before(async () => {
    platform = await new FakePlatform().start();
    receiver = await new WebhookReceiver().start();
    platform.subscribe({ url: receiver.url, secret: 'people' });
    platform.createOrganization('acme');
    for (const login of ['alice', 'bob', 'carol', 'dave', 'outsider']) tokens[login] = platform.createUser(login).token;
    platform.setMembership('acme', 'alice', { role: 'admin', state: 'active' });
    platform.createTeam('acme', 'Core', ['dave', 'carol']);
  });
  after(async () => {
    await platform.stop();
    await receiver.stop();
  });

  test('labels: added (made on the fly), replaced, removed; 404 for a label the pull request lacks', async () => {
    const { repo, number } = await newPull();
    const added = await as('bob', 'POST', `/repos/${repo}/issues/${number}/labels`, { labels: ['bug', 'needs review'] });
    assert.equal(added.status, 200);
    assert.deepEqual(added.json.map((l: { name: string }) => l.name), ['bug', 'needs review']);
    assert.equal(added.json[0].color, 'ededed');
    assert.deepEqual((await as('bob', 'POST', `/repos/${repo}/issues/${number}/labels`, ['BUG'])).json.map((l: { name: string }) => l.name), ['bug', 'needs review'], 'names compare without case');
    const replaced = await as('bob', 'PUT', `/repos/${repo}/issues/${number}/labels`, { labels: ['needs review', 'ready'] });
    assert.deepEqual(replaced.json.map((l: { name: string }) => l.name), ['needs review', 'ready']);
    const removed = await as('bob', 'DELETE', `/repos/${repo}/issues/${number}/labels/needs%20review`);
    assert.deepEqual([removed.status, removed.json.map((l: { name: string }) => l.name)], [200, ['ready']]);
    const missing = await as('bob', 'DELETE', `/repos/${repo}/issues/${number}/labels/bug`);
    assert.deepEqual([missing.status, missing.json.message], [404, 'Label does not exist']);
    assert.deepEqual((await as('bob', 'GET', `/repos/${repo}/issues/${number}/labels`)).json.map((l: { name: string }) => l.name), ['ready']);
    assert.deepEqual((await as('bob', 'GET', `/repos/${repo}/labels`)).json.map((l: { name: string }) => l.name), ['bug', 'needs review', 'ready']);
    assert.equal((await as('carol', 'POST', `/repos/${repo}/issues/${number}/labels`, { labels: ['x'] })).status, 403, 'a reader cannot label');
    assert.equal((await as('bob', 'POST', `/repos/${repo}/issues/${number}/labels`, { labels: 'bug' })).status, 422);
    assert.equal((await as('bob', 'DELETE', `/repos/${repo}/issues/${number}/labels`)).status, 204);
    const labeled = (await hooks(repo, 'pull_request')).filter((h) => h.action === 'labeled' || h.action === 'unlabeled');
    assert.deepEqual(labeled.map((h) => [h.action, h.label.name]), [
      ['labeled', 'bug'], ['labeled', 'needs review'], ['unlabeled', 'bug'], ['labeled', 'ready'], ['unlabeled', 'needs review'], ['unlabeled', 'ready'],
    ]);
    assert.deepEqual(labeled[1].pull_request.labels.map((l: { name: string }) => l.name), ['bug', 'needs review']);
  });

  test('assignees: added (logins without access skipped), removed, each with its webhook', async () => {
    const { repo, number } = await newPull();
    const added = await as('bob', 'POST', `/repos/${repo}/issues/${number}/assignees`, { assignees: ['carol', 'outsider', 'nobody'] });
    assert.equal(added.status, 201);
    assert.deepEqual(added.json.assignees.map((a: { login: string }) => a.login), ['carol']);
    assert.equal(added.json.pull_request.url.endsWith(`/pulls/${number}`), true);
    const removed = await as('bob', 'DELETE', `/repos/${repo}/issues/${number}/assignees`, { assignees: ['carol'] });
    assert.deepEqual([removed.status, removed.json.assignees], [200, []]);
    const events = (await hooks(repo, 'pull_request')).filter((h) => h.action === 'assigned' || h.action === 'unassigned');
    assert.deepEqual(events.map((h) => [h.action, h.assignee.login, h.pull_request.assignees.length]), [['assigned', 'carol', 1], ['unassigned', 'carol', 0]]);
  });

  test('review requests to users and teams; the author and strangers are refused; withdrawn', async () => {
    const { repo, number } = await newPull();
    const asked = await as('alice', 'POST', `/repos/${repo}/pulls/${number}/requested_reviewers`, { reviewers: ['carol'], team_reviewers: ['core'] });
    assert.equal(asked.status, 201);
    assert.deepEqual([asked.json.requested_reviewers.map((u: { login: string }) => u.login), asked.json.requested_teams.map((t: { slug: string }) => t.slug)], [['carol'], ['core']]);
    const author = await as('alice', 'POST', `/repos/${repo}/pulls/${number}/requested_reviewers`, { reviewers: ['bob'] });
    assert.deepEqual([author.status, author.json.message], [422, 'Review cannot be requested from pull request author.']);
    const stranger = await as('alice', 'POST', `/repos/${repo}/pulls/${number}/requested_reviewers`, { reviewers: ['outsider'] });
    assert.equal(stranger.status, 422);
    assert.match(stranger.json.message, /^Reviews may only be requested from collaborators/);
    assert.equal((await as('alice', 'POST', `/repos/${repo}/pulls/${number}/requested_reviewers`, { team_reviewers: ['nope'] })).status, 422);
    const listed = (await as('bob', 'GET', `/repos/${repo}/pulls/${number}/requested_reviewers`)).json;
    assert.deepEqual([listed.users.map((u: { login: string }) => u.login), listed.teams.map((t: { slug: string }) => t.slug)], [['carol'], ['core']]);
    const withdrawn = await as('alice', 'DELETE', `/repos/${repo}/pulls/${number}/requested_reviewers`, { reviewers: ['carol'], team_reviewers: ['core'] });
    assert.deepEqual([withdrawn.status, withdrawn.json.requested_reviewers, withdrawn.json.requested_teams], [200, [], []]);
    const events = (await hooks(repo, 'pull_request')).filter((h) => h.action.startsWith('review_request'));
    assert.deepEqual(events.map((h) => [h.action, h.requested_reviewer?.login ?? `team:${h.requested_team.slug}`]), [
      ['review_requested', 'carol'], ['review_requested', 'team:core'], ['review_request_removed', 'carol'], ['review_request_removed', 'team:core'],
    ]);
  });

  test('reviews: approve, request changes, comment; not on your own pull request; a requested reviewer is no longer requested', async () => {
    const { repo, number, headSha } = await newPull();
    await platform.requestReviews(repo, number, { reviewers: ['carol'] }, 'alice');
    const approved = await as('carol', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { event: 'APPROVE' });
    assert.equal(approved.status, 200);
    assert.deepEqual([approved.json.state, approved.json.user.login, approved.json.commit_id, typeof approved.json.submitted_at], ['APPROVED', 'carol', headSha, 'string']);
    assert.deepEqual(platform.pullRequest(repo, number).requestedReviewers, []);
    const own = await as('bob', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { event: 'APPROVE' });
    assert.deepEqual([own.status, own.json.errors], [422, ['Can not approve your own pull request']]);
    assert.equal((await as('bob', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { event: 'REQUEST_CHANGES', body: 'x' })).status, 422);
    assert.equal((await as('bob', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { event: 'COMMENT', body: 'a note to myself' })).status, 200);
    assert.equal((await as('alice', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { event: 'REQUEST_CHANGES' })).status, 422, 'changes need a body');
    assert.equal((await as('alice', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { event: 'MAYBE' })).status, 422);
    const changes = await as('alice', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { event: 'REQUEST_CHANGES', body: 'Please split' });
    assert.equal(changes.json.state, 'CHANGES_REQUESTED');
    const pending = await as('dave', 'POST', `/repos/${repo}/pulls/${number}/reviews`, { body: 'draft' });
    assert.deepEqual([pending.status, pending.json.state, 'submitted_at' in pending.json], [200, 'PENDING', false]);
    const seenByBob = (await as('bob', 'GET', `/repos/${repo}/pulls/${number}/reviews`)).json.map((r: { user: { login: string }; state: string }) => [r.user.login, r.state]);
    assert.deepEqual(seenByBob, [['carol', 'APPROVED'], ['bob', 'COMMENTED'], ['alice', 'CHANGES_REQUESTED']], 'a pending review is seen by its author only');
    assert.equal((await as('dave', 'GET', `/repos/${repo}/pulls/${number}/reviews`)).json.length, 4);
    const submitted = await hooks(repo, 'pull_request_review', 'submitted');
    assert.deepEqual(submitted.map((h) => [h.review.user.login, h.review.state, h.pull_request.number]), [['carol', 'APPROVED', Number(number)], ['bob', 'COMMENTED', Number(number)], ['alice', 'CHANGES_REQUESTED', Number(number)]]);
  });

  test('dismissals: approvals and change requests only, by someone who can write, with a message', async () => {
    const { repo, number } = await newPull();
    const approval = await platform.review(repo, number, 'carol', 'APPROVE');
    const comment = await platform.review(repo, number, 'alice', 'COMMENT', 'fine');
    const path = (id: bigint) => `/repos/${repo}/pulls/${number}/reviews/${id}/dismissals`;
    assert.equal((await as('carol', 'PUT', path(approval.id), { message: 'stale' })).status, 403, 'a reader cannot dismiss');
    assert.equal((await as('alice', 'PUT', path(approval.id), {})).status, 422, 'a message is needed');
    const dismissed = await as('alice', 'PUT', path(approval.id), { message: 'New commits pushed' });
    assert.deepEqual([dismissed.status, dismissed.json.state], [200, 'DISMISSED']);
    const again = await as('alice', 'PUT', path(approval.id), { message: 'again' });
    assert.deepEqual([again.status, again.json.errors], [422, ['Can not dismiss a dismissed pull request review']]);
    assert.deepEqual((await as('alice', 'PUT', path(comment.id), { message: 'no' })).json.errors, ['Can not dismiss a commented pull request review']);
    assert.equal((await as('alice', 'PUT', path(123456789n), { message: 'no' })).status, 404);
    const events = await hooks(repo, 'pull_request_review', 'dismissed');
    assert.deepEqual(events.map((h) => [h.review.state, h.sender.login]), [['DISMISSED', 'alice']]);
  });

  test('teams: members paginated for members of the organisation, 404 otherwise; one membership', async () => {
    platform.createUser('eve');
    platform.createTeam('acme', 'Big Team', Array.from({ length: 35 }, (_, i) => platform.createUser(`member-${i}`).user.login));
    const first = await as('alice', 'GET', '/orgs/acme/teams/big-team/members');
    assert.deepEqual([first.status, first.json.length], [200, 30]);
    assert.match(first.headers.get('link') ?? '', /page=2/);
    assert.equal((await as('alice', 'GET', '/orgs/acme/teams/big-team/members?page=2')).json.length, 5);
    assert.deepEqual((await as('alice', 'GET', '/orgs/acme/teams/core/members')).json.map((u: { login: string }) => u.login), ['dave', 'carol']);
    assert.equal((await as('alice', 'GET', '/orgs/acme/teams/unknown/members')).status, 404);
    assert.equal((await as('outsider', 'GET', '/orgs/acme/teams/core/members')).status, 404);
    const membership = await as('alice', 'GET', '/orgs/acme/teams/core/memberships/dave');
    assert.deepEqual([membership.status, membership.json.role, membership.json.state], [200, 'member', 'active']);
    assert.equal((await as('alice', 'GET', '/orgs/acme/teams/core/memberships/eve')).status, 404);
    assert.equal((await as('alice', 'GET', '/orgs/acme/teams/core')).json.slug, 'core');
  });

  test('milestones and locks show on the pull request, with their webhooks', async () => {
    const { repo, number } = await newPull();
    await platform.setMilestone(repo, number, 'Q3', 'alice');
    assert.equal((await as('bob', 'GET', `/repos/${repo}/pulls/${number}`)).json.milestone.title, 'Q3');
    await platform.setMilestone(repo, number, null, 'alice');
    assert.equal((await as('bob', 'PUT', `/repos/${repo}/issues/${number}/lock`)).status, 204);
    const read = (await as('bob', 'GET', `/repos/${repo}/pulls/${number}`)).json;
    assert.deepEqual([read.milestone, read.locked], [null, true]);
    assert.equal((await as('bob', 'DELETE', `/repos/${repo}/issues/${number}/lock`)).status, 204);
    const events = (await hooks(repo, 'pull_request')).filter((h) => ['milestoned', 'demilestoned', 'locked', 'unlocked'].includes(h.action));
    assert.deepEqual(events.map((h) => [h.action, h.milestone?.title ?? null, h.pull_request.locked]), [['milestoned', 'Q3', false], ['demilestoned', 'Q3', false], ['locked', null, true], ['unlocked', null, false]]);
  });
});
