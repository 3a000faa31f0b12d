// Pull-request head tracking (DESIGN.md §5): the effective scopes of a pull request are the
// latest to arrive of its report by number and the report of its current head commit, with
// heads moved by webhooks or by the admin endpoint.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { sendPullRequest } from '../support/hosting-webhooks.ts';

const REPO = '/v1/repos/acme/widgets';
const sha = (seed: string) => seed.repeat(40 / seed.length);

for (const backend of await backends()) {
  describe(`pull request head tracking (${backend})`, () => {
    let t: TestApp;

    const reportCommit = async (commit: string, scopes: string[], allScopes?: boolean) => {
      const response = await t.request('PUT', `${REPO}/commits/${commit}/scopes`, { body: { scopes, ...(allScopes !== undefined && { all_scopes: allScopes }) } });
      assert.equal(response.status, 204, response.text);
    };
    const reportNumber = async (n: number, scopes: string[]) => {
      const response = await t.request('PUT', `${REPO}/pulls/${n}/scopes`, { body: { scopes } });
      assert.equal(response.status, 204, response.text);
    };
    const moveHead = async (n: number, head: string, action = 'synchronize') => {
      const response = await sendPullRequest(t, { owner: 'acme', repository: 'widgets', number: n, head, action });
      assert.equal(response.status, 204, response.text);
    };
    const moveHeadByAdmin = async (n: number, head: string) => {
      const response = await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${n}`, { body: { state: 'open', head_sha: head } });
      assert.equal(response.status, 204, response.text);
    };
    const effective = async (n: number) => {
      const response = await t.request('GET', `${REPO}/pulls/${n}/scopes`);
      assert.equal(response.status, 200, response.text);
      return response.json as { pull_request: number; head_sha: string | null; scopes: string[]; all_scopes: boolean; source: string | null; reported_at: string | null };
    };

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    after(() => t.close());

    test("a commit report applies to the pull request whose head it is, the commit's scopes and barrier included", async () => {
      await moveHead(1, sha('a1'), 'opened');
      await reportCommit(sha('a1'), ['api'], true);
      const read = await effective(1);
      const reportedAt = (await t.request('GET', `${REPO}/commits/${sha('a1')}/scopes`)).json.reported_at;
      assert.deepEqual(read, { pull_request: 1, head_sha: sha('a1'), scopes: ['api'], all_scopes: true, source: 'commit', reported_at: reportedAt });
    });

    test('the latest to arrive wins between the report by number and the head commit report', async () => {
      await moveHead(2, sha('b1'), 'opened');
      await reportCommit(sha('b1'), ['from-commit']);
      await reportNumber(2, ['from-number']);
      assert.deepEqual([(await effective(2)).source, (await effective(2)).scopes], ['pull_request', ['from-number']]);
      await reportCommit(sha('b1'), ['from-commit-again']);
      assert.deepEqual([(await effective(2)).source, (await effective(2)).scopes], ['commit', ['from-commit-again']]);
      await reportNumber(2, ['from-number-again']);
      assert.deepEqual([(await effective(2)).source, (await effective(2)).scopes], ['pull_request', ['from-number-again']]);
    });

    test('race: the report for the new head arrives before the webhook that moves the head, and takes effect with the move', async () => {
      await moveHead(3, sha('c1'), 'opened');
      await reportCommit(sha('c1'), ['old-head']);
      await reportCommit(sha('c2'), ['new-head'], true);
      assert.deepEqual((await effective(3)).scopes, ['old-head'], 'not the head yet: it does not count');
      await reportNumber(3, ['by-number-before-move']);
      await moveHead(3, sha('c2'));
      const after = await effective(3);
      assert.deepEqual([after.head_sha, after.scopes, after.all_scopes, after.source], [sha('c2'), ['new-head'], true, 'commit']);
    });

    test('a stale report for a commit the pull request has moved past never overwrites what its current head reported', async () => {
      await moveHead(4, sha('d1'), 'opened');
      await moveHead(4, sha('d2'));
      await reportCommit(sha('d2'), ['current']);
      await reportCommit(sha('d1'), ['stale'], true);
      const after = await effective(4);
      assert.deepEqual([after.head_sha, after.scopes, after.all_scopes, after.source], [sha('d2'), ['current'], false, 'commit']);
      assert.deepEqual((await t.request('GET', `${REPO}/commits/${sha('d1')}/scopes`)).json.scopes, ['stale'], 'it is stored all the same');
    });

    test('a report by number wins whatever head it was computed for, until the head commit reports again', async () => {
      await moveHead(5, sha('e1'), 'opened');
      await reportCommit(sha('e1'), ['e1']);
      await moveHead(5, sha('e2'));
      assert.deepEqual(await effective(5).then((e) => [e.source, e.scopes]), [null, []], 'the new head has no report yet');
      await reportNumber(5, ['by-number']);
      assert.deepEqual(await effective(5).then((e) => [e.source, e.scopes]), ['pull_request', ['by-number']]);
      await moveHead(5, sha('e3'));
      assert.deepEqual(await effective(5).then((e) => [e.source, e.scopes]), ['pull_request', ['by-number']], 'a head without a report changes nothing');
      await reportCommit(sha('e3'), ['e3']);
      assert.deepEqual(await effective(5).then((e) => [e.source, e.scopes]), ['commit', ['e3']]);
    });

    test('moving back onto a commit that reported earlier makes that report count again, from the move', async () => {
      await moveHead(6, sha('f1'), 'opened');
      await reportCommit(sha('f1'), ['f1']);
      await moveHead(6, sha('f2'));
      await reportNumber(6, ['by-number']);
      await moveHead(6, sha('f1'));
      assert.deepEqual(await effective(6).then((e) => [e.head_sha, e.source, e.scopes]), [sha('f1'), 'commit', ['f1']]);
    });

    test('a webhook that does not move the head (edited, reopened) leaves the order of reports alone', async () => {
      await moveHead(7, sha('a7'), 'opened');
      await reportCommit(sha('a7'), ['commit']);
      await reportNumber(7, ['by-number']);
      await moveHead(7, sha('a7'), 'edited');
      assert.equal((await effective(7)).source, 'pull_request');
      const closed = await sendPullRequest(t, { owner: 'acme', repository: 'widgets', number: 7, head: sha('a7'), action: 'closed' });
      assert.equal(closed.status, 204);
      await moveHead(7, sha('a7'), 'reopened');
      assert.deepEqual(await effective(7).then((e) => [e.source, e.scopes]), ['pull_request', ['by-number']]);
    });

    test('two open pull requests sharing one head both take its report; moving one away leaves the other', async () => {
      await moveHead(8, sha('88'), 'opened');
      await moveHead(9, sha('88'), 'opened');
      await reportCommit(sha('88'), ['shared'], true);
      for (const n of [8, 9]) assert.deepEqual(await effective(n).then((e) => [e.source, e.scopes, e.all_scopes]), ['commit', ['shared'], true]);
      await moveHead(9, sha('99'));
      await reportCommit(sha('99'), ['nine']);
      assert.deepEqual((await effective(8)).scopes, ['shared']);
      assert.deepEqual((await effective(9)).scopes, ['nine']);
      await reportCommit(sha('88'), ['shared-again']);
      assert.deepEqual((await effective(8)).scopes, ['shared-again']);
      assert.deepEqual((await effective(9)).scopes, ['nine']);
    });

    test('barrier set then cleared through the head commit', async () => {
      await moveHead(10, sha('ab'), 'opened');
      await reportCommit(sha('ab'), ['x'], true);
      assert.equal((await effective(10)).all_scopes, true);
      await reportCommit(sha('ab'), ['x']);
      assert.deepEqual(await effective(10).then((e) => [e.scopes, e.all_scopes]), [['x'], false]);
    });

    test('the sha of a commit report matches a head in either case', async () => {
      await moveHead(11, sha('AbCd'), 'opened');
      await reportCommit(sha('aBcD'), ['mixed-case']);
      assert.deepEqual(await effective(11).then((e) => [e.head_sha, e.scopes]), [sha('abcd'), ['mixed-case']]);
    });

    test('the admin endpoint moves heads for platforms without webhooks, under the same rules', async () => {
      await moveHeadByAdmin(12, sha('12'));
      await reportCommit(sha('13'), ['next']);
      await reportNumber(12, ['by-number']);
      await moveHeadByAdmin(12, sha('13'));
      assert.deepEqual(await effective(12).then((e) => [e.head_sha, e.source, e.scopes]), [sha('13'), 'commit', ['next']]);
      const noHead = await t.request('PUT', '/v1/admin/repos/acme/widgets/pulls/12', { body: { state: 'open' } });
      assert.equal(noHead.status, 204);
      assert.equal((await effective(12)).head_sha, sha('13'), 'a state without a head keeps the head');
    });

    test('a merged pull request keeps its last head and scopes for reading', async () => {
      await moveHead(14, sha('14'), 'opened');
      await reportCommit(sha('14'), ['before-merge']);
      const merged = await sendPullRequest(t, { owner: 'acme', repository: 'widgets', number: 14, head: sha('14'), action: 'closed', merged: true });
      assert.equal(merged.status, 204);
      assert.deepEqual(await effective(14).then((e) => [e.head_sha, e.scopes]), [sha('14'), ['before-merge']]);
      assert.equal((await t.request('PUT', `${REPO}/pulls/14/scopes`, { body: { scopes: [] } })).status, 409);
    });
  });
}
