// Webhook replay and ordering (issue 20, item 8): the delivery id is not signed, so a captured
// delivery sent again under a new id reopened a closed pull request, and a payload without
// `updated_at` moved a head back. A body already applied is now acknowledged and not applied, a
// payload whose own time is too old is refused, and pull request state is ordered by the
// platform's time, never by arrival alone once one is known.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { stringifyJson } from '../../src/json/exact-json.ts';
import { forgetWebhookPayloads } from '../../src/services/retention.ts';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { pullRequestPayload, sendHook, sendPullRequest, type PullPayload } from '../support/hosting-webhooks.ts';

const sha = (seed: string) => seed.repeat(40 / seed.length);
const MAX_AGE_SECONDS = 3600;
/** An instant `secondsAgo` back, as GitHub writes it: whole seconds. */
const ago = (secondsAgo: number, from = Date.now()) => new Date(Math.floor(from / 1000) * 1000 - secondsAgo * 1000).toISOString().replace('.000Z', 'Z');

for (const backend of await backends()) {
  describe(`webhook replay and ordering (${backend})`, () => {
    let t: TestApp;
    const pull = (number: number, head: string, extra: Partial<PullPayload> = {}): PullPayload => ({ owner: 'acme', repository: 'widgets', number, head, ...extra });
    const state = async (number: number) => t.store.db.selectFrom('pull_requests').select(['state', 'head_sha']).where('number', '=', String(number)).executeTakeFirst();

    before(async () => {
      t = await startTestApp(backend, undefined, { webhookMaxAgeSeconds: MAX_AGE_SECONDS });
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      assert.equal((await t.request('PUT', '/v1/products/acme/widgets', { body: { products: ['merge_queue'] } })).status, 204);
    });
    after(() => t.close());

    test('a captured delivery sent again under a new delivery id is acknowledged, not applied', async () => {
      // Reopened and closed again within one second: updated_at cannot tell them apart.
      const now = Date.now();
      assert.equal((await sendPullRequest(t, pull(1, sha('a'), { action: 'opened', updatedAt: ago(20, now) }))).status, 204);
      assert.equal((await sendPullRequest(t, pull(1, sha('a'), { action: 'closed', updatedAt: ago(10, now) }))).status, 204);
      const reopened = pullRequestPayload(pull(1, sha('a'), { action: 'reopened', updatedAt: ago(2, now) }));
      const delivery = randomUUID();
      assert.equal((await sendHook(t, 'pull_request', reopened, { delivery })).status, 204);
      assert.equal((await sendPullRequest(t, pull(1, sha('a'), { action: 'closed', updatedAt: ago(2, now) }))).status, 204);
      assert.deepEqual(await state(1), { state: 'closed', head_sha: sha('a') });

      const replays = await Promise.all(Array.from({ length: 4 }, () => sendHook(t, 'pull_request', reopened)));
      assert.deepEqual(replays.map((r) => r.status), [204, 204, 204, 204], 'acknowledged: the platform sent it once, nothing to retry');
      assert.equal((await sendHook(t, 'pull_request', reopened, { delivery })).status, 204, 'and under its own id, a redelivery');
      assert.deepEqual(await state(1), { state: 'closed', head_sha: sha('a') }, 'the replays did not reopen it');
      const digest = createHash('sha256').update(stringifyJson(reopened)).digest('hex');
      const kept = await t.store.db.selectFrom('webhook_payloads').select('digest').where('digest', '=', digest).execute();
      assert.equal(kept.length, 1, 'the body is remembered by its SHA-256');
    });

    test('a payload whose own time is further back than the allowed age is refused, and writes nothing', async () => {
      const old = await sendPullRequest(t, pull(2, sha('b'), { action: 'opened', updatedAt: ago(MAX_AGE_SECONDS + 60) }));
      assert.equal(old.status, 422);
      assert.deepEqual(old.json.detail.map((issue: { loc: unknown; type: string }) => [issue.loc, issue.type]), [[['body', 'pull_request', 'updated_at'], 'webhook_too_old']]);
      assert.match(old.json.detail[0].msg, /more than 3600 seconds old/);
      assert.equal(await state(2), undefined);
      const comment = {
        action: 'created',
        issue: { number: 2, pull_request: {} },
        comment: { id: 77, body: '@switchyard queue', user: { login: 'octocat', id: 1 }, created_at: ago(MAX_AGE_SECONDS + 60) },
        repository: { name: 'widgets', owner: { login: 'acme' } },
      };
      const oldComment = await sendHook(t, 'issue_comment', comment);
      assert.equal(oldComment.status, 422);
      assert.deepEqual(oldComment.json.detail[0].loc, ['body', 'comment', 'created_at']);
      const deliveries = await t.store.db.selectFrom('webhook_payloads').select('digest').where('digest', '=', createHash('sha256').update(stringifyJson(comment)).digest('hex')).execute();
      assert.equal(deliveries.length, 0);
      assert.equal((await sendPullRequest(t, pull(2, sha('b'), { action: 'opened', updatedAt: ago(MAX_AGE_SECONDS - 60) }))).status, 204, 'within the age');
      assert.deepEqual(await state(2), { state: 'open', head_sha: sha('b') });
    });

    test('a pull_request payload without updated_at never moves a state recorded with one', async () => {
      const now = Date.now();
      assert.equal((await sendPullRequest(t, pull(3, sha('c1'), { action: 'opened', updatedAt: ago(30, now) }))).status, 204);
      assert.equal((await sendPullRequest(t, pull(3, sha('c2'), { updatedAt: ago(20, now) }))).status, 204);
      assert.equal((await sendPullRequest(t, pull(3, sha('c1')))).status, 204, 'acknowledged');
      assert.deepEqual(await state(3), { state: 'open', head_sha: sha('c2') }, 'the head did not move back');
      assert.equal((await sendPullRequest(t, pull(3, sha('c2'), { action: 'closed', updatedAt: ago(10, now) }))).status, 204);
      assert.equal((await sendPullRequest(t, pull(3, sha('c2'), { action: 'reopened' }))).status, 204);
      assert.deepEqual(await state(3), { state: 'closed', head_sha: sha('c2') }, 'nor did a reopening without a time');
      // Where no time was ever recorded, arrival order is all there is.
      assert.equal((await sendPullRequest(t, pull(4, sha('d1'), { action: 'opened' }))).status, 204);
      assert.equal((await sendPullRequest(t, pull(4, sha('d2')))).status, 204);
      assert.deepEqual(await state(4), { state: 'open', head_sha: sha('d2') });
    });

    test('remembered bodies are forgotten after a week, or once a payload that old is refused for its age', async () => {
      const now = Date.now();
      const digest = (n: number) => createHash('sha256').update(`body ${n} ${backend}`).digest('hex');
      const hours = (h: number) => new Date(now - h * 3_600_000);
      const week = 7 * 24;
      const ages = [2.1, 1.9, week + 0.1, week - 0.1, 10 * 24 + 1.1, 10 * 24 + 0.9];
      await t.store.db.insertInto('webhook_payloads').values(ages.map((h, i) => ({ digest: digest(i), received_at: hours(h) }))).execute();
      const left = async () => (await t.store.db.selectFrom('webhook_payloads').select('digest').where('digest', 'in', ages.map((_, i) => digest(i))).execute()).map((row) => row.digest).sort();
      // A bound of 10 days keeps them for the bound and an hour; a bound under a week (or none), a week.
      assert.equal(await forgetWebhookPayloads(t.store, 10 * 24 * 3600, new Date(now)), 1, 'kept for the age and an hour');
      assert.deepEqual(await left(), [0, 1, 2, 3, 5].map(digest).sort());
      assert.equal(await forgetWebhookPayloads(t.store, MAX_AGE_SECONDS, new Date(now)), 2, 'kept for a week');
      assert.deepEqual(await left(), [0, 1, 3].map(digest).sort());
      assert.equal(await forgetWebhookPayloads(t.store, 0, new Date(now)), 0, 'no bound: a week too');
    });
  });
}
