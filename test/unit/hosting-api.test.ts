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
