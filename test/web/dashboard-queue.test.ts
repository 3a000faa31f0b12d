// The dashboard's merge-queue page in headless Chromium, on each backend, against the real
// merge-queue API: pull requests entered through it appear as batches in scope lanes with their
// parents as edges, exactly as GET …/merge-queue/status plans them; the view follows a batch as
// it starts and merges (the executor's steps, scripted without a platform); dequeue, pause and
// unpause work from the page; axe-core finds nothing serious; screenshots at 1280 and 390 px.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createKey, FULL_NAME, OWNER, REPOSITORY } from '../support/dashboard-world.ts';
import { assertAccessible, launchBrowser, screenshot, signIn, skipWithoutChromium, watchedPage, type WatchedPage } from '../support/dashboard-browser.ts';
import { passAndMerge, startPlannedBatches } from '../support/scripted-executor.ts';

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

      before(async () => {
        t = await startTestApp(backend);
        assert.equal((await t.request('PUT', `/v1/admin/repos/${FULL_NAME}`)).status, 201);
        const configured = await t.request('PUT', `${QUEUE}/configuration`, { body: { merge_queue: { mode: 'parallel', max_parallel_checks: 2 }, queue_rules: [{ name: 'default', batch_size: 1, batch_max_wait_time: 0 }] } });
        assert.ok(configured.status < 300, configured.text);
        const ci = await createKey(t, 'ci');
        const scopes: Record<number, string[]> = { 1: ['api'], 2: ['web'], 3: ['api', 'web'], 4: ['docs'] };
        for (const number of [1, 2, 3, 4, 5]) {
          const head = String(number).repeat(40).slice(0, 40);
          assert.equal((await t.request('PUT', `/v1/admin/repos/${FULL_NAME}/pulls/${number}`, { body: { state: 'open', head_sha: head, base_ref: 'main' } })).status, 204);
          if (scopes[number]) assert.ok((await t.request('PUT', `/v1/repos/${FULL_NAME}/pulls/${number}/scopes`, { token: ci.key, body: { scopes: scopes[number] } })).status < 300);
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

      test('the batches are drawn in scope lanes with their parents, as the API plans them; the waiting pull request says why', async () => {
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/queue?branch=main`);
        await until(() => shownBatches(page), await apiBatches(), 'the batches listed');
        const status = (await t.request('GET', `${QUEUE}/status?branch=main`)).json;
        assert.equal(await page.locator('svg g.batch').count(), status.batches.length, 'one box per batch');
        const edges = status.batches.reduce((n: number, batch: { parent_ids: string[] }) => n + batch.parent_ids.length, 0);
        assert.equal(await page.locator('svg path.edge').count(), edges, 'one edge per parent');
        assert.deepEqual(await page.locator('svg .lane-name').allTextContents(), ['api', 'docs', 'web']);
        for (const pull of status.waiting_pull_requests) {
          await page.locator(`ul.waiting li[data-number="${pull.number}"] .why`).waitFor();
        }
        await assertAccessible(page, 'the merge queue');
      });

      test('the view follows a batch as it starts and merges', async (context) => {
        await startPlannedBatches(t, OWNER, REPOSITORY);
        const started = await apiBatches();
        assert.ok(started.some(([, code]) => code === 'running'), `a batch runs: ${JSON.stringify(started)}`);
        await until(() => shownBatches(page), started, 'the running batches, refreshed by the page');
        const first = (started.find(([, code]) => code === 'running')![2] as number[])[0]!;
        if (backend === 'pglite') {
          for (const width of [1280, 390]) {
            await page.setViewportSize({ width, height: 900 });
            context.diagnostic(`screenshot: ${await screenshot(page, `queue-${width}`)}`);
          }
          await page.setViewportSize({ width: 1280, height: 900 });
        }
        await passAndMerge(t, OWNER, REPOSITORY, first);
        const after = await apiBatches();
        assert.ok(!after.some(([, , pulls]) => (pulls as number[]).includes(first)), `#${first} has left the queue`);
        await until(() => shownBatches(page), after, 'the merged batch is gone from the page');
      });

      test('dequeue, pause and unpause from the page', async () => {
        const [, , pulls] = (await apiBatches()).at(-1)!;
        const last = (pulls as number[])[0]!;
        await page.locator(`li.pull[data-number="${last}"]`).getByRole('button', { name: `Dequeue #${last}` }).click();
        await until(async () => (await t.request('GET', `${QUEUE}/pull/${last}`)).status, 404, 'dequeued through the API');
        await until(() => shownBatches(page), await apiBatches(), 'the page shows the queue without it');

        await page.getByLabel('Pause reason').fill('release <b>freeze</b>');
        await page.getByRole('button', { name: 'Pause the queue' }).click();
        await page.locator('.paused').getByText('release <b>freeze</b>').waitFor();
        const paused = (await t.request('GET', `${QUEUE}/pause`)).json;
        assert.equal(paused.reason ?? paused.pause?.reason, 'release <b>freeze</b>');
        await page.getByRole('button', { name: 'Unpause' }).click();
        await page.getByRole('button', { name: 'Pause the queue' }).waitFor();
        assert.deepEqual(watched.troubles, []);
      });
    });
  }
});
