// First meaningful paint of the dashboard's activity log (issue 19) over a window of 1,000,000
// events: from navigation to the moment the total, the histogram and the first page of events
// are on screen, in Debian's headless Chromium against Switchyard in this process, so the
// aggregate's own time is inside the figure. Also: when the stacked-by-outcome breakdown
// (one filtered aggregate per outcome but the largest, a scan each) has replaced the totals.
// Target: first meaningful paint under 1.5 s. Each run is broken down by Resource Timing: when
// the shell and the last static asset arrived, when the aggregate and the first page were asked
// for and answered, and what rendering took after the last of them.
//
//   npx tsx bench/dashboard-paint.ts [--backend postgres|pglite|both] [--events 1000000] [--elsewhere N] [--runs 5] [--settle-ms 2000]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Backend } from '../src/storage/store.ts';
import { launchBrowser } from '../test/support/dashboard-browser.ts';
import { loadActivityLog } from './activity-log-data.ts';
import { BENCH_TOKEN, openBenchStore, startBenchApp } from './bench-store.ts';
import { percentile } from './latency.ts';

const { values: args } = parseArgs({ options: { backend: { type: 'string', default: 'both' }, events: { type: 'string', default: '1000000' }, elsewhere: { type: 'string' }, runs: { type: 'string', default: '5' }, 'settle-ms': { type: 'string', default: '2000' } } });
const EVENTS = Number(args.events);
/** Events outside the window (another repository, earlier days): as many as in it unless told. */
const ELSEWHERE = Number(args.elsewhere ?? args.events);
const RUNS = Number(args.runs);
/**
 * Time between opening a run's browser window and following the link. Chromium's new headless
 * mode loads a new window's own pages (its omnibox popup, over a hundred chrome:// modules) for
 * about a second, on the same two cores as the page; a person's window is open before they
 * follow a link. 0 measures from the window's opening.
 */
const SETTLE_MS = Number(args['settle-ms']);
const TARGET_MS = 1500;

/** Milliseconds from navigation, in the page's clock. */
interface Paint {
  meaningful: number;
  stacked: number;
  /** The HTML shell and the last static asset (modules, styles) received. */
  shellEnd: number;
  assetsEnd: number;
  /** The first aggregate and the first page of events: asked for, answered. */
  aggregateStart: number;
  aggregateEnd: number;
  pageStart: number;
  pageEnd: number;
}

/**
 * Resource Timing of the page at its first meaningful paint, as a Paint's fields. Source text run
 * in the page: a function would be serialized with the helpers tsx adds to named functions.
 */
const TIMINGS_IN_PAGE = `(() => {
  const resources = performance.getEntriesByType('resource');
  const path = (entry) => new URL(entry.name).pathname;
  const first = (test) => resources.filter((entry) => test(path(entry))).sort((a, b) => a.startTime - b.startTime)[0];
  const aggregate = first((name) => name.endsWith('/logs/aggregate'));
  const list = first((name) => name.endsWith('/logs'));
  return {
    shellEnd: performance.getEntriesByType('navigation')[0].responseEnd,
    assetsEnd: Math.max(...resources.filter((entry) => path(entry).startsWith('/dashboard/assets/')).map((entry) => entry.responseEnd)),
    aggregateStart: aggregate ? aggregate.startTime : NaN,
    aggregateEnd: aggregate ? aggregate.responseEnd : NaN,
    pageStart: list ? list.startTime : NaN,
    pageEnd: list ? list.responseEnd : NaN,
  };
})()`;

async function paintOnce(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string): Promise<Paint> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((token) => sessionStorage.setItem('switchyard.token', token), BENCH_TOKEN);
  const page = await context.newPage();
  await page.waitForTimeout(SETTLE_MS);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    // Total shown, chart drawn (uPlot's canvas has its size), first page of events in the table.
    // The instant is taken in the page, at the first frame that shows all three.
    const painted = await page.waitForFunction(() => document.querySelector('[data-total]') && document.querySelector('.u-over canvas, .u-wrap canvas') && document.querySelector('tr.event') && performance.now(), null, { timeout: 60_000, polling: 'raf' });
    const meaningful = (await painted.jsonValue()) as number;
    const timings = (await page.evaluate(TIMINGS_IN_PAGE)) as Omit<Paint, 'meaningful' | 'stacked'>;
    if (process.env.PAINT_TIMINGS) console.error(await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => `${entry.name.replace(location.origin, '').slice(0, 60)} ${entry.startTime.toFixed(0)}→${(entry as PerformanceResourceTiming).responseEnd.toFixed(0)}`).join('\n')));
    const stackedAt = await page.waitForFunction(() => document.querySelector('figure.histogram[data-stacked="true"]') && performance.now(), null, { timeout: 120_000, polling: 'raf' });
    const stacked = (await stackedAt.jsonValue()) as number;
    return { meaningful, stacked, ...timings };
  } finally {
    await context.close();
  }
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const median = (paints: Paint[], pick: (paint: Paint) => number) => percentile(paints.map(pick), 50);
const ms = (n: number) => n.toFixed(0);

interface BackendResult {
  row: string;
  breakdown: string;
}

function summarize(backend: Backend, paints: Paint[], loadSeconds: number, loadBefore: string): BackendResult {
  const meaningful = median(paints, (paint) => paint.meaningful);
  const worst = Math.max(...paints.map((paint) => paint.meaningful));
  const row = `| ${backend} | ${EVENTS.toLocaleString('en-US')} | ${ms(meaningful)} ms (worst ${ms(worst)}) | ${ms(median(paints, (paint) => paint.stacked))} ms | ${meaningful < TARGET_MS ? 'met' : 'missed'} (< ${TARGET_MS} ms) | ${loadBefore} | ${ms(loadSeconds)} s |`;
  const lastAnswer = (paint: Paint) => Math.max(paint.assetsEnd, paint.aggregateEnd, paint.pageEnd);
  const breakdown = `| ${backend} | ${ms(median(paints, (p) => p.shellEnd))} | ${ms(median(paints, (p) => p.assetsEnd))} | ${ms(median(paints, (p) => p.aggregateStart))} → ${ms(median(paints, (p) => p.aggregateEnd))} (${ms(median(paints, (p) => p.aggregateEnd - p.aggregateStart))}) | ${ms(median(paints, (p) => p.pageStart))} → ${ms(median(paints, (p) => p.pageEnd))} (${ms(median(paints, (p) => p.pageEnd - p.pageStart))}) | ${ms(median(paints, (p) => p.meaningful - lastAnswer(p)))} | ${ms(meaningful)} |`;
  return { row, breakdown };
}

async function benchBackend(backend: Backend, browser: Awaited<ReturnType<typeof launchBrowser>>): Promise<BackendResult> {
  const { store, dispose } = await openBenchStore(backend);
  try {
    const started = Date.now();
    const loaded = await loadActivityLog(store, { events: EVENTS, elsewhere: ELSEWHERE }, Date.now());
    const loadSeconds = (Date.now() - started) / 1000;
    console.error(`${backend}: ${EVENTS} events in the window and ${ELSEWHERE} elsewhere loaded in ${ms(loadSeconds)} s`);
    const { app, baseUrl } = await startBenchApp(store);
    try {
      const window = new URLSearchParams({ received_from: new Date(loaded.start - 30_000).toISOString(), received_to: new Date(loaded.end + 30_000).toISOString() });
      const url = `${baseUrl}/repos/bench/busy/logs?${window}`;
      // Warms the server's caches and plans; every run's browser context starts with an empty
      // cache, as a first visit does.
      await paintOnce(browser, url);
      const loadBefore = load();
      const paints: Paint[] = [];
      for (let i = 0; i < RUNS; i++) {
        paints.push(await paintOnce(browser, url));
        console.error(`${backend} run ${i + 1}: ${JSON.stringify(paints.at(-1), (_key, value: unknown) => (typeof value === 'number' ? Math.round(value) : value))} load ${load()}`);
      }
      return summarize(backend, paints, loadSeconds, loadBefore);
    } finally {
      await app.close();
    }
  } finally {
    await dispose();
  }
}

const backends: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
const browser = await launchBrowser();
const results: BackendResult[] = [];
try {
  for (const backend of backends) results.push(await benchBackend(backend, browser));
} finally {
  await browser.close();
}
console.log(`first meaningful paint, median of ${RUNS} after one warm-up, each in a new browser window opened ${SETTLE_MS} ms before; load average (1, 5, 15 min) before the measured runs`);
console.log('| backend | events in the window | first meaningful paint (median) | stacked by outcome (median) | verdict | load average | loading |');
console.log('|---|---|---|---|---|---|---|');
for (const result of results) console.log(result.row);
console.log('\nmedians, ms from navigation (Resource Timing); "render" is paint minus the last answer it needed');
console.log('| backend | shell received | static assets received | aggregate asked → answered (took) | first page asked → answered (took) | render | paint |');
console.log('|---|---|---|---|---|---|---|');
for (const result of results) console.log(result.breakdown);
