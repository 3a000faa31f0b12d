// Forwarded headers (issue 20, item 7): `trustProxy: true` believed X-Forwarded-* from anyone,
// so `X-Forwarded-Proto: https://evil.example/>; rel="prev"; x="` wrote a link of the client's
// choosing into `Link`, and X-Forwarded-For chose the address every per-client budget counts.
// Now they are believed only from SWITCHYARD_TRUSTED_PROXIES, and only when they are a scheme
// and a host; links are built by the URL library.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const INJECTION = 'https://evil.example/>; rel="prev"; x="';
const LIST = '/v1/repos/acme/widgets/logs?per_page=1';

async function withEvents(t: TestApp): Promise<void> {
  assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
  const events = [1, 2, 3].map((n) => ({ type: 'action.label', metadata: { added: [`l${n}`], removed: [] }, trigger: 'rule' }));
  assert.equal((await t.request('POST', '/v1/repos/acme/widgets/logs', { body: { events } })).status, 201);
}

/** The URLs of a Link header, each checked to be one `<…>; rel="…"` entry. */
function linkUrls(link: string | null): URL[] {
  assert.ok(link, 'a Link header');
  return link.split(', ').map((entry) => {
    const match = /^<([^<>]*)>; rel="(next|prev)"$/.exec(entry);
    assert.ok(match, `a well-formed entry: ${entry}`);
    return new URL(match[1]!);
  });
}

for (const backend of await backends()) {
  describe(`forwarded headers, no proxy configured (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, undefined, { tokenVerificationsPerMinute: 2 });
      await withEvents(t);
    });
    after(() => t.close());

    test('X-Forwarded-Proto and -Host from a client are ignored: links name the address it called', async () => {
      const response = await t.request('GET', LIST, { headers: { 'x-forwarded-proto': INJECTION, 'x-forwarded-host': 'evil.example' } });
      assert.equal(response.status, 200);
      const [next] = linkUrls(response.headers.get('link'));
      assert.equal(next!.origin, t.baseUrl);
    });

    test('X-Forwarded-For does not choose the address budgets count', async () => {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await t.request('GET', LIST, { token: `unknown-${i}-${Math.random()}`, headers: { 'x-forwarded-for': `203.0.113.${i}` } })).status);
      assert.deepEqual(answers, [403, 403, 429]);
    });

    test('a Host header that is not a host is a 422, not pasted into a link', async () => {
      // fetch sets Host itself; a raw request is needed to send a bad one.
      const { rawRequest, requestHead } = await import('../support/raw-http.ts');
      const request = rawRequest(t.baseUrl, requestHead('GET', LIST, { authorization: 'Bearer test-service-token-0123456789' }).replace('Host: 127.0.0.1', 'Host: a"b'));
      const answer = await request.answer;
      request.socket.destroy();
      assert.equal(answer.status, 422);
      assert.deepEqual(JSON.parse(answer.body).detail[0].loc, ['header', 'host']);
    });
  });

  describe(`forwarded headers from a configured proxy (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, undefined, { trustedProxies: ['127.0.0.1/32'] });
      await withEvents(t);
    });
    after(() => t.close());

    test('a scheme and host forwarded by the proxy make the links', async () => {
      const response = await t.request('GET', LIST, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'switchyard.example' } });
      assert.equal(response.status, 200);
      for (const url of linkUrls(response.headers.get('link'))) assert.equal(url.origin, 'https://switchyard.example');
    });

    test('a forwarded scheme or host that is not one is a 422, never part of a link', async () => {
      const proto = await t.request('GET', LIST, { headers: { 'x-forwarded-proto': INJECTION } });
      assert.equal(proto.status, 422);
      assert.deepEqual(proto.json.detail[0].loc, ['header', 'x-forwarded-proto']);
      assert.equal(proto.headers.get('link'), null);
      const host = await t.request('GET', LIST, { headers: { 'x-forwarded-host': 'evil.example/>; rel="prev"' } });
      assert.equal(host.status, 422);
      assert.deepEqual(host.json.detail[0].loc, ['header', 'x-forwarded-host']);
    });
  });
}
