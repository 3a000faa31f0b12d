// Products and default products through HTTP (spec §4.3, DESIGN.md §6): sets, recorded events
// with the caller as actor, defaults for new repositories, bad input, and concurrent PUTs whose
// recorded events always replay to the stored set.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const PRODUCTS = ['ci_insights', 'merge_protections', 'workflow_automation', 'merge_queue'];

interface ProductEvent {
  type: string;
  trigger: string;
  pull_request: string | null;
  metadata: Record<string, any>;
}

for (const backend of await backends()) {
  describe(`products (${backend})`, () => {
    let t: TestApp;
    let adminKey: { id: string; key: string; name: string };

    async function productEvents(repository: string): Promise<ProductEvent[]> {
      const rows = await t.store.db
        .selectFrom('events')
        .innerJoin('repositories', 'repositories.id', 'events.repository_id')
        .select(['events.type', 'events.trigger', 'events.pull_request', 'events.metadata'])
        .where('repositories.name', '=', repository)
        .where('events.type', 'like', 'product.%')
        .orderBy('events.id')
        .execute();
      return rows.map((row) => ({ ...row, metadata: JSON.parse(row.metadata) }));
    }

    function replay(events: ProductEvent[]): string[] {
      const set = new Set<string>();
      for (const event of events) {
        if (event.type === 'product.enabled') {
          assert.ok(!set.has(event.metadata.product), `enabled twice: ${event.metadata.product}`);
          set.add(event.metadata.product);
        } else {
          assert.ok(set.delete(event.metadata.product), `disabled while not enabled: ${event.metadata.product}`);
        }
      }
      return PRODUCTS.filter((p) => set.has(p));
    }

    const getProducts = async (repository: string) => (await t.request('GET', `/v1/products/acme/${repository}`)).json.products;

    before(async () => {
      t = await startTestApp(backend);
      for (const name of ['widgets', 'race']) assert.equal((await t.request('PUT', `/v1/admin/repos/acme/${name}`)).status, 201);
      adminKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'admin', name: 'release bot' } })).json;
      t.hosting.users.set('hosting-admin', { login: 'alice', id: 4242, repos: { 'acme/widgets': { admin: true, pull: true } } });
    });
    after(() => t.close());

    test('a PUT replaces the set; repeats collapse; GET reads it back in catalogue order', async () => {
      const response = await t.request('PUT', '/v1/products/acme/widgets', { token: adminKey.key, body: { products: ['merge_queue', 'ci_insights', 'merge_queue'] } });
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
      assert.deepEqual(await getProducts('widgets'), ['ci_insights', 'merge_queue']);
      assert.equal((await t.request('PUT', '/v1/products/acme/widgets', { token: adminKey.key, body: { products: ['merge_queue'] } })).status, 204);
      assert.deepEqual(await getProducts('widgets'), ['merge_queue']);
    });

    test('each change is one event with the caller as actor; an unchanged PUT records nothing', async () => {
      const before = (await productEvents('widgets')).length;
      await t.request('PUT', '/v1/products/acme/widgets', { token: adminKey.key, body: { products: ['merge_queue', 'workflow_automation'] } });
      await t.request('PUT', '/v1/products/acme/widgets', { token: adminKey.key, body: { products: ['workflow_automation', 'merge_queue'] } });
      await t.request('PUT', '/v1/products/acme/widgets', { token: 'hosting-admin', body: { products: ['workflow_automation'] } });
      await t.request('PUT', '/v1/products/acme/widgets', { body: { products: [] } });
      const events = (await productEvents('widgets')).slice(before);
      assert.deepEqual(events.map((e) => [e.type, e.metadata.product]), [
        ['product.enabled', 'workflow_automation'],
        ['product.disabled', 'merge_queue'],
        ['product.disabled', 'workflow_automation'],
      ]);
      assert.deepEqual(events[0]!.metadata.enabled_by, { type: 'application', id: adminKey.id, name: 'release bot' });
      assert.equal(events[0]!.metadata.enabled_by_staff, false);
      assert.deepEqual(events[1]!.metadata.disabled_by, { type: 'user', id: 4242, name: 'alice' });
      const { id: actorId, ...actor } = events[2]!.metadata.disabled_by;
      assert.deepEqual(actor, { type: 'application', name: 'switchyard' });
      assert.match(actorId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'the service token acts under a fixed uuid');
      assert.equal(events[2]!.metadata.disabled_by_staff, true, 'the service token acts as staff');
      assert.equal(events[0]!.pull_request, null);
      assert.ok(!Number.isNaN(Date.parse(events[0]!.metadata.enabled_at)));
      const outcomes = await t.store.db.selectFrom('events').select('outcome').where('type', 'like', 'product.%').execute();
      assert.ok(outcomes.every((row) => row.outcome === 'neutral'));
      assert.deepEqual(replay(await productEvents('widgets')), await getProducts('widgets'));
    });

    test('default products: [] when never set, then read back; new repositories start with them', async () => {
      assert.deepEqual((await t.request('GET', '/v1/default_products/globex')).json, { products: [] });
      assert.equal((await t.request('PUT', '/v1/default_products/Globex', { body: { products: ['merge_queue', 'ci_insights'] } })).status, 204);
      assert.deepEqual((await t.request('GET', '/v1/default_products/GLOBEX')).json, { products: ['ci_insights', 'merge_queue'] });
      const registered = await t.request('PUT', '/v1/admin/repos/globex/engine');
      assert.equal(registered.status, 201);
      assert.deepEqual(registered.json.products, ['ci_insights', 'merge_queue']);
      assert.deepEqual((await t.request('GET', '/v1/products/globex/engine')).json, { products: ['ci_insights', 'merge_queue'] });
      const rows = await t.store.db.selectFrom('events').innerJoin('repositories', 'repositories.id', 'events.repository_id').select(['events.type', 'events.metadata']).where('repositories.name', '=', 'engine').orderBy('events.id').execute();
      assert.deepEqual(rows.map((r) => [r.type, JSON.parse(r.metadata).product]), [['product.enabled', 'ci_insights'], ['product.enabled', 'merge_queue']]);
      assert.equal(JSON.parse(rows[0]!.metadata).enabled_by_staff, true, 'registered with the service token');
      const actors = rows.map((r) => JSON.parse(r.metadata).enabled_by);
      assert.equal(actors[0].type, 'application');
      assert.deepEqual(actors[1], actors[0], 'the service token\'s actor is fixed');
      assert.equal((await t.request('PUT', '/v1/admin/repos/globex/engine')).status, 204);
      const again = await t.store.db.selectFrom('events').innerJoin('repositories', 'repositories.id', 'events.repository_id').select('events.id').where('repositories.name', '=', 'engine').execute();
      assert.equal(again.length, rows.length, 'registering again records no product event');
    });

    test('a repository registered before the defaults changed keeps its own set', async () => {
      await t.request('PUT', '/v1/default_products/initech', { body: { products: ['ci_insights'] } });
      await t.request('PUT', '/v1/admin/repos/initech/tps');
      await t.request('PUT', '/v1/default_products/initech', { body: { products: [] } });
      assert.deepEqual(await (await t.request('GET', '/v1/products/initech/tps')).json.products, ['ci_insights']);
    });

    test('bad input is a 422 naming the value, and writes nothing', async () => {
      const cases: [unknown, string, string][] = [
        [{ products: ['merge_queue', 'teleport'] }, 'body.products.1', 'enum'],
        [{}, 'body.products', 'missing'],
        [{ products: 'merge_queue' }, 'body.products', 'type_error'],
        [{ products: [], enabled: true }, 'body.enabled', 'extra_forbidden'],
        [{ products: [null] }, 'body.products.0', 'type_error'],
      ];
      const before = await getProducts('widgets');
      for (const [body, loc, type] of cases) {
        for (const path of ['/v1/products/acme/widgets', '/v1/default_products/acme']) {
          const response = await t.request('PUT', path, { body });
          assert.equal(response.status, 422, `${path} ${JSON.stringify(body)}`);
          assert.ok(response.json.detail.some((d: { loc: string[]; type: string }) => d.loc.join('.') === loc && d.type === type), JSON.stringify(response.json.detail));
        }
      }
      assert.deepEqual(await getProducts('widgets'), before);
      assert.deepEqual((await t.request('GET', '/v1/default_products/acme')).json.products, []);
    });

    test('an unknown repository is 404', async () => {
      assert.deepEqual((await t.request('PUT', '/v1/products/acme/ghost', { body: { products: [] } })).json, { detail: 'Repository not found' });
      assert.equal((await t.request('GET', '/v1/products/acme/ghost')).status, 404);
    });

    test('concurrent PUTs leave the set and the recorded events in agreement', async () => {
      const sets = Array.from({ length: 40 }, (_, i) => PRODUCTS.filter((_, bit) => ((i * 7 + 3) >> bit) & 1));
      const responses = await Promise.all(sets.map((products) => t.request('PUT', '/v1/products/acme/race', { token: adminKey.key, body: { products } })));
      assert.ok(responses.every((r) => r.status === 204), responses.map((r) => r.text).join());
      const final = await getProducts('race');
      assert.ok(sets.some((set) => JSON.stringify(set) === JSON.stringify(final)), 'the final set is one that was sent');
      assert.deepEqual(replay(await productEvents('race')), final);
    });
  });
}
