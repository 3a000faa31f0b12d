// Revocation is immediate in the revoking process (issue 20, item 5): an id written in upper
// case answered 204 and left the key cached for 10 s, and a lookup in flight during the
// revocation put the old row back in the cache (thousands of writes accepted after the 204).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const READ = `/v1/repos/acme/widgets/commits/${'a'.repeat(40)}/scopes`;

for (const backend of await backends()) {
  describe(`key revocation (${backend})`, () => {
    let t: TestApp;
    const newKey = async () => (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } })).json as { id: string; key: string };

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    after(() => t.close());

    test('an id in upper case revokes the key, refused from the next request on', async () => {
      const { id, key } = await newKey();
      assert.equal((await t.request('GET', READ, { token: key })).status, 404, 'accepted (and cached)');
      assert.equal((await t.request('DELETE', `/v1/admin/keys/${id.toUpperCase()}`)).status, 204);
      assert.equal((await t.request('GET', READ, { token: key })).status, 403);
      const listed = (await t.request('GET', '/v1/admin/keys?owner=acme')).json.keys.find((k: { id: string }) => k.id === id);
      assert.notEqual(listed.revoked_at, null);
    });

    test('lookups in flight during the revocation do not bring the key back', async () => {
      for (let round = 0; round < 3; round++) {
        const { id, key } = await newKey();
        let revokedAt = Infinity;
        let stop = false;
        const acceptedAfter: number[] = [];
        const worker = async () => {
          while (!stop) {
            const started = performance.now();
            const status = (await t.request('GET', READ, { token: key })).status;
            if (started > revokedAt && status !== 403) acceptedAfter.push(status);
          }
        };
        const workers = Array.from({ length: 8 }, worker);
        await new Promise((resolve) => setTimeout(resolve, 150));
        assert.equal((await t.request('DELETE', `/v1/admin/keys/${id}`)).status, 204);
        revokedAt = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 400));
        stop = true;
        await Promise.all(workers);
        assert.deepEqual(acceptedAfter, [], `round ${round}: requests started after the 204 were accepted`);
      }
    });
  });
}
