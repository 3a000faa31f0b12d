// First meaningful paint of the dashboard's activity log (issue 19) over a window of 1,000,000
// events: from navigation to the moment the total, the histogram and the first page of events
// are on screen, in Debian's headless Chromium against Switchyard in this process, so the
// aggregate's own time is inside the figure. Also: when the stacked-by-outcome breakdown
// (one filtered aggregate per outcome but the largest, a scan each) has replaced the totals.
// Target: first meaningful paint under 1.5 s.
//
//   npx tsx bench/dashboard-paint.ts [--backend postgres|pglite|both] [--events 1000000] [--runs 5]
import { parseArgs } from 'node:util';
import type { Backend } from '../src/storage/store.ts';
import { launchBrowser } from '../test/support/dashboard-browser.ts';
import { loadActivityLog } from './activity-log-data.ts';
import { BENCH_TOKEN, openBenchStore, startBenchApp } from './bench-store.ts';
import { percentile } from './latency.ts';

const { values: args } = parseArgs({ options: { backend: { type: 'string', default: 'both' }, events: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '5' } } });
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const TARGET_MS = 1500;

interface Paint {
  meaningful: number;
  stacked: number;
}

async function paintOnce(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string): Promise<Paint> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((token) => sessionStorage.setItem('switchyard.token', token), BENCH_TOKEN);
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'commit' });
    // Total shown, chart drawn (uPlot's canvas has its size), first page of events in the table.
    // The instant is taken in the page, at the first frame that shows all three.
    const painted = await page.waitForFunction(() => document.querySelector('[data-total]') && document.querySelector('.u-over canvas, .u-wrap canvas') && document.querySelector('tr.event') && performance.now(), null, { timeout: 60_000, polling: 'raf' });
    const meaningful = (await painted.jsonValue()) as number;
    if (process.env.PAINT_TIMINGS) console.log(await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => `${entry.name.replace(location.origin, '').slice(0, 60)} ${entry.startTime.toFixed(0)}→${(entry as PerformanceResourceTiming).responseEnd.toFixed(0)}`).join('\n')));
    const stackedAt = await page.waitForFunction(() => document.querySelector('figure.histogram[data-stacked="true"]') && performance.now(), null, { timeout: 120_000, polling: 'raf' });
    const stacked = (await stackedAt.jsonValue()) as number;
    return { meaningful, stacked };
  } finally {
    await context.close();
  }
}

async function benchBackend(backend: Backend, browser: Awaited<ReturnType<typeof launchBrowser>>): Promise<string> {
  const { store, dispose } = await openBenchStore(backend);
  try {
    const started = Date.now();
    const loaded = await loadActivityLog(store, { events: EVENTS, elsewhere: EVENTS }, Date.now());
    const loadSeconds = (Date.now() - started) / 1000;
    const { app, baseUrl } = await startBenchApp(store);
    try {
      const window = new URLSearchParams({ received_from: new Date(loaded.start - 30_000).toISOString(), received_to: new Date(loaded.end + 30_000).toISOString() });
      const url = `${baseUrl}/repos/bench/busy/logs?${window}`;
      await paintOnce(browser, url); // warm the server's caches and the browser's module cache
      const paints: Paint[] = [];
      for (let i = 0; i < RUNS; i++) paints.push(await paintOnce(browser, url));
      const meaningful = percentile(paints.map((paint) => paint.meaningful), 50);
      const stacked = percentile(paints.map((paint) => paint.stacked), 50);
      const worst = Math.max(...paints.map((paint) => paint.meaningful));
      return `| ${backend} | ${EVENTS.toLocaleString('en-US')} | ${meaningful.toFixed(0)} ms (worst ${worst.toFixed(0)}) | ${stacked.toFixed(0)} ms | ${meaningful < TARGET_MS ? 'met' : 'missed'} (< ${TARGET_MS} ms) | load ${loadSeconds.toFixed(0)} s |`;
    } finally {
      await app.close();
    }
  } finally {
    await dispose();
  }
}

const backends: Backend[] = args.backend === 'both' ? ['postgres', 'pglite'] : [args.backend as Backend];
const browser = await launchBrowser();
const rows: string[] = [];
try {
  for (const backend of backends) rows.push(await benchBackend(backend, browser));
} finally {
  await browser.close();
}
console.log('| backend | events in the window | first meaningful paint (median) | stacked by outcome (median) | verdict | |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
