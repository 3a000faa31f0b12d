// Storage outage through HTTP, on a private PostgreSQL the test starts itself: /readyz and
// storage-backed endpoints answer 503 with Retry-After while it is down, and everything
// recovers when it returns, without restarting Switchyard.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, type Store } from '../../src/storage/store.ts';
import { PrivatePostgres } from '../support/private-postgres.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const available = await PrivatePostgres.available();

describe('PostgreSQL outage', { skip: available ? false : 'PostgreSQL server binaries are not installed' }, () => {
  let server: PrivatePostgres;
  let store: Store;
  let t: TestApp;

  before(async () => {
    server = await PrivatePostgres.create();
    await server.start();
    store = await openStore({ databaseUrl: server.url, dataDir: 'unused' });
    t = await startTestApp('postgres', store);
  });
  after(async () => {
    await t?.close();
    await store?.close();
    await server?.destroy();
  });

  test('503 with Retry-After while the database is stopped, recovery when it returns', async () => {
    assert.equal((await t.request('GET', '/readyz', { token: null })).status, 200);
    assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);

    await server.stop();
    const ready = await t.request('GET', '/readyz', { token: null });
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get('retry-after'), '5');
    const write = await t.request('PUT', '/v1/admin/repos/acme/gadgets');
    assert.equal(write.status, 503, write.text);
    assert.equal(write.headers.get('retry-after'), '5');
    assert.match(write.json.detail, /Storage is unreachable/);
    assert.equal((await t.request('GET', '/healthz', { token: null })).status, 200, 'the process stays up');

    await server.start();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await t.request('GET', '/readyz', { token: null })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(status, 200, 'ready again without a restart');
    assert.equal((await t.request('PUT', '/v1/admin/repos/acme/gadgets')).status, 201);
    assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 204, 'the write before the outage is still there');
  });
});
