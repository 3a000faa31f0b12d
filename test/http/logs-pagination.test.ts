// Keyset pagination of the activity log through HTTP (DESIGN.md §8): Link headers with absolute
// URLs, next then prev giving back the same pages, pages that never shift while events are written
// during a walk, and cursors bound to their filters and repository.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { eventAt, expectedEvents, type ModelEvent } from '../support/activity-log-model.ts';
import { getPage, ingestEvents, linksOf, walkNext, walkPrev, type Page } from '../support/activity-log-client.ts';
import { generateEvents } from '../fixtures/event-fixtures.ts';

const H = 3_600_000;
const REPO = 'acme/walks';
const LOGS = `/v1/repos/${REPO}/logs`;

const idsOfPages = (pages: Page[]) => pages.map((page) => page.ids);
const expectedIds = (model: ModelEvent[], now: number, query = {}) => expectedEvents(model, REPO, query, now).map((e) => String(e.id));

for (const backend of await backends()) {
  describe(`activity log pagination (${backend})`, () => {
    let t: TestApp;
    let model: ModelEvent[];
    let now: number;

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/other')).status, 201);
      now = Date.now();
      model = await ingestEvents(t, REPO, generateEvents({ seed: 5, count: 95, start: new Date(now - 20 * H), end: new Date(now - 60_000) }), now);
      // PGlite reads pages in slices of the window: an hour each here, so pages span many slices.
      if (backend === 'pglite') t.store.eventLog.slicing = { targetMs: 0, firstMs: H, narrowestMs: H };
    });
    after(() => t.close());

    test('first page: no prev; middle pages: both; last page: no next', async () => {
      const pages = await walkNext(t, `${LOGS}?per_page=10`);
      assert.equal(pages.length, 10);
      assert.equal(pages[0]!.prev, undefined);
      assert.ok(pages.slice(1).every((page) => page.prev !== undefined));
      assert.ok(pages.slice(0, -1).every((page) => page.next !== undefined));
      assert.equal(pages[9]!.next, undefined);
      assert.equal(pages[9]!.ids.length, 5);
      assert.deepEqual(pages.flatMap((page) => page.ids), expectedIds(model, now));
    });

    test('a single page carries no Link header', async () => {
      const response = await t.request('GET', `${LOGS}?per_page=100`);
      assert.equal(response.json.size, 95);
      assert.equal(response.headers.get('link'), null);
    });

    test('walking next to the end, then prev back to the start, gives the same pages', async () => {
      const forward = await walkNext(t, `${LOGS}?per_page=8&not_outcome=neutral`);
      const backward = await walkPrev(t, forward[forward.length - 1]!);
      assert.deepEqual(idsOfPages(backward), idsOfPages(forward));
      // Next again from a page reached by prev is the page that followed it.
      assert.deepEqual((await getPage(t, backward[2]!.next!)).ids, forward[3]!.ids);
    });

    test('links are absolute on the request host, and repeat every filter with per_page and cursor', async () => {
      const from = new Date(Math.floor((now - 30 * 24 * H) / 1000) * 1000);
      const fromText = new Date(from.getTime() + H).toISOString().replace('.000Z', '%2B01:00');
      const search = `event_type=action.queue.enter&event_type=action.label&not_trigger=a+b&received_from=${fromText}&per_page=3`;
      const page = await getPage(t, `${LOGS}?${search}&received_to=${new Date(now).toISOString()}`);
      const next = new URL(page.next!);
      assert.equal(next.origin, t.baseUrl);
      assert.equal(next.pathname, LOGS);
      assert.deepEqual(next.searchParams.getAll('event_type'), ['action.label', 'action.queue.enter']);
      assert.deepEqual(next.searchParams.getAll('not_trigger'), ['a b']);
      assert.equal(next.searchParams.get('received_from'), from.toISOString());
      assert.equal(next.searchParams.get('received_to'), new Date(now).toISOString());
      assert.equal(next.searchParams.get('per_page'), '3');
      assert.match(next.searchParams.get('cursor')!, /^[A-Za-z0-9_-]+$/);
      assert.match(page.response.headers.get('link')!, /^<http:\/\/[^>]+>; rel="next"$/);
    });

    test('behind a trusted proxy, links use X-Forwarded-Proto and X-Forwarded-Host', async () => {
      // Only from SWITCHYARD_TRUSTED_PROXIES (test/http/forwarded-headers.test.ts: from others, ignored).
      const behindProxy = await startTestApp(backend, t.store, { trustedProxies: ['127.0.0.1'] });
      try {
        const page = await getPage(behindProxy, `${LOGS}?per_page=50`, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'logs.example.com' });
        assert.ok(page.next!.startsWith(`https://logs.example.com${LOGS}?per_page=50&cursor=`), page.next);
      } finally {
        await behindProxy.close();
      }
    });

    test('SWITCHYARD_PUBLIC_URL, when set, is the base of every link', async () => {
      const proxied = await startTestApp(backend, t.store, { publicUrl: 'https://switchyard.example.com/api' });
      try {
        const first = await getPage(proxied, `${LOGS}?per_page=50`, { 'x-forwarded-host': 'ignored.example.com' });
        assert.ok(first.next!.startsWith(`https://switchyard.example.com/api${LOGS}?per_page=50&cursor=`), first.next);
        const second = await getPage(proxied, first.next!.replace('https://switchyard.example.com/api', ''));
        assert.ok(second.prev!.startsWith('https://switchyard.example.com/api/'), second.prev);
      } finally {
        await proxied.close();
      }
    });

    test('per_page may change between pages: every event is still seen exactly once', async () => {
      let page = await getPage(t, `${LOGS}?per_page=7`);
      const seen = [...page.ids];
      for (let size = 3; page.next; size = (size % 20) + 4) {
        const url = new URL(page.next);
        url.searchParams.set('per_page', String(size));
        page = await getPage(t, url.toString());
        seen.push(...page.ids);
      }
      assert.deepEqual(seen, expectedIds(model, now));
    });

    test('events written during a walk never shift a page, forward or back', async () => {
      const snapshot = expectedIds(model, now);
      const forward = [await getPage(t, `${LOGS}?per_page=10`)];
      const lastOf = (page: Page) => model.find((e) => String(e.id) === page.ids[page.ids.length - 1])!;
      while (forward[forward.length - 1]!.next) {
        const current = forward[forward.length - 1]!;
        // Before each step: an event in the page just read, one tied with its last row (same
        // millisecond, higher id, so it sorts before it), one deep in the pages to come, one now.
        const boundary = lastOf(current).receivedAt;
        const written = [eventAt('action.comment', boundary + 1), eventAt('action.comment', boundary), eventAt('action.close', now - 19 * H), eventAt('action.merge', Date.now())];
        model.push(...(await ingestEvents(t, REPO, written)));
        forward.push(await getPage(t, current.next!));
      }
      assert.deepEqual(forward.flatMap((page) => page.ids), snapshot);
      assert.deepEqual(idsOfPages(await walkPrev(t, forward[forward.length - 1]!)), idsOfPages(forward));
      const fresh = await walkNext(t, `${LOGS}?per_page=100`);
      assert.deepEqual(fresh.flatMap((page) => page.ids), expectedIds(model, Date.now()), 'a new walk sees the new events');
    });

    test('writes racing the page reads leave every page as it was', async () => {
      const unraced = await walkNext(t, `${LOGS}?per_page=9&outcome=success&outcome=neutral`);
      const racing = [await getPage(t, `${LOGS}?per_page=9&outcome=success&outcome=neutral`)];
      while (racing[racing.length - 1]!.next) {
        const step = getPage(t, racing[racing.length - 1]!.next!);
        const writes = [0, 1, 2].map((i) => ingestEvents(t, REPO, [eventAt('action.label', now - i * 6 * H), eventAt('product.enabled', now - 5 * H - i)]));
        const [page] = await Promise.all([step, ...writes]);
        racing.push(page);
      }
      assert.deepEqual(idsOfPages(racing), idsOfPages(unraced));
    });

    test('a cursor is bound to its filters, window and repository', async () => {
      const first = await getPage(t, `${LOGS}?per_page=5&outcome=success&received_to=${new Date(now).toISOString()}`);
      const cursor = new URL(first.next!).searchParams.get('cursor')!;
      const given = `outcome=success&received_to=${new Date(now).toISOString()}`;
      assert.equal((await t.request('GET', `${LOGS}?per_page=5&${given}&cursor=${cursor}`)).status, 200, 'the same filters, another order of parameters');
      const others = [
        `${LOGS}?per_page=5&received_to=${new Date(now).toISOString()}&cursor=${cursor}`,
        `${LOGS}?per_page=5&${given}&outcome=failure&cursor=${cursor}`,
        `${LOGS}?per_page=5&outcome=success&received_to=${new Date(now - 1).toISOString()}&cursor=${cursor}`,
        `${LOGS}?per_page=5&outcome=success&cursor=${cursor}`,
        `/v1/repos/acme/other/logs?per_page=5&${given}&cursor=${cursor}`,
      ];
      for (const path of others) {
        const response = await t.request('GET', path);
        assert.equal(response.status, 422, path);
        assert.deepEqual(response.json.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type]), [['query.cursor', 'cursor_mismatch']], path);
      }
    });

    test('a tampered, truncated or made-up cursor is a 422 naming the cursor', async () => {
      const first = await getPage(t, `${LOGS}?per_page=5`);
      const cursor = new URL(first.next!).searchParams.get('cursor')!;
      const flip = (text: string, index: number) => text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
      const bad = [flip(cursor, 3), flip(cursor, 30), flip(cursor, cursor.length - 1), cursor.slice(0, -4), `${cursor}AAAA`, 'abc', 'a'.repeat(88), `${cursor.slice(0, -1)}=`, '%00'];
      for (const value of bad) {
        const response = await t.request('GET', `${LOGS}?per_page=5&cursor=${encodeURIComponent(value)}`);
        assert.equal(response.status, 422, value);
        assert.deepEqual(response.json.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type]), [['query.cursor', 'cursor_invalid']], value);
      }
    });

    test('events sharing one millisecond are ordered by id and split across pages without loss', async () => {
      const instant = now - 10 * H + 0.5;
      const tied = Array.from({ length: 23 }, () => eventAt('action.refresh', instant, { trigger: 'tied' }));
      const ids = (await ingestEvents(t, REPO, tied)).map((e) => String(e.id));
      const forward = await walkNext(t, `${LOGS}?trigger=tied&per_page=5`);
      assert.deepEqual(forward.flatMap((page) => page.ids), [...ids].reverse());
      assert.deepEqual(idsOfPages(await walkPrev(t, forward[forward.length - 1]!)), idsOfPages(forward));
    });

    test('a cursor keeps its window: pages reached later do not move with the clock', async () => {
      const first = await getPage(t, `${LOGS}?per_page=4`);
      await ingestEvents(t, REPO, [eventAt('action.comment', Date.now())]);
      const again = await getPage(t, first.next!);
      const back = await getPage(t, again.prev!);
      assert.deepEqual(back.ids, first.ids);
      assert.deepEqual(linksOf(back.response.headers.get('link')).prev, undefined, 'the first page reached back has no prev');
    });
  });
}
