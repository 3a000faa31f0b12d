// GitHub Apps on the fake platform: an RS256 JWT signed with the app's private key finds the
// app's installation on a repository and buys installation tokens, which expire; a JWT signed
// with another key, or expired, is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSign, generateKeyPairSync } from 'node:crypto';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';

function jwt(appId: bigint, privateKey: string, nowSeconds: number, lifetime = 600): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iat: nowSeconds - 30, exp: nowSeconds - 30 + lifetime, iss: String(appId) })}`;
  return `${unsigned}.${createSign('RSA-SHA256').update(unsigned).sign(privateKey).toString('base64url')}`;
}

describe('fake platform: GitHub Apps', () => {
  let platform: FakePlatform;
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const seconds = () => Math.floor(clock / 1000);
  let app: ReturnType<FakePlatform['createApp']>;
  let installationId: bigint;

  before(async () => {
    platform = await new FakePlatform({ now: () => new Date(clock) }).start();
    platform.createUser('alice');
    await platform.createRepository({ owner: 'alice', name: 'installed' });
    await platform.createRepository({ owner: 'alice', name: 'not-installed' });
    app = platform.createApp('switchyard-test', 'alice');
    installationId = platform.installApp(app, 'alice', ['installed']).id;
  });
  after(() => platform.stop());

  test("a JWT finds the app's installation on a repository", async () => {
    const token = jwt(app.id, app.privateKey, seconds());
    const found = await restCall(platform.url, token, 'GET', '/repos/alice/installed/installation');
    assert.equal(found.status, 200);
    assert.equal(BigInt(found.json.id), installationId);
    assert.equal(BigInt(found.json.app_id), app.id);
    assert.equal((await restCall(platform.url, token, 'GET', '/repos/alice/not-installed/installation')).status, 404);
  });

  test('a JWT signed with another key, expired, or too long-lived is refused with 401', async () => {
    const { privateKey: otherKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    for (const token of [jwt(app.id, otherKey, seconds()), jwt(app.id, app.privateKey, seconds() - 3600), jwt(app.id, app.privateKey, seconds(), 3600), 'not.a.jwt']) {
      assert.equal((await restCall(platform.url, token, 'GET', '/repos/alice/installed/installation')).status, 401);
    }
  });

  test('installation tokens act on the installed repositories as the bot, and expire', async () => {
    platform.installationTokenTtlMs = 60_000;
    const issued = await restCall(platform.url, jwt(app.id, app.privateKey, seconds()), 'POST', `/app/installations/${installationId}/access_tokens`);
    assert.equal(issued.status, 201);
    assert.equal(Date.parse(issued.json.expires_at), clock + 60_000);
    const token: string = issued.json.token;
    assert.equal((await restCall(platform.url, token, 'GET', '/repos/alice/installed')).status, 200);
    assert.equal((await restCall(platform.url, token, 'GET', '/repos/alice/not-installed')).status, 404);
    assert.equal((await restCall(platform.url, token, 'GET', '/user')).status, 403, 'an installation is not a user');
    const created = await restCall(platform.url, token, 'POST', '/repos/alice/installed/git/refs', { ref: 'refs/heads/by-app', sha: (await platform.branchSha('alice/installed', 'main'))! });
    assert.equal(created.status, 201);
    assert.equal((platform.webhooks.sent('push').at(-1)!.payload.sender as { login: string }).login, 'switchyard-test[bot]');
    clock += 60_001;
    const expired = await restCall(platform.url, token, 'GET', '/repos/alice/installed');
    assert.deepEqual([expired.status, expired.json.message], [401, 'Bad credentials']);
  });

  test('a token for an installation of another app is refused', async () => {
    const other = platform.createApp('other-app', 'alice');
    const response = await restCall(platform.url, jwt(other.id, other.privateKey, seconds()), 'POST', `/app/installations/${installationId}/access_tokens`);
    assert.equal(response.status, 404);
  });
});
