// The dashboard's sign-in, activity log and settings as a person uses them, in headless Chromium
// against a server loaded with a day of realistic events: what the page shows after each click
// is exactly what the API answers for the same view. Also: the token stays in session storage,
// hostile metadata stays text, failures say what to do, and axe-core finds nothing serious.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { FULL_NAME, HOSTILE_MESSAGE, seedDashboardWorld, type DashboardWorld } from '../support/dashboard-world.ts';
import { assertAccessible, launchBrowser, screenshot, signIn, skipWithoutChromium, watchedPage, type WatchedPage } from '../support/dashboard-browser.ts';
import { linksOf } from '../support/activity-log-client.ts';

const LOGS = `/v1/repos/${FULL_NAME}/logs`;
const PER_PAGE = 25;

/** Polls until `read` gives `expected` (the page renders after its fetches), then asserts it. */
async function until<T>(read: () => Promise<T>, expected: T, message: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = await read();
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await read();
  }
  assert.deepEqual(seen, expected, message);
}

const shownIds = (page: Page) => page.locator('tr.event').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.id));
const shownTotal = (page: Page) => page.locator('[data-total]').getAttribute('data-total').then(Number);
/** The histogram's buckets with events, as the table beside the chart lists them. */
const shownBuckets = (page: Page) =>
  page.locator('details.buckets tbody tr').evaluateAll((rows) => rows.map((row) => [(row as HTMLElement).dataset.start, Number(row.children[1]!.textContent!.replace(/,/g, ''))]));
const viewQuery = (page: Page) => new URL(page.url()).searchParams;

describe('the dashboard: sign-in, activity log, settings', { skip: skipWithoutChromium }, async () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser?.close());

  for (const backend of await backends()) {
    describe(backend, () => {
      let t: TestApp;
      let world: DashboardWorld;
      let watched: WatchedPage;
      let page: Page;
      const api = async (path: string) => {
        const answer = await t.request('GET', path, { token: world.key });
        assert.equal(answer.status, 200, answer.text);
        return answer;
      };
      /** What the page must show for a view: the API's total, histogram and first page. */
      const expected = async (query: URLSearchParams) => {
        const aggregate = (await api(`${LOGS}/aggregate?${query}`)).json;
        const listQuery = new URLSearchParams(query);
        listQuery.set('per_page', String(PER_PAGE));
        const list = await api(`${LOGS}?${listQuery}`);
        return {
          total: aggregate.total as number,
          buckets: (aggregate.histogram as { start: string; count: number }[]).filter((bucket) => bucket.count > 0).map((bucket) => [bucket.start, bucket.count]),
          ids: (list.json.events as { id: number }[]).map((event) => String(event.id)),
          next: linksOf(list.headers.get('link')).next,
        };
      };
      const assertShows = async (query: URLSearchParams, what: string) => {
        const want = await expected(query);
        await until(() => shownTotal(page), want.total, `${what}: the total`);
        await until(() => shownIds(page), want.ids, `${what}: the table`);
        await until(() => shownBuckets(page), want.buckets, `${what}: the histogram`);
        return want;
      };

      before(async () => {
        t = await startTestApp(backend);
        world = await seedDashboardWorld(t);
        watched = await watchedPage(browser, t.baseUrl);
        page = watched.page;
      });
      after(async () => {
        await page?.context().close();
        await t?.close();
      });

      test('signing in keeps the token in session storage only, and the log shows what the API answers', async () => {
        const shell = await fetch(`${t.baseUrl}/`);
        const policy = shell.headers.get('content-security-policy') ?? '';
        assert.match(policy, /script-src 'self'(;|$)/, 'scripts from this origin only, none inline');
        assert.doesNotMatch(await shell.text(), /<script(?![^>]*\bsrc=)/, 'the page has no inline script');

        await signIn(page, t.baseUrl, FULL_NAME, world.key);
        await assertShows(new URLSearchParams(), 'the default view');
        await page.locator('figure.histogram[data-stacked="true"]').waitFor();
        const stored = await page.evaluate(() => ({ session: { ...sessionStorage }, local: localStorage.length, cookie: document.cookie }));
        assert.equal(stored.session['switchyard.token'], world.key);
        assert.equal(stored.local, 0);
        assert.equal(stored.cookie, '');
        assert.ok(!page.url().includes(world.key), 'the token is never in the URL');
        await assertAccessible(page, 'the activity log');
      });

      test('a click on a facet keeps its events, Alt+click excludes: the table and histogram narrow to what the API returns', async () => {
        await page.locator('[data-facet="outcome"] button.facet-value[data-value="failure"]').click();
        await page.waitForURL(/outcome=failure/);
        await assertShows(new URLSearchParams({ outcome: 'failure' }), 'outcome=failure');
        await page.locator('figure.histogram[data-stacked="true"]').waitFor();
        const columns = await page.locator('details.buckets thead th').allTextContents();
        assert.ok(columns.includes('failure') && !columns.includes('success'), `the stack holds failures only: ${columns}`);

        const type = (await page.locator('[data-facet="event_type"] button.facet-value').first().getAttribute('data-value'))!;
        await page.locator(`[data-facet="event_type"] button.facet-value[data-value="${type}"]`).click({ modifiers: ['Alt'] });
        await page.waitForURL(/not_event_type=/);
        await assertShows(new URLSearchParams([['outcome', 'failure'], ['not_event_type', type]]), `outcome=failure, not ${type}`);
        assert.equal(await page.locator('.chips li.exclude').count(), 1, 'the exclusion is shown as a chip');
      });

      test('pages go forward and back along the API\'s Link cursors', async () => {
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs?outcome=failure`);
        const first = await assertShows(new URLSearchParams({ outcome: 'failure' }), 'first page');
        assert.ok(first.next, 'the seeded failures fill more than a page');
        const second = (await api(new URL(first.next!).pathname + new URL(first.next!).search)).json.events.map((event: { id: number }) => String(event.id));
        await page.getByRole('button', { name: 'Older →' }).click();
        await until(() => shownIds(page), second, 'the second page is the API\'s next page');
        assert.ok(viewQuery(page).get('cursor'), 'the page is in the URL');
        await page.getByRole('button', { name: '← Newer' }).click();
        await until(() => shownIds(page), first.ids, 'back to the first page');
      });

      test('an address opened directly asks for its aggregate while the page\'s modules are still arriving, and once', async () => {
        const asked: string[] = [];
        let aggregateAsked: () => void;
        const aggregateSeen = new Promise<void>((resolve) => (aggregateAsked = resolve));
        const aggregate = `${LOGS}/aggregate?outcome=failure`;
        const onRequest = (request: { url(): string }) => {
          const url = new URL(request.url());
          if (!url.pathname.startsWith(LOGS)) return;
          asked.push(url.pathname + url.search);
          if (url.pathname + url.search === aggregate) aggregateAsked();
        };
        // The entry module is held back until the aggregate has been asked for (or 5 s have passed).
        let heldUntilAsked = false;
        await page.route('**/dashboard/assets/main.js', async (route) => {
          heldUntilAsked = await Promise.race([aggregateSeen.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, 5000, false))]);
          await route.continue();
        });
        page.on('request', onRequest);
        try {
          await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs?outcome=failure`);
          await assertShows(new URLSearchParams({ outcome: 'failure' }), 'the view opened from its address');
        } finally {
          page.off('request', onRequest);
          await page.unroute('**/dashboard/assets/main.js');
        }
        assert.ok(heldUntilAsked, 'the aggregate was asked for before the entry module arrived');
        assert.deepEqual(asked.filter((path) => path === aggregate), [aggregate], 'the aggregate was asked for once');
        assert.deepEqual(asked.filter((path) => path.startsWith(`${LOGS}?`)), [`${LOGS}?outcome=failure&per_page=${PER_PAGE}`], 'the first page was asked for once');
      });

      test('a range picked on the chart becomes the window, in the URL and in what is shown', async () => {
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs`);
        await page.locator('figure.histogram[data-stacked="true"]').waitFor();
        const box = (await page.locator('.u-over').boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.55, box.y + box.height / 2, { steps: 8 });
        await page.mouse.up();
        await page.waitForURL(/received_from=/);
        const from = viewQuery(page).get('received_from')!;
        const to = viewQuery(page).get('received_to')!;
        const span = Date.parse(to) - Date.parse(from);
        assert.ok(span > 3 * 3_600_000 && span < 8 * 3_600_000, `a quarter of the day was picked: ${from} to ${to}`);
        const want = await assertShows(new URLSearchParams({ received_from: from, received_to: to }), 'the picked window');
        assert.ok(want.total > 0);
        for (const time of await page.locator('tr.event td.time').allInnerTexts()) {
          const at = Date.parse(time.replace(' ', 'T'));
          assert.ok(at >= Date.parse(from) - 1000 && at < Date.parse(to), `${time} is in the window`);
        }
        await page.getByRole('button', { name: '24h' }).click();
        await page.waitForURL((url) => !url.search.includes('received_from'));
      });

      test('an event opens to its metadata, and markup in it stays text', async () => {
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs?event_type=action.comment`);
        const row = page.locator(`tr.event[data-id="${world.hostileEventId}"]`);
        await row.getByRole('button', { name: /Open/ }).click();
        const details = page.locator(`#event-${world.hostileEventId}`);
        const metadata = JSON.parse(await details.locator('pre.metadata').innerText());
        assert.deepEqual(metadata, { message: HOSTILE_MESSAGE }, 'the metadata is readable, as sent');
        assert.equal(await row.locator('td.trigger').innerText(), 'Rule: <b>greet</b>');
        assert.equal(await page.locator('tr.event img, tr.details img, tr.event b, tr.details script').count(), 0, 'no element was made from event data');
        assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no script from event data ran');
        assert.equal(viewQuery(page).get('event'), world.hostileEventId, 'the opened event is in the URL');
        await assertAccessible(page, 'an opened event');
      });

      test('empty, rate-limited and unavailable views say what to do, and recover by themselves', async () => {
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs?since=1h&pull_request=999999`);
        await page.locator('.empty').getByText('Nothing in this window matches these filters.').waitFor();
        await assertAccessible(page, 'the empty state');

        for (const [status, kind] of [[429, 'rate_limited'], [503, 'unavailable']] as const) {
          let refused = 0;
          await page.route('**/logs/aggregate?**', async (route) => {
            if (refused++ > 0) return route.continue();
            await route.fulfill({ status, headers: { 'retry-after': '1', 'content-type': 'application/json' }, body: JSON.stringify({ detail: `refused with ${status}` }) });
          });
          await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs`);
          await page.locator(`.problem[data-kind="${kind}"]`).getByText(`refused with ${status}`).waitFor();
          await page.locator('[data-total]').waitFor({ timeout: 10_000 });
          await page.unroute('**/logs/aggregate?**');
        }
      });

      test('settings: products saved, a pull request\'s effective scopes shown', async () => {
        const ci = await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } });
        await t.request('PUT', `/v1/admin/repos/${FULL_NAME}/pulls/12`, { body: { state: 'open', head_sha: 'a'.repeat(40), base_ref: 'main' } });
        assert.equal((await t.request('PUT', `/v1/repos/${FULL_NAME}/pulls/12/scopes`, { token: ci.json.key, body: { scopes: ['api', '<i>web</i>'] } })).status < 300, true);

        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/settings`);
        await page.getByLabel('Merge queue').check();
        await page.getByLabel('CI insights').check();
        await page.getByRole('button', { name: 'Save products' }).click();
        await page.getByText('Saved; each change is in the activity log.').waitFor();
        assert.deepEqual((await api(`/v1/products/${FULL_NAME}`)).json.products.sort(), ['ci_insights', 'merge_queue']);

        await page.getByLabel('Pull request number').fill('12');
        await page.getByRole('button', { name: 'Show its scopes' }).click();
        await until(() => page.locator('.scope-list .scope').allInnerTexts(), ['api', '<i>web</i>'], 'the scopes, as text');
        await assertAccessible(page, 'settings');
      });

      test('screenshots at 1280 and 390 px, and nothing refused or run from elsewhere', async (context) => {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs?outcome=failure&outcome=pending`);
          await page.locator('figure.histogram[data-stacked="true"]').waitFor();
          await page.locator('tr.event').first().getByRole('button', { name: /Open/ }).click();
          await assertAccessible(page, `the log at ${width} px`);
          assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, `nothing wider than ${width} px`);
          if (backend === 'pglite') context.diagnostic(`screenshot: ${await screenshot(page, `log-${width}`)}`);
          await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/settings`);
          await page.getByLabel('Merge queue').waitFor();
          if (backend === 'pglite') context.diagnostic(`screenshot: ${await screenshot(page, `settings-${width}`)}`);
        }
        await page.setViewportSize({ width: 1280, height: 900 });
        assert.deepEqual(watched.troubles, []);
      });

      test('a revoked key: the page says to sign in again', async (context) => {
        assert.equal((await t.request('DELETE', `/v1/admin/keys/${world.keyId}`)).status, 204);
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/logs`);
        const problem = page.locator('.problem[data-kind="credential"]');
        await problem.getByText('Your credential was refused').waitFor();
        await assertAccessible(page, 'the refused credential');
        await problem.getByRole('button', { name: 'Sign in again' }).click();
        await page.getByLabel('Key or token').waitFor();
        assert.equal(await page.evaluate(() => sessionStorage.getItem('switchyard.token')), null, 'the refused token is forgotten');
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          if (backend === 'pglite') context.diagnostic(`screenshot: ${await screenshot(page, `sign-in-${width}`)}`);
        }
      });
    });
  }
});
