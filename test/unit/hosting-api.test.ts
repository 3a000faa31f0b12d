// The hosting platform's answers (DESIGN.md §3), against the fake platform on loopback: cached
// for 60 s per token and no longer, an organisation administered only by an active admin
// membership, and an unreachable platform as hosting_unavailable (503), never cached.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HostingApi } from '../../src/hosting/hosting-api.ts';
import { ApiError } from '../../src/errors.ts';
import { FakeHosting } from '../support/fake-hosting.ts';
import { freePort } from '../support/switchyard-process.ts';

let hosting: FakeHosting;
before(async () => {
  hosting = await new FakeHosting().start();
  hosting.users.set('token-eve', { login: 'eve', id: 5, memberships: { member: { role: 'member', state: 'active' }, pending: { role: 'admin', state: 'pending' } }, adminOf: ['boss'] });
});
after(() => hosting.stop());

test('an answer is reused for 60 s per token, then asked again', async () => {
  let now = 1_000_000;
  const api = new HostingApi(hosting.url, { now: () => now }); // the default TTL, DESIGN §3's 60 s
  const asked = () => hosting.requests.filter((url) => url === '/user').length;
  const before = asked();
  assert.deepEqual(await api.user('token-eve'), { login: 'eve', id: 5n });
  now += 59_999;
  await api.user('token-eve');
  assert.equal(asked() - before, 1, 'within 60 s: cached');
  now += 2;
  await api.user('token-eve');
  assert.equal(asked() - before, 2, 'after 60 s: asked again');
  hosting.users.set('token-other', { login: 'other', id: 6 });
  await api.user('token-other');
  assert.equal(asked() - before, 3, 'per token');
});

test('only an active admin membership administers an organisation', async () => {
  const api = new HostingApi(hosting.url);
  assert.equal(await api.isOrganisationAdmin('token-eve', 'boss', 'eve'), true);
  assert.equal(await api.isOrganisationAdmin('token-eve', 'member', 'eve'), false, 'role member');
  assert.equal(await api.isOrganisationAdmin('token-eve', 'pending', 'eve'), false, 'an invitation not accepted');
  assert.equal(await api.isOrganisationAdmin('token-eve', 'stranger', 'eve'), false, '404');
});

test('a platform that refuses connections is hosting_unavailable, and the failure is not cached', async () => {
  const port = await freePort();
  const api = new HostingApi(`http://127.0.0.1:${port}`);
  await assert.rejects(api.user('token-eve'), (error: unknown) => error instanceof ApiError && error.code === 'hosting_unavailable' && error.status === 503);
  // The platform comes back on that port: the next request asks it, not the cache.
  const back = await new FakeHosting().start(port);
  try {
    back.users.set('token-eve', { login: 'eve', id: 5 });
    assert.deepEqual(await api.user('token-eve'), { login: 'eve', id: 5n });
  } finally {
    await back.stop();
  }
});

// Issue 20 item 9: only definite answers are remembered, identities are exact and valid, and
// unknown tokens are budgeted per client address.

test('a rate limit is never remembered: 503 now, the answer as soon as the platform gives it', async () => {
  const api = new HostingApi(hosting.url);
  hosting.users.set('token-rate', { login: 'rate', id: 31 });
  const isUnavailable = (error: unknown) => error instanceof ApiError && error.code === 'hosting_unavailable' && error.status === 503;
  hosting.faults.add({ path: /^\/user$/, times: 1, kind: { rateLimit: 'primary', resetInSeconds: 900 } });
  await assert.rejects(api.user('token-rate'), isUnavailable);
  hosting.faults.add({ path: /^\/user$/, times: 1, kind: { rateLimit: 'secondary', retryAfterSeconds: 60 } });
  await assert.rejects(api.user('token-rate'), isUnavailable);
  assert.deepEqual(await api.user('token-rate'), { login: 'rate', id: 31n });
});

test('a refusal is remembered for 10 s, an answer for 60 s', async () => {
  let now = 5_000_000;
  const api = new HostingApi(hosting.url, { now: () => now });
  assert.equal(await api.user('token-late'), null);
  hosting.users.set('token-late', { login: 'late', id: 32 });
  now += 9_999;
  assert.equal(await api.user('token-late'), null, 'the 401 is remembered briefly');
  now += 2;
  assert.deepEqual(await api.user('token-late'), { login: 'late', id: 32n });
  hosting.users.delete('token-late');
  now += 59_999;
  assert.deepEqual(await api.user('token-late'), { login: 'late', id: 32n }, 'the answer for 60 s');
});

test('a server error is asked once more before it is a 503; a 403 that is no rate limit is a refusal not remembered', async () => {
  const api = new HostingApi(hosting.url);
  hosting.users.set('token-flaky', { login: 'flaky', id: 33 });
  hosting.faults.add({ path: /^\/user$/, times: 1, kind: { status: 502 } });
  assert.deepEqual(await api.user('token-flaky'), { login: 'flaky', id: 33n });
  hosting.users.set('token-saml', { login: 'saml', id: 37 });
  hosting.faults.add({ path: /^\/user$/, times: 1, kind: { status: 403, message: 'Resource protected by organization SAML enforcement.' } });
  assert.equal(await api.user('token-saml'), null);
  assert.deepEqual(await api.user('token-saml'), { login: 'saml', id: 37n }, 'asked again');
});

test('identities are read exactly and checked: ids beyond 2^53 kept, invalid logins and ids refused', async () => {
  const api = new HostingApi(hosting.url);
  hosting.users.set('token-big', { login: 'big', id: 2n ** 63n - 1n });
  assert.deepEqual(await api.user('token-big'), { login: 'big', id: 2n ** 63n - 1n });
  hosting.users.set('token-bot', { login: 'switchyard[bot]', id: 34 });
  assert.deepEqual(await api.user('token-bot'), { login: 'switchyard[bot]', id: 34n });
  const invalid = [['nul', 'a\u0000b', 1], ['space', 'a b', 1], ['empty', '', 1], ['long', 'x'.repeat(40), 1], ['id-2^64', 'ok', 2n ** 64n], ['id-1.5', 'ok', 1.5], ['id-string', 'ok', 'seven'], ['id-negative', 'ok', -1]] as const;
  for (const [name, login, id] of invalid) {
    hosting.users.set(`token-invalid-${name}`, { login, id: id as bigint });
    const field = name.startsWith('id') ? 'id' : 'login';
    await assert.rejects(
      api.user(`token-invalid-${name}`),
      (error: unknown) => error instanceof ApiError && error.code === 'hosting_identity_invalid' && error.status === 403 && error.detail.includes(`invalid ${field}`),
      name,
    );
  }
});

test('unknown tokens are budgeted per client address; confirmed tokens and cached answers cost nothing', async () => {
  let now = 9_000_000;
  const api = new HostingApi(hosting.url, { verificationsPerMinute: 2, now: () => now });
  const asked = () => hosting.requests.filter((url) => url === '/user').length;
  const start = asked();
  assert.equal(await api.user('unknown-1', '192.0.2.1'), null);
  assert.equal(await api.user('unknown-2', '192.0.2.1'), null);
  await assert.rejects(api.user('unknown-3', '192.0.2.1'), (error: unknown) => error instanceof ApiError && error.code === 'token_verifications_limited' && error.status === 429 && error.retryAfterSeconds === 30);
  assert.equal(asked() - start, 2, 'the third was not asked');
  assert.equal(await api.user('unknown-1', '192.0.2.1'), null, 'a remembered answer costs nothing');
  assert.equal(await api.user('unknown-3', '192.0.2.2'), null, 'another address has its own budget');
  now += 30_000;
  hosting.users.set('known-1', { login: 'known', id: 35 });
  assert.deepEqual(await api.user('known-1', '192.0.2.1'), { login: 'known', id: 35n }, 'half a minute later, one more');
  hosting.users.set('known-2', { login: 'known-two', id: 36 });
  assert.deepEqual(await api.user('known-2', '192.0.2.1'), { login: 'known-two', id: 36n }, 'the confirmed one gave it back');
});
