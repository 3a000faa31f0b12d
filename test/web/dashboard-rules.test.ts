// The dashboard's view of the rules engine in headless Chromium, on each backend, against the real
// engine: a configuration file on the fake platform's default branch, a pull request opened and
// labelled there, its evaluation made from webhooks. The rules page shows each rule and its
// conditions exactly as GET …/pulls/{n}/rules answers (true, false and pending told apart, rules
// that cannot apply folded, disabled ones struck through with the reason); the settings page shows
// the file's report, a broken file's errors with their locations and lines while the last good
// file stays in force, and "Refresh" (refused, with the API's reason, to a token that may only
// read). Rule names and keys written to attack the page stay text. axe-core finds nothing serious.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createKey, FULL_NAME, OWNER, REPOSITORY } from '../support/dashboard-world.ts';
import { assertAccessible, launchBrowser, screenshot, signIn, skipWithoutChromium, watchedPage, type WatchedPage } from '../support/dashboard-browser.ts';
import { checkRunWhen, readerToken, registerWithProducts } from '../support/automation-world.ts';
import { until } from '../support/merge-queue-e2e.ts';

const HOSTILE = '<img src=x onerror="window.__pwned = 1">';

const CONFIG = `
pull_request_rules:
  - name: docs
    conditions:
      - files~=^docs/
      - -draft
    actions:
      label:
        add: [documentation]
  - name: ready to merge
    conditions:
      - label=ready
      - or:
          - check-success=ci/test
          - label=skip-ci
    actions:
      comment:
        message: ready
  - name: release branch only
    conditions:
      - base=release
    actions:
      comment:
        message: release
  - name: '${HOSTILE}'
    conditions:
      - title~=<b>
    actions:
      comment:
        message: hi
  - name: reviews decide
    conditions:
      - github-review-decision=approved
    actions:
      comment:
        message: approved
`;

/** Broken twice: a value of the wrong kind (line 3) and a key that is markup. */
const BROKEN = `queue_rules:\n  - name: default\n    batch_size: many\n'${HOSTILE}': 1\n`;

interface Node {
  state: string;
  label: string;
  subconditions: Node[];
}
interface ApiRule {
  name: string;
  match: string;
  applicable: boolean;
  disabled_reason: string | null;
  conditions: Node | null;
}

/** The checklist lines of a rule as the page should list them: a rule's own "all of" is not a line. */
function checklist(rule: ApiRule): string[] {
  if (!rule.conditions) return [];
  const top = rule.conditions.label === 'all of' ? rule.conditions.subconditions : [rule.conditions];
  const lines = (node: Node): string[] => [`${node.state} ${node.label}`, ...node.subconditions.flatMap(lines)];
  return top.flatMap(lines);
}

/** Each rule the page lists: its name (as text), group and checklist lines. */
const shownRules = (page: Page) =>
  page.locator('li.rule').evaluateAll((items) =>
    items.map((item) => {
      const group = item.closest('details') ? 'cannot apply' : item.closest('section')?.querySelector('h3')?.textContent?.replace(/ \(\d+\)$/, '') ?? '';
      const lines = [...item.querySelectorAll('li.condition')].map((line) => {
        const label = line.querySelector(':scope > code.label')?.textContent ?? line.querySelector(':scope > .group')?.textContent?.replace(/:$/, '') ?? '';
        return `${(line as HTMLElement).dataset.state} ${label}`;
      });
      return { name: item.querySelector('.name')?.textContent ?? '', group, lines, struck: item.querySelector('s') !== null };
    }),
  );

describe('the dashboard: configuration file and a pull request\'s rules', { skip: skipWithoutChromium }, async () => {
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
      let number: bigint;
      let reader: string;
      const dialogs: string[] = [];

      before(async () => {
        t = await startTestApp(backend, undefined, { rules: { owner: OWNER } });
        await t.hosting.createRepository({ owner: OWNER, name: REPOSITORY, files: { 'README.md': 'widgets\n', '.mergify.yml': CONFIG } });
        t.hosting.ci.configure({ delayMs: 60_000, branches: (branch) => branch.startsWith('feature'), checks: [{ name: 'ci/test', hang: 'pending' }] });
        reader = readerToken(t, FULL_NAME);
        await registerWithProducts(t, FULL_NAME, ['workflow_automation']);
        const pull = await t.hosting.openPullRequest({ repo: FULL_NAME, changes: { 'docs/guide.md': 'hello\n' }, title: 'Docs <b>now</b>' });
        number = pull.number;
        await t.hosting.addLabels(FULL_NAME, number, ['ready']);
        await checkRunWhen(t, reader, FULL_NAME, pull.headSha, 'Switchyard / Summary', (run) => /\[X\] `label=ready`/.test(run.output.summary ?? ''));
        const { key } = await createKey(t);
        watched = await watchedPage(browser, t.baseUrl);
        page = watched.page;
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        await signIn(page, t.baseUrl, FULL_NAME, key);
      });
      after(async () => {
        await page?.context().close();
        await t?.close();
      });

      test('a pull request\'s rules, as the API answers them: grouped as the Summary groups them, each condition true, false or pending', async () => {
        await page.getByRole('navigation', { name: 'Repository' }).getByRole('link', { name: 'Rules' }).click();
        await page.getByLabel('Pull request number').fill(`#${number}`);
        await page.getByRole('button', { name: 'Show its rules' }).click();
        await page.waitForURL(new RegExp(`/rules\\?pull=${number}$`));
        await page.locator('li.rule').first().waitFor();
        const answer = await t.request('GET', `/v1/repos/${FULL_NAME}/pulls/${number}/rules`);
        assert.equal(answer.status, 200, answer.text);
        const group = (rule: ApiRule) => (rule.disabled_reason !== null ? 'Disabled rules' : rule.match === 'true' ? 'Rules that match' : rule.applicable ? 'Rules that potentially match' : 'cannot apply');
        const order = ['Rules that match', 'Rules that potentially match', 'cannot apply', 'Disabled rules'];
        const expected = (answer.json.rules as ApiRule[])
          .map((rule) => ({ name: rule.name, group: group(rule), lines: checklist(rule), struck: rule.disabled_reason !== null }))
          .sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
        assert.deepEqual(await shownRules(page), expected);
        assert.equal(await page.locator('.summary-title').innerText(), answer.json.title);

        // What the file says, the page says: pending is not failed, the hostile name is its own text.
        const ready = expected.find((rule) => rule.name === 'ready to merge')!;
        assert.deepEqual(ready.lines, ['true label=ready', 'pending any of', 'pending check-success=ci/test', 'false label=skip-ci']);
        assert.deepEqual(expected.map((rule) => rule.name).sort(), [HOSTILE, 'docs', 'ready to merge', 'release branch only', 'reviews decide'].sort());
        assert.equal(await page.locator('.rules-page img').count(), 0, 'no element made from a rule name');
        assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
        await page.locator('li.rule.disabled .reason').getByText(/github-review-decision/).waitFor();

        // Rules that cannot apply are folded until opened.
        const folded = page.locator('details.out-of-scope li.rule');
        assert.equal(await folded.isVisible(), false);
        await page.getByText('Rules that cannot apply to this pull request (1)').click();
        await folded.getByText('release branch only').waitFor();
        await assertAccessible(page, 'a pull request\'s rules');
      });

      test('the page follows a new evaluation when read again, and says when there is none', async () => {
        await t.hosting.addLabels(FULL_NAME, number, ['skip-ci']);
        await until('the new evaluation', async () => (await t.request('GET', `/v1/repos/${FULL_NAME}/pulls/${number}/rules`)).json.title.startsWith('3 rules match'));
        await page.reload();
        const ready = page.locator('li.rule[data-name="ready to merge"]');
        assert.equal(await ready.getAttribute('data-match'), 'true');
        assert.deepEqual(await ready.locator('li.condition').evaluateAll((lines) => lines.map((line) => (line as HTMLElement).dataset.state)), ['true', 'true', 'pending', 'true']);

        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/rules?pull=424242`);
        await page.getByText('The rules engine has not evaluated pull request #424242.').waitFor();
        await assertAccessible(page, 'a pull request never evaluated');
      });

      test('settings: a broken file\'s errors with their locations and lines, the last good file in force, read again with "Refresh"', async () => {
        const good = (await t.request('GET', `/v1/repos/${FULL_NAME}/configuration`)).json;
        await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/settings`);
        const report = page.locator('.configuration-report');
        await report.getByText('✓ valid').waitFor();
        assert.match(await report.innerText(), new RegExp(`${good.source.sha}[\\s\\S]*the file last read`));
        assert.deepEqual(await page.locator('ul.not-supported li').allInnerTexts(), good.not_supported, 'the keys that do nothing here');

        await t.hosting.push({ repo: FULL_NAME, branch: 'main', changes: { '.mergify.yml': BROKEN } });
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.getByText('Read again just now.').waitFor();
        await report.getByText('✗ not valid').waitFor();
        const broken = (await t.request('GET', `/v1/repos/${FULL_NAME}/configuration`)).json;
        assert.equal(broken.valid, false);
        assert.deepEqual(broken.in_force, good.source, 'the last good file stays in force');
        const errors = await page.locator('ul.config-errors li').evaluateAll((items) => items.map((item) => [item.querySelector('.loc')?.textContent, item.querySelector('.line')?.textContent ?? null, item.querySelector('.msg')?.textContent]));
        const locationText = (loc: (string | number)[]) => loc.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
        assert.deepEqual(errors, broken.errors.map((error: { loc: (string | number)[]; line?: number; msg: string }) => [locationText(error.loc), error.line ? `line ${error.line}` : null, error.msg]));
        assert.ok(errors.some(([loc, line]) => loc === 'queue_rules[0].batch_size' && line === 'line 3'), JSON.stringify(errors));
        assert.ok(errors.some(([loc]) => loc === HOSTILE), `the hostile key is named as text: ${JSON.stringify(errors)}`);
        assert.match(await report.innerText(), new RegExp(`${broken.source.sha}[\\s\\S]*${good.source.sha}[\\s\\S]*the last good file`));
        assert.equal(await page.locator('.settings-page img').count(), 0, 'no element made from a key');
        await assertAccessible(page, 'settings with a broken configuration file');
      });

      test('"Refresh" with a token that may only read: the API\'s refusal, shown', async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const other = await context.newPage();
        try {
          await signIn(other, t.baseUrl, FULL_NAME, reader);
          await other.goto(`${t.baseUrl}/repos/${FULL_NAME}/settings`);
          await other.locator('.configuration-report').waitFor();
          await other.getByRole('button', { name: 'Refresh' }).click();
          await other.locator('.configuration-file .problem[data-kind="rights"]').getByText('The credential has no rights on this owner or repository.').waitFor();
          await assertAccessible(other, 'a refused refresh');
        } finally {
          await context.close();
        }
      });

      test('at 1280 and 390 px nothing is wider than the page, and nothing was refused or run from elsewhere', async (context) => {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          for (const [name, path] of [['rules', `rules?pull=${number}`], ['settings-configuration', 'settings']] as const) {
            await page.goto(`${t.baseUrl}/repos/${FULL_NAME}/${path}`);
            await page.locator(name === 'rules' ? 'li.rule' : '.configuration-report').first().waitFor();
            assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, `${name}: nothing wider than ${width} px`);
            if (backend === 'pglite') context.diagnostic(`screenshot: ${await screenshot(page, `${name}-${width}`)}`);
          }
        }
        await page.setViewportSize({ width: 1280, height: 900 });
        assert.deepEqual(watched.troubles, []);
        assert.deepEqual(dialogs, []);
      });
    });
  }
});
