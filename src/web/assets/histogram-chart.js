// The histogram of the window, drawn by uPlot as bars stacked by outcome (totals alone until the
// breakdown arrives). Dragging across it picks a window, widened to whole buckets. Beside the
// canvas, the same counts as a table for screen readers and for zooming from the keyboard.
import { useLayoutEffect, useRef } from './preact-hooks.js';
import uPlot from './uplot.js';
import { html } from './html.js';
import { count, utc } from './format.js';

/** Bottom to top; failures at the bottom, where they are easiest to see. */
export const STACK = ['failure', 'pending', 'success', 'neutral'];
export const OUTCOME_COLOURS = { failure: '#cf222e', pending: '#bf8700', success: '#1a7f37', neutral: '#8c959f', total: '#0969da' };

/** uPlot draws series in order: the tallest running sum first, each smaller one over it. */
function stackedSeries(totals, stacked) {
  if (!stacked) return [{ label: 'events', values: totals, colour: OUTCOME_COLOURS.total }];
  const layers = [];
  let running = totals.map(() => 0);
  for (const outcome of STACK) {
    if (!stacked[outcome]) continue;
    running = running.map((n, i) => n + stacked[outcome][i]);
    layers.push({ label: outcome, values: running, colour: OUTCOME_COLOURS[outcome] });
  }
  return layers.reverse();
}

function chartOptions(width, layers, xRange, onPick) {
  const bars = uPlot.paths.bars({ size: [0.92, Infinity], align: 1 });
  return {
    width,
    height: 200,
    legend: { show: false },
    cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
    select: { show: true },
    scales: { x: { time: true, range: () => xRange }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [{ stroke: '#57606a', grid: { show: false } }, { stroke: '#57606a', size: 50, grid: { stroke: '#eaeef2' } }],
    series: [{}, ...layers.map((layer) => ({ label: layer.label, fill: layer.colour, stroke: layer.colour, width: 0, paths: bars, points: { show: false } }))],
    hooks: {
      setSelect: [
        (u) => {
          if (u.select.width < 3) return;
          const from = u.posToVal(u.select.left, 'x');
          const to = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          onPick(from * 1000, to * 1000);
        },
      ],
    },
  };
}

export function HistogramChart({ aggregate, stacked, onPick }) {
  const box = useRef(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const buckets = aggregate.histogram;
  // Drawn as the page is committed, so the chart is in the same frame as the total and the table
  // (an effect would wait for the next frame and a timer; bench/RESULTS.md, first meaningful paint).
  useLayoutEffect(() => {
    if (buckets.length === 0) return undefined;
    const xs = buckets.map((bucket) => new Date(bucket.start).getTime() / 1000);
    const xRange = [xs[0], new Date(buckets[buckets.length - 1].end).getTime() / 1000];
    const layers = stackedSeries(buckets.map((bucket) => bucket.count), stacked);
    const width = Math.max(200, box.current.clientWidth);
    const chart = new uPlot(chartOptions(width, layers, xRange, (from, to) => pick.current(from, to)), [xs, ...layers.map((layer) => layer.values)], box.current);
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(200, box.current.clientWidth), height: 200 }));
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [buckets, stacked]);
  const shown = stacked ? STACK.filter((outcome) => stacked[outcome]) : [];
  return html`<figure class="histogram" data-stacked=${stacked ? 'true' : 'false'}>
    <div class="chart" ref=${box} role="img" aria-label=${`Histogram of ${count(aggregate.total)} events in ${buckets.length} buckets of ${aggregate.interval_size_seconds} s; drag across it to pick a window. The counts are in the table below.`}></div>
    <figcaption class="legend">
      ${stacked ? shown.map((outcome) => html`<span class="key"><span class="swatch" style=${{ background: OUTCOME_COLOURS[outcome] }}></span>${outcome}</span>`) : html`<span class="key"><span class="swatch" style=${{ background: OUTCOME_COLOURS.total }}></span>events (by outcome: loading)</span>`}
      <span class="hint">Drag across the chart to pick a window.</span>
    </figcaption>
    <${BucketTable} buckets=${buckets} stacked=${stacked} outcomes=${shown} onPick=${onPick} step=${aggregate.interval_size_seconds} />
  </figure>`;
}

function BucketTable({ buckets, stacked, outcomes, onPick, step }) {
  const rows = buckets.map((bucket, index) => ({ bucket, index })).filter(({ bucket }) => bucket.count > 0);
  return html`<details class="buckets">
    <summary>The histogram as a table (${rows.length} buckets with events)</summary>
    <div class="scroll" tabindex="0" role="region" aria-label="Histogram buckets">
    <table>
      <thead><tr><th scope="col">From (UTC)</th><th scope="col">Events</th>${outcomes.map((outcome) => html`<th scope="col">${outcome}</th>`)}<th scope="col"><span class="visually-hidden">Zoom</span></th></tr></thead>
      <tbody>
        ${rows.map(({ bucket, index }) => html`<tr data-start=${bucket.start}>
          <td>${utc(bucket.start)}</td><td class="number">${count(bucket.count)}</td>
          ${outcomes.map((outcome) => html`<td class="number">${count(stacked[outcome][index])}</td>`)}
          <td><button type="button" class="link" onClick=${() => onPick(new Date(bucket.start).getTime(), new Date(bucket.end).getTime())} aria-label=${`Zoom to the ${step} s from ${utc(bucket.start)}`}>Zoom</button></td>
        </tr>`)}
      </tbody>
    </table></div>
  </details>`;
}
