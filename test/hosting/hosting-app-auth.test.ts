// The hosting client as a GitHub App (SWITCHYARD_GITHUB_APP_ID and _PRIVATE_KEY): it finds the
// app's installation on each repository once, buys installation tokens with its JWT, acts as
// the app's bot, and replaces a token the platform stopped accepting.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HostingFailure } from '../../src/hosting/hosting-failure.ts';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { hostingClientFor } from '../support/fake-platform/platform-client.ts';

describe('hosting client as a GitHub App', () => {
  let platform: FakePlatform;
  let client: HostingPlatform;
  let skewMs = 0;
  const installed = { owner: 'acme', repo: 'installed' };
  /** successful requests whose URL matches */
  const count = (pattern: RegExp) => platform.requestLog.filter((r) => pattern.test(r.url) && r.status < 300).length;

  before(async () => {
    platform = await new FakePlatform({ now: () => new Date(Date.now() + skewMs) }).start();
    platform.createOrganization('acme');
    await platform.createRepository({ owner: 'acme', name: 'installed' });
    await platform.createRepository({ owner: 'acme', name: 'elsewhere' });
    const app = platform.createApp('switchyard', 'acme');
    platform.installApp(app, 'acme', ['installed']);
    // The key as GitHub hands it out: PKCS#1 PEM.
    assert.match(app.privateKey, /^-----BEGIN RSA PRIVATE KEY-----/);
    client = hostingClientFor(platform, { kind: 'app', appId: String(app.id), privateKey: app.privateKey });
  });
  after(() => platform.stop());

  test('acts on an installed repository as the app, looking the installation up once', async () => {
    const main = (await client.branchHead(installed, 'main'))!;
    assert.deepEqual(await client.createBranch(installed, 'switchyard/merge-queue/main/1', main), { kind: 'created', sha: main });
    await client.deleteBranch(installed, 'switchyard/merge-queue/main/1');
    assert.equal(count(/\/repos\/acme\/installed\/installation$/), 1);
    assert.equal(count(/\/app\/installations\/\d+\/access_tokens$/), 1);
    const writes = platform.mutations().filter((r) => r.url.startsWith('/repos/acme/installed/git/refs'));
    assert.deepEqual(writes.map((r) => r.caller), ['switchyard[bot]', 'switchyard[bot]']);
  });

  test('a repository the app is not installed on is not_found', async () => {
    await assert.rejects(client.branchHead({ owner: 'acme', repo: 'elsewhere' }, 'main'), (error: unknown) => error instanceof HostingFailure && error.kind === 'not_found');
  });

  test('an installation token that expired is replaced and the call goes through', async () => {
    const tokensBefore = count(/\/access_tokens$/);
    const refusedBefore = platform.requestLog.filter((r) => r.status === 401).length;
    // The platform's clock passes the token's hour (the app's JWT is then re-dated by
    // @octokit/auth-app from the platform's Date header, as it does for a skewed clock).
    skewMs += 3_600_001;
    assert.ok(await client.branchHead(installed, 'main'));
    assert.equal(count(/\/access_tokens$/), tokensBefore + 1, 'one new token');
    assert.ok(platform.requestLog.filter((r) => r.status === 401).length > refusedBefore, 'the expired token was refused first');
    assert.ok(await client.branchHead(installed, 'main'));
    assert.equal(count(/\/access_tokens$/), tokensBefore + 1, 'the new token is kept');
  });
});
