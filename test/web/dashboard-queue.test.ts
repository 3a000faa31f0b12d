// The dashboard's merge-queue page in headless Chromium, on each backend, against the real
// merge queue: the executor on the fake hosting platform, whose CI holds its verdicts until the
// test lets them go. Pull requests entered through the API appear as batches in lanes with their
// parents as edges, exactly as GET …/merge-queue/status answers; dequeue, pause and unpause work
// from the page; the view follows the batches as they run and merge; axe-core finds nothing
// serious; screenshots at 1280 and 390 px.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { createKey, FULL_NAME, OWNER, REPOSITORY } from '../support/dashboard-world.ts';
import { assertAccessible, launchBrowser, screenshot, signIn, skipWithoutChromium, watchedPage, type WatchedPage } from '../support/dashboard-browser.ts';

const QUEUE = `/v1/repos/${FULL_NAME}/merge-queue`;

async function until<T>(read: () => Promise<T>, expected: T, message: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = await read();
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await read();
  }
  assert.deepEqual(seen, expected, message);
}

/** The batches as the page lists them: name, status code and pull requests. */
const shownBatches = (page: Page) =>
  page.locator('ol.batches > li.batch-item').evaluateAll((items) =>
    items.map((item) => [(item as HTMLElement).dataset.name, (item as HTMLElement).dataset.status, [...item.querySelectorAll('li.pull')].map((pull) => Number((pull as HTMLElement).dataset.number))]),
  );

describe('the dashboard: merge queue', { skip: skipWithoutChromium }, async () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser?.close());

  for (const backend of await backends()) {
    describe(backend, () => {
      let t: TestApp;
      let watched: WatchedPage;
      let page: Page;
      /** What the page must list: the API's batches, each as name, status and pull requests. */
      const apiBatches = async () => {
        const answer = await t.request('GET', `${QUEUE}/status?branch=main`);
        assert.equal(answer.status, 200, answer.text);
        return (answer.json.batches as { name: string; status: { code: string }; pull_requests: { number: number }[] }[]).map((batch) => [batch.name, batch.status.code, batch.pull_requests.map((pull) => pull.number)]);
      };

      let releaseChecks: () => void;
      const checksReleased = new Promise<'success'>((resolve) => (releaseChecks = () => resolve('success')));
      const pulls: bigint[] = [];

      before(async () => {
        t = await startTestApp(backend, undefined, { executor: {} });
        await t.hosting.createRepository({ owner: OWNER, name: REPOSITORY, files: { 'README.md': 'widgets\n' } });
        t.hosting.createUser('alice');
        t.hosting.grant(FULL_NAME, 'alice', 'write');
        t.hosting.grant(FULL_NAME, QUEUE_BOT, 'write');
        // Checks start on every batch branch and decide only when the test lets them.
        t.hosting.ci.configure({ delayMs: 10, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: () => checksReleased }] });
        assert.equal((await t.request('PUT', `/v1/admin/repos/${FULL_NAME}`)).status, 201);
        assert.equal((await t.request('PUT', `/v1/products/${FULL_NAME}`, { body: { products: ['merge_queue'] } })).status, 204);
        const configured = await t.request('PUT', `${QUEUE}/configuration`, { body: { merge_queue: { mode: 'parallel' }, queue_rules: [{ name: 'default' }] } });
        assert.equal(configured.status < 300, true, configured.text);
        const ci = await createKey(t, 'ci');
        // The last one has no scope report: it waits, and the page says why.
        for (const [name, scopes] of [['api', ['api']], ['web', ['web']], ['docs', ['docs', 'api']], ['more', null]] as const) {
          const number = (await t.hosting.openPullRequest({ repo: FULL_NAME, changes: { [`${name}.txt`]: `${name}\n` }, title: `Change the ${name} <b>now</b>`, author: 'alice' })).number;
          pulls.push(number);
          await t.hosting.webhooks.settled();
          if (scopes) assert.ok((await t.request('PUT', `/v1/repos/${FULL_NAME}/pulls/${number}/scopes`, { token: ci.key, body: { scopes } })).status < 300);
        }
        for (const number of pulls) {
          const entered = await t.request('PUT', `${QUEUE}/pull/${number}`, { body: {} });
          assert.equal(entered.status, 202, entered.text);
        }
        const { key } = await createKey(t);
        watched = await watchedPage(browser, t.baseUrl);
        page = watched.page;
        await signIn(page, t.baseUrl, FULL_NAME, key);
      });
      after(async () => {
        await page?.context().close();
        await t?.close();
      });

      /** Polls until the page lists what the API answers at that moment (the executor moves on meanwhile). */
      const untilShownAsApi = async (what: string) => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const [shown, answered] = [await shownBatches(page), await apiBatches()];
          if (JSON.stringify(shown) === JSON.stringify(answered) || Date.now() > deadline) return assert.deepEqual(shown, answered, what);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };

      test('the batches are drawn in lanes with their parents as edges, as the API answers, once they run', async (context) => {
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/queue?branch=main`);
        await page.locator('li.batch-item[data-status="running"]').first().waitFor({ timeout: 30_000 });
        await untilShownAsApi('the batches listed');
        const status = (await t.request('GET', `${QUEUE}/status?branch=main`)).json;
        assert.equal(await page.locator('svg g.batch').count(), status.batches.length, 'one box per batch');
        const edges = status.batches.reduce((n: number, batch: { parent_ids: string[] }) => n + batch.parent_ids.length, 0);
        assert.equal(await page.locator('svg path.edge').count(), edges, 'one edge per parent');
        assert.ok(edges > 0, 'the docs+api batch descends from the api batch');
        assert.deepEqual(await page.locator('svg .lane-name').allTextContents(), ['api', 'docs', 'web'], 'one lane per scope');
        assert.deepEqual(status.waiting_pull_requests.map((pull: { number: number }) => pull.number), [Number(pulls.at(-1))]);
        await page.locator(`ul.waiting li[data-number="${pulls.at(-1)}"] .why`).getByText(/No scope report yet/).waitFor();
        assert.equal(await page.locator('li.pull .title').first().innerText(), status.batches[0].pull_requests[0].title, 'titles as text');
        assert.equal(await page.locator('li.pull b').count(), 0, 'no element made from a title');
        await assertAccessible(page, 'the merge queue');
        if (backend === 'pglite') {
          for (const width of [1280, 390]) {
            await page.setViewportSize({ width, height: 900 });
            context.diagnostic(`screenshot: ${await screenshot(page, `queue-${width}`)}`);
          }
          await page.setViewportSize({ width: 1280, height: 900 });
        }
      });

      test('dequeue, pause and unpause from the page', async () => {
        const last = pulls.at(-1)!;
        await page.locator(`ul.waiting li[data-number="${last}"]`).getByRole('button', { name: `Dequeue #${last}` }).click();
        await until(async () => (await t.request('GET', `${QUEUE}/pull/${last}`)).status, 404, 'dequeued through the API');
        await page.getByText('Waiting pull requests').locator('..').getByText('None.').waitFor();

        await page.getByLabel('Pause reason').fill('release <b>freeze</b>');
        await page.getByRole('button', { name: 'Pause the queue' }).click();
        await page.locator('.paused').getByText('release <b>freeze</b>').waitFor();
        const paused = (await t.request('GET', `${QUEUE}/pause`)).json;
        assert.equal(paused.reason ?? paused.pause?.reason, 'release <b>freeze</b>');
        await assertAccessible(page, 'a paused queue');
        await page.getByRole('button', { name: 'Unpause' }).click();
        await page.getByRole('button', { name: 'Pause the queue' }).waitFor();
        assert.equal((await t.request('GET', `${QUEUE}/status?branch=main`)).json.pause, null);
      });

      test('the view follows the batches as their checks pass and they merge', async () => {
        releaseChecks();
        const merged = pulls.slice(0, -1);
        await page.getByText('No batch: the queue is empty.').waitFor({ timeout: 60_000 });
        for (const number of merged) assert.equal(t.hosting.pullRequest(FULL_NAME, number).merged, true, `#${number} merged on the platform`);
        assert.deepEqual(await apiBatches(), []);
        assert.deepEqual(watched.troubles, []);
      });
    });
  }
});
