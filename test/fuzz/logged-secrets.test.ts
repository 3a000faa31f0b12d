// What is logged (issue #9, docs/security.md): the real process at LOG_LEVEL=trace takes
// requests carrying every kind of secret (service token, application keys, hosting-platform
// tokens, webhook signatures, unknown tokens), accepted and refused, valid and invalid, and no
// secret appears anywhere in what it writes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signBody } from '../../src/domain/webhooks/signature.ts';
import { FakeHosting } from '../support/fake-hosting.ts';
import { SERVICE_TOKEN, WEBHOOK_SECRET } from '../support/test-app.ts';
import { startSwitchyard, type SwitchyardProcess } from '../support/switchyard-process.ts';

describe('secrets in logs', () => {
  let dir: string;
  let hosting: FakeHosting;
  let server: SwitchyardProcess;
  const secrets = new Map<string, string>([['service token', SERVICE_TOKEN], ['webhook secret', WEBHOOK_SECRET]]);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-logs-'));
    hosting = await new FakeHosting().start();
    server = await startSwitchyard({ SWITCHYARD_DATA_DIR: dir }, { LOG_LEVEL: 'trace', SWITCHYARD_HOSTING_API_URL: hosting.url });
  });
  after(async () => {
    await server?.kill();
    await hosting?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, token: string | undefined, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(server.baseUrl + path, {
      method,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body,
    });
  }

  test('no token, key, signature or secret is ever written', async () => {
    assert.equal((await call('PUT', '/v1/admin/repos/acme/widgets', SERVICE_TOKEN)).status, 201);
    for (const scope of ['admin', 'ci']) {
      const created = await call('POST', '/v1/admin/keys', SERVICE_TOKEN, JSON.stringify({ owner: 'acme', scope, name: `${scope} key` }));
      secrets.set(`${scope} key`, ((await created.json()) as { key: string }).key);
    }
    const revoked = await call('POST', '/v1/admin/keys', SERVICE_TOKEN, JSON.stringify({ owner: 'acme', scope: 'admin', name: 'revoked' }));
    const revokedKey = (await revoked.json()) as { id: string; key: string };
    await call('DELETE', `/v1/admin/keys/${revokedKey.id}`, SERVICE_TOKEN);
    secrets.set('revoked key', revokedKey.key);
    secrets.set('hosting token', 'gho_hostingTokenOfAlice0123456789');
    secrets.set('refused hosting token', 'gho_refusedHostingToken0123456789');
    secrets.set('unknown key', 'swy_unknownKeyThatIsNotStored0123456789abc');
    hosting.users.set(secrets.get('hosting token')!, { login: 'alice', id: 1, repos: { 'acme/widgets': { admin: true, pull: true } }, adminOf: ['acme'] });

    const body = JSON.stringify({ action: 'opened', number: 3, pull_request: { number: 3, state: 'open', merged: false, head: { sha: 'a'.repeat(40), ref: 'f' }, base: { ref: 'main' } }, repository: { name: 'widgets', full_name: 'acme/widgets', owner: { login: 'acme' } } });
    const signature = signBody(WEBHOOK_SECRET, body);
    secrets.set('webhook signature', signature.slice('sha256='.length));
    const hook = (sig: string) => call('POST', '/v1/hooks/hosting', undefined, body, { 'x-github-event': 'pull_request', 'x-github-delivery': `d-${Math.random()}`, 'x-hub-signature-256': sig });
    assert.equal((await hook(signature)).status, 204);
    assert.equal((await hook(signature.replace(/.$/, '0'))).status, 403);

    for (const [, token] of secrets) {
      for (const [method, path, payload] of [
        ['GET', '/v1/repos/acme/widgets/logs?per_page=5', undefined],
        ['GET', '/v1/repos/acme/widgets/logs?per_page=500', undefined],
        ['PUT', '/v1/products/acme/widgets', '{"products":["merge_queue"]}'],
        ['PUT', '/v1/products/acme/widgets', '{"products":["merge_queue"'],
        ['PUT', '/v1/repos/acme/widgets/commits/' + 'b'.repeat(40) + '/scopes', '{"scopes":["api"]}'],
        ['POST', '/v1/repos/acme/widgets/logs', '{"events":[{"type":"action.close","metadata":{"message":"m"},"trigger":"t"}]}'],
        ['GET', '/v1/default_products/acme', undefined],
        ['GET', '/v1/admin/keys', undefined],
        ['GET', '/v1/nowhere', undefined],
      ] as const) {
        const response = await call(method, path, token, payload);
        await response.arrayBuffer();
      }
    }
    // A token sent where it does not belong: in a malformed header, as a query value (never read).
    await (await call('GET', `/v1/admin/keys?token=${encodeURIComponent('not-a-secret-query-value')}`, undefined, undefined, { authorization: `Basic ${SERVICE_TOKEN}` })).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const output = server.output();
    assert.match(output, /"reqId"/, 'requests were logged');
    assert.match(output, /incoming request/, 'at trace level, every request is logged');
    for (const [name, secret] of secrets) assert.ok(!output.includes(secret), `the ${name} appears in the log`);
  });
});
