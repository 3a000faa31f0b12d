// Headless Chromium on the dashboard, for test/web/: one browser per test file, pages that record
// what should never happen (a script error, a request to another host, a refused resource), the
// sign-in as a person does it, axe-core's audit, and the screenshots of docs/dashboard.md.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const skipWithoutChromium = !existsSync(CHROMIUM) && !process.env.CI && `no ${CHROMIUM}: .ci/run installs it`;

/** UPDATE_DOCS_SCREENSHOT=1 writes the screenshots into docs/dashboard/, else into a temporary folder. */
const SHOTS = process.env.UPDATE_DOCS_SCREENSHOT === '1' ? new URL('../../docs/dashboard/', import.meta.url).pathname : tmpdir();

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

export interface WatchedPage {
  page: Page;
  /** Script errors, CSP refusals and requests to another host seen so far. */
  troubles: string[];
}

export async function watchedPage(browser: Browser, baseUrl: string, width = 1280): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const troubles: string[] = [];
  page.on('pageerror', (error) => troubles.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) troubles.push(`CSP: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) troubles.push(`request elsewhere: ${request.url()}`);
  });
  return { page, troubles };
}

export async function signIn(page: Page, baseUrl: string, repository: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Repository').fill(repository);
  await page.getByLabel('Key or token').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/logs/);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core run inside the page (through the debugger, which the page's CSP does not govern). */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  // A string is evaluated as a script by the debugger: no eval() inside the page, which CSP forbids.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.slice(0, 3).map((node) => JSON.stringify(node.target)) }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  assert.deepEqual(serious, [], `${what}: serious or critical accessibility violations`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SHOTS, process.env.UPDATE_DOCS_SCREENSHOT === '1' ? `${name}.png` : `switchyard-${name}-${process.pid}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
