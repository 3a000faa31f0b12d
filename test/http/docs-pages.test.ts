// /docs as a person reads it (issue 17): the reference is titled Switchyard, links the raw
// document and the guides of docs/ (served as rendered pages), loads nothing from another host,
// and, drawn by headless Chromium, shows every answer of an operation with its description.
// The screenshot goes to a temporary file; UPDATE_DOCS_SCREENSHOT=1 refreshes docs/api-reference.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { loadServedDocument } from '../fuzz/openapi-operations.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const DOCS = new URL('../../docs/', import.meta.url);
const SCREENSHOT = process.env.UPDATE_DOCS_SCREENSHOT === '1' ? new URL('api-reference.png', DOCS).pathname : join(tmpdir(), `switchyard-api-reference-${process.pid}.png`);
/** The operation drawn open in the screenshot: near the top, so the title shows above it. */
const SHOWN = { tag: 'scopes', operationId: 'get_commit_scopes', path: '/repos/{owner}/{repository}/commits/{sha}/scopes', method: 'get' };

const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);

describe('the HTML reference and the guides', () => {
  let t: TestApp;
  let slugs: string[];

  before(async () => {
    t = await startTestApp('pglite');
    slugs = (await readdir(DOCS)).filter((name) => name.endsWith('.md')).map((name) => name.slice(0, -3));
  });
  after(() => t.close());

  test('/docs is titled Switchyard, links the raw document and every guide, and allows no other host', async () => {
    for (const path of ['/docs', '/docs/']) {
      const response = await fetch(`${t.baseUrl}${path}`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.match(policy, /default-src 'none'/);
      for (const directive of policy.split(';')) assert.doesNotMatch(directive, /https?:|\*/, `${directive}: this origin only`);
      const html = await response.text();
      assert.match(html, /<title>Switchyard API reference<\/title>/);
      const links = hrefs(html);
      assert.ok(links.includes('/v1/openapi.json'), 'the raw document is linked');
      for (const slug of slugs) assert.ok(links.includes(`/docs/guides/${slug}`), `guide ${slug} is linked`);
      for (const link of [...links, ...[...html.matchAll(/src="([^"]+)"/g)].map((match) => match[1]!)]) assert.match(link, /^(\/|data:)/, `${link} is on this host`);
    }
  });

  test('every guide of docs/ is a rendered page whose links to other guides and their headings land', async () => {
    const pages = new Map<string, string>();
    for (const slug of slugs) {
      const response = await fetch(`${t.baseUrl}/docs/guides/${slug}`);
      assert.equal(response.status, 200, slug);
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const html = await response.text();
      assert.match(html, /<h1 id="[^"]+">/, `${slug}: the Markdown is rendered`);
      assert.doesNotMatch(html, /href="[\w-]+\.md(#[^"]*)?"/, `${slug}: links to guides point to their pages`);
      pages.set(slug, html);
    }
    for (const [slug, html] of pages) {
      for (const link of hrefs(html).filter((href) => href.startsWith('/docs/guides/'))) {
        const [path, anchor] = link.split('#');
        const target = pages.get(path!.slice('/docs/guides/'.length));
        assert.ok(target, `${slug}: ${link} is a guide`);
        if (anchor) assert.ok(target.includes(`id="${anchor}"`), `${slug}: ${link} has its heading`);
      }
    }
    const unknown = await fetch(`${t.baseUrl}/docs/guides/no-such-guide`);
    assert.equal(unknown.status, 404);
    assert.match((await unknown.json()).detail, /no-such-guide/);
  });

  test('the document links the guides and the raw document in its introduction and tags', async () => {
    const { document } = await loadServedDocument(t.baseUrl);
    const text = JSON.stringify(document);
    for (const [, slug] of text.matchAll(/\]\(\/docs\/guides\/([\w-]+)\)/g)) assert.ok(slugs.includes(slug!), `the document links guide ${slug}, which exists`);
    assert.match((document.info as { description: string }).description, /\(\/v1\/openapi\.json\)/);
  });

  test('drawn by headless Chromium, the reference shows its title and the description of every answer, from this host only', { skip: !existsSync(CHROMIUM) && !process.env.CI && `no ${CHROMIUM}: .ci/run installs it` }, async (context) => {
    const { document } = await loadServedDocument(t.baseUrl);
    const responses = (document.paths as Record<string, Record<string, { responses: Record<string, { description: string }> }>>)[SHOWN.path]![SHOWN.method]!.responses;
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const elsewhere: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(t.baseUrl) && !request.url().startsWith('data:')) elsewhere.push(request.url());
      });
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${t.baseUrl}/docs`);
      await page.locator('.info .title').waitFor({ timeout: 60_000 });
      assert.equal(await page.title(), 'Switchyard API reference');
      assert.match(await page.locator('.info .title').innerText(), /^Switchyard API/);
      assert.equal(await page.locator('header.site a[href="/v1/openapi.json"]').count(), 1);

      const operation = page.locator(`#operations-${SHOWN.tag}-${SHOWN.operationId}`);
      await operation.locator('.opblock-summary-control').click();
      await operation.locator('.responses-table').waitFor({ timeout: 60_000 });
      const rows = operation.locator('.responses-table > tbody > tr.response');
      const shown = new Map<string, string>();
      for (const row of await rows.all()) shown.set((await row.locator('.response-col_status').innerText()).trim(), (await row.locator('.response-col_description .markdown, .response-col_description .renderedMarkdown').first().innerText()).trim());
      assert.deepEqual([...shown.keys()].sort(), Object.keys(responses).sort(), 'every documented answer is shown');
      for (const [status, { description }] of Object.entries(responses)) {
        assert.equal(shown.get(status)?.replace(/\s+/g, ' '), description.replace(/`/g, '').replace(/\s+/g, ' '), `${status} is described`);
      }
      assert.equal(await page.getByText('Default Response').count(), 0);

      const box = (await operation.boundingBox())!;
      await page.screenshot({ path: SCREENSHOT, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.ceil(box.y + box.height + 16) } });
      context.diagnostic(`screenshot: ${SCREENSHOT}`);
      assert.deepEqual(elsewhere, [], 'requests to another host');
      assert.deepEqual(problems, [], 'errors in the page (a refused resource shows here)');
    } finally {
      await browser?.close();
    }
  });
});
