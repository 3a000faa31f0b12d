// POST /v1/hooks/hosting through HTTP (DESIGN.md §4): signatures over the raw body, deliveries
// applied once, pull_request state, registration events, ignored events, payload defects.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildApp } from '../../src/app.ts';
import { signBody } from '../../src/domain/webhooks/signature.ts';
import { HostingApi } from '../../src/hosting/hosting-api.ts';
import { backends, openTestStore } from '../support/backends.ts';
import { SERVICE_TOKEN, WEBHOOK_SECRET, startTestApp, type TestApp } from '../support/test-app.ts';
import { pullRequestPayload, sendHook, sendPullRequest } from '../support/hosting-webhooks.ts';

const sha = (seed: string) => seed.repeat(40 / seed.length);
const HOOK = '/v1/hooks/hosting';

for (const backend of await backends()) {
  describe(`hosting webhooks (${backend})`, () => {
    let t: TestApp;

    const pull = (number: number, head: string, extra: Partial<Parameters<typeof pullRequestPayload>[0]> = {}) => ({ owner: 'acme', repository: 'widgets', number, head, ...extra });
    const readPull = (n: number, repo = 'acme/widgets') => t.request('GET', `/v1/repos/${repo}/pulls/${n}/scopes`);
    const isRegistered = async (owner: string, name: string) => (await t.request('GET', `/v1/repos/${owner}/${name}/commits/${sha('0')}/scopes`)).json.detail !== 'Repository not found';
    const reportNumber = (n: number) => t.request('PUT', `/v1/repos/acme/widgets/pulls/${n}/scopes`, { body: { scopes: ['s'] } });
    const pullRows = async () => Number((await t.store.db.selectFrom('pull_requests').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    after(() => t.close());

    test('a missing, malformed or wrong signature is 403 and changes nothing', async () => {
      const payload = pullRequestPayload(pull(1, sha('a')));
      const body = JSON.stringify(payload);
      const cases: Record<string, string>[] = [
        {},
        { 'x-hub-signature-256': '' },
        { 'x-hub-signature-256': 'sha256=nothex' },
        { 'x-hub-signature-256': signBody(WEBHOOK_SECRET, body).replace('sha256=', 'sha1=') },
        { 'x-hub-signature-256': signBody('another-secret', body) },
        { 'x-hub-signature-256': signBody(WEBHOOK_SECRET, body + ' ') },
      ];
      for (const signature of cases) {
        const response = await t.request('POST', HOOK, { token: null, rawBody: body, headers: { 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID(), ...signature } });
        assert.equal(response.status, 403, JSON.stringify(signature));
        assert.match(response.json.detail, /signature/);
      }
      const unsignedGarbage = await t.request('POST', HOOK, { token: null, rawBody: '{', headers: {} });
      assert.equal(unsignedGarbage.status, 403, 'nothing is read from an unsigned request, headers included');
      assert.equal((await readPull(1)).status, 404);
    });

    test('the signature covers the raw bytes: the same JSON re-serialised does not match', async () => {
      const body = JSON.stringify(pullRequestPayload(pull(1, sha('a'))), null, 2);
      const signature = signBody(WEBHOOK_SECRET, JSON.stringify(JSON.parse(body)));
      const response = await t.request('POST', HOOK, { token: null, rawBody: body, headers: { 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signature } });
      assert.equal(response.status, 403);
      const signed = await t.request('POST', HOOK, { token: null, rawBody: body, headers: { 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signBody(WEBHOOK_SECRET, body) } });
      assert.equal(signed.status, 204, signed.text);
    });

    test('pull_request opened, synchronize, closed, reopened and merged record state and head', async () => {
      assert.equal((await sendPullRequest(t, pull(2, sha('b1'), { action: 'opened' }))).status, 204);
      assert.equal((await readPull(2)).json.head_sha, sha('b1'));
      assert.equal((await sendPullRequest(t, pull(2, sha('B2'), { action: 'synchronize' }))).status, 204);
      assert.equal((await readPull(2)).json.head_sha, sha('b2'), 'stored lower-case');
      const row = () => t.store.db.selectFrom('pull_requests').select(['state', 'base_ref']).where('number', '=', '2').executeTakeFirstOrThrow();
      assert.equal((await sendPullRequest(t, pull(2, sha('b2'), { action: 'edited', base: 'release' }))).status, 204);
      assert.deepEqual(await row(), { state: 'open', base_ref: 'release' }, 'edited: a new base');
      assert.equal((await reportNumber(2)).status, 204, 'open: reports by number are accepted');
      assert.equal((await sendPullRequest(t, pull(2, sha('b2'), { action: 'closed', merged: false }))).status, 204);
      assert.equal((await reportNumber(2)).status, 409, 'closed');
      assert.equal((await sendPullRequest(t, pull(2, sha('b2'), { action: 'reopened' }))).status, 204);
      assert.equal((await reportNumber(2)).status, 204, 'reopened');
      assert.equal((await sendPullRequest(t, pull(2, sha('b2'), { action: 'closed', merged: true }))).status, 204);
      assert.equal((await reportNumber(2)).status, 409, 'merged');
      assert.equal((await row()).state, 'merged');
    });

    test('a repeated delivery is applied once, even when it comes back after later ones', async () => {
      const first = randomUUID();
      assert.equal((await sendPullRequest(t, pull(3, sha('c1'), { action: 'opened' }), { delivery: first })).status, 204);
      assert.equal((await sendPullRequest(t, pull(3, sha('c2')))).status, 204);
      const again = await sendPullRequest(t, pull(3, sha('c1'), { action: 'opened' }), { delivery: first });
      assert.equal(again.status, 204);
      assert.equal((await readPull(3)).json.head_sha, sha('c2'), 'the redelivery did not move the head back');
      const concurrent = randomUUID();
      const responses = await Promise.all(Array.from({ length: 8 }, () => sendPullRequest(t, pull(3, sha('c3')), { delivery: concurrent })));
      assert.deepEqual(responses.map((r) => r.status), Array(8).fill(204));
      const deliveries = await t.store.db.selectFrom('webhook_deliveries').select('delivery_id').where('delivery_id', 'in', [first, concurrent]).execute();
      assert.equal(deliveries.length, 2);
      // The eight copies above have one effect however often it is applied; what makes it once is
      // the claim, which exactly one of several concurrent transactions wins.
      const raced = randomUUID();
      const claims = await Promise.all(Array.from({ length: 8 }, () => t.store.db.transaction().execute((trx) => t.store.webhookDeliveries.claim(trx, raced))));
      assert.equal(claims.filter(Boolean).length, 1);
    });

    test('a delivery older than the state stored is ignored: the platform may deliver out of order', async () => {
      // Times of the last hour: older deliveries are refused for their age (webhook-replay.test.ts).
      const base = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
      const at = (minute: number) => new Date(base + minute * 60_000).toISOString().replace('.000Z', 'Z');
      const state = () => t.store.db.selectFrom('pull_requests').select(['state', 'head_sha']).where('number', '=', '30').executeTakeFirstOrThrow();
      assert.equal((await sendPullRequest(t, pull(30, sha('e1'), { action: 'opened', updatedAt: at(1) }))).status, 204);
      assert.equal((await sendPullRequest(t, pull(30, sha('e3'), { updatedAt: at(3) }))).status, 204);
      assert.equal((await sendPullRequest(t, pull(30, sha('e2'), { updatedAt: at(2) }))).status, 204, 'late, but signed and well formed');
      assert.deepEqual(await state(), { state: 'open', head_sha: sha('e3') }, 'the late synchronize did not move the head back');
      assert.equal((await sendPullRequest(t, pull(30, sha('e3'), { action: 'closed', updatedAt: at(3) }))).status, 204);
      assert.equal((await state()).state, 'closed', 'the same instant is not older: applied in arrival order');
      assert.equal((await sendPullRequest(t, pull(30, sha('e4'), { action: 'reopened' }))).status, 204);
      assert.deepEqual(await state(), { state: 'closed', head_sha: sha('e3') }, 'no updated_at, once a time is recorded: it cannot be placed after it');
      assert.equal((await sendPullRequest(t, pull(30, sha('e5'), { action: 'reopened', updatedAt: at(4) }))).status, 204);
      assert.deepEqual(await state(), { state: 'open', head_sha: sha('e5') });
      assert.equal((await sendPullRequest(t, pull(30, sha('e6'), { updatedAt: 'yesterday' }))).status, 422);
      // What the service logs as the delivery's outcome: stale (false) or applied (true).
      const repositoryId = (await t.store.repositories.find('acme', 'widgets'))!.id;
      const record = (minute: number) => t.store.pullRequests.upsert(t.store.db, repositoryId, { number: 30n, state: 'open', headSha: sha('e5'), baseRef: 'main' }, { platformUpdatedAt: new Date(at(minute)) });
      assert.equal(await record(2), false);
      assert.equal(await record(5), true);
      // The operator's word (the admin API, for platforms without webhooks) is applied as it comes.
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets/pulls/30', { body: { state: 'closed' } })).status, 204);
      assert.equal((await state()).state, 'closed');
    });

    test('a pull_request for an unregistered repository registers it, then records the pull request', async () => {
      assert.equal(await isRegistered('initech', 'tps'), false);
      assert.equal((await sendPullRequest(t, { owner: 'Initech', repository: 'TPS', number: 1, head: sha('d'), action: 'opened' })).status, 204);
      assert.equal(await isRegistered('initech', 'tps'), true);
      const read = await readPull(1, 'initech/tps');
      assert.equal(read.status, 200);
      assert.equal(read.json.head_sha, sha('d'));
      assert.equal((await t.request('PUT', '/v1/admin/repos/initech/tps')).status, 204, 'registered once, with the case of the webhook');
    });

    test('owner and repository of a webhook match registered names without regard to case', async () => {
      assert.equal((await sendPullRequest(t, { owner: 'ACME', repository: 'Widgets', number: 4, head: sha('e'), action: 'opened' })).status, 204);
      assert.equal((await readPull(4)).json.head_sha, sha('e'));
    });

    test('installation, installation_repositories and repository events register repositories', async () => {
      const installation = { id: 1, account: { login: 'globex', type: 'Organization' } };
      const created = await sendHook(t, 'installation', { action: 'created', installation, repositories: [{ id: 1, name: 'one', full_name: 'globex/one' }, { id: 2, name: 'two', full_name: 'globex/two' }] });
      assert.equal(created.status, 204, created.text);
      const added = await sendHook(t, 'installation_repositories', { action: 'added', installation, repositories_added: [{ id: 3, name: 'three', full_name: 'globex/three' }], repositories_removed: [] });
      assert.equal(added.status, 204, added.text);
      const repository = await sendHook(t, 'repository', { action: 'created', repository: { name: 'four', full_name: 'globex/four', owner: { login: 'globex' } }, installation });
      assert.equal(repository.status, 204, repository.text);
      for (const name of ['one', 'two', 'three', 'four']) assert.equal(await isRegistered('globex', name), true, name);
    });

    test('other actions of the registration events change nothing', async () => {
      const installation = { account: { login: 'hooli' } };
      const cases: [string, unknown][] = [
        ['installation', { action: 'deleted', installation, repositories: [{ name: 'gone' }] }],
        ['installation_repositories', { action: 'removed', installation, repositories_removed: [{ name: 'gone' }] }],
        ['repository', { action: 'deleted', repository: { name: 'gone', owner: { login: 'hooli' } } }],
      ];
      for (const [event, payload] of cases) assert.equal((await sendHook(t, event, payload)).status, 204);
      assert.equal(await isRegistered('hooli', 'gone'), false);
    });

    test('unknown events and unhandled pull_request actions are 204 and change nothing', async () => {
      const before = await pullRows();
      assert.equal((await sendHook(t, 'ping', { zen: 'Design for failure.', hook_id: 1 })).status, 204);
      assert.equal((await sendHook(t, 'deployment', { ref: 'refs/heads/main' })).status, 204);
      assert.equal((await sendHook(t, 'pull_request', pullRequestPayload(pull(5, sha('f'), { action: 'assigned' })))).status, 204);
      assert.equal((await sendHook(t, 'pull_request', { action: 'review_requested' })).status, 204);
      assert.equal(await pullRows(), before);
    });

    test('a signed body that is JSON but not an object is 422, whatever the event', async () => {
      for (const payload of [[], null, 42, 'text']) {
        for (const event of ['ping', 'pull_request', 'installation']) {
          const response = await sendHook(t, event, payload);
          assert.equal(response.status, 422, `${event} ${JSON.stringify(payload)}: ${response.text}`);
          assert.deepEqual(response.json.detail[0].loc, ['body']);
        }
      }
    });

    test('a bad payload of a handled event is a 422 naming the field, and writes nothing', async () => {
      const before = await pullRows();
      const payload = pullRequestPayload(pull(6, 'not-a-sha', { action: 'opened' }));
      const response = await sendHook(t, 'pull_request', payload);
      assert.equal(response.status, 422);
      assert.deepEqual(response.json.detail.map((d: { loc: unknown[] }) => d.loc), [['body', 'pull_request', 'head', 'sha']]);
      const noState = await sendHook(t, 'pull_request', { action: 'closed', number: 6, repository: { name: 'widgets', owner: { login: 'acme' } } });
      assert.equal(noState.status, 422);
      assert.deepEqual(noState.json.detail.map((d: { loc: unknown[] }) => d.loc.join('.')), ['body.pull_request']);
      const badRepo = await sendHook(t, 'installation', { action: 'created', installation: { account: { login: 'acme' } }, repositories: [{ name: 'bad name' }] });
      assert.equal(badRepo.status, 422);
      assert.deepEqual(badRepo.json.detail[0].loc, ['body', 'repositories', 0, 'name']);
      assert.equal((await sendHook(t, 'pull_request', null)).status, 422);
      assert.equal(await pullRows(), before);
    });

    test('a body that is not JSON, a missing event or delivery header is 422; another media type 415', async () => {
      const send = (body: string, headers: Record<string, string>) => t.request('POST', HOOK, { token: null, rawBody: body, headers: { 'x-hub-signature-256': signBody(WEBHOOK_SECRET, body), ...headers } });
      const notJson = await send('{"action":', { 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID() });
      assert.equal(notJson.status, 422);
      assert.equal(notJson.json.detail[0].type, 'json_invalid');
      const noEvent = await send('{}', { 'x-github-delivery': randomUUID() });
      assert.equal(noEvent.status, 422);
      assert.deepEqual(noEvent.json.detail[0].loc, ['header', 'x-github-event']);
      const noDelivery = await send('{}', { 'x-github-event': 'ping' });
      assert.equal(noDelivery.status, 422);
      assert.deepEqual(noDelivery.json.detail[0].loc, ['header', 'x-github-delivery']);
      const text = await send('{}', { 'x-github-event': 'ping', 'x-github-delivery': randomUUID(), 'content-type': 'text/plain' });
      assert.equal(text.status, 415);
    });

    test('form-encoded webhooks (payload=<json>) are accepted too', async () => {
      const body = new URLSearchParams({ payload: JSON.stringify(pullRequestPayload(pull(7, sha('7'), { action: 'opened' }))) }).toString();
      const response = await t.request('POST', HOOK, {
        token: null,
        rawBody: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signBody(WEBHOOK_SECRET, body) },
      });
      assert.equal(response.status, 204, response.text);
      assert.equal((await readPull(7)).json.head_sha, sha('7'));
    });

    test('bodies up to 5 MiB are accepted (platform payloads are large); larger ones are 413', async () => {
      const padded = { ...pullRequestPayload(pull(8, sha('8'), { action: 'opened' })), padding: 'x'.repeat(3 * 1024 * 1024) };
      assert.equal((await sendHook(t, 'pull_request', padded)).status, 204);
      const tooLarge = await sendHook(t, 'pull_request', { ...padded, padding: 'x'.repeat(5 * 1024 * 1024) });
      assert.equal(tooLarge.status, 413);
    });
  });

  test(`without a configured secret every webhook is refused (${backend})`, async () => {
    const { store, dispose } = await openTestStore(backend);
    const app = await buildApp({ config: { serviceToken: SERVICE_TOKEN, webhookSecret: undefined, publicUrl: undefined, logLevel: 'silent' }, store, hosting: new HostingApi('http://127.0.0.1:9') });
    try {
      const body = JSON.stringify({ zen: 'hello' });
      for (const signature of [signBody('', body), signBody(WEBHOOK_SECRET, body)]) {
        const response = await app.inject({ method: 'POST', url: HOOK, payload: body, headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signature } });
        assert.equal(response.statusCode, 403);
        assert.equal(response.json().detail, 'The webhook signature is missing or does not match the shared secret.');
      }
    } finally {
      await app.close();
      await dispose();
    }
  });
}
