// The batches of a merge queue as a graph: one lane per scope, batches in queue order from left
// to right, an edge from each parent to its child, coloured by status. A barrier (every scope)
// spans every lane. Drawn as SVG by Preact, so names and scopes are text, never markup.
import { html } from './html.js';

export const STATUS = {
  running: ['CI running', '#0969da'],
  bisecting: ['Bisecting', '#8250df'],
  preparing: ['Preparing', '#57606a'],
  failed: ['Failed', '#cf222e'],
  merged: ['Merged', '#1a7f37'],
  waiting_for_merge: ['Waiting to merge', '#116329'],
  waiting_for_previous_batches: ['Waiting on a previous batch', '#9a6700'],
  waiting_for_requeue: ['Requeuing', '#9a6700'],
  waiting_schedule: ['Waiting for schedule', '#7d4e00'],
  waiting_for_batch: ['Filling batch', '#57606a'],
  waiting_for_checks_slot: ['Waiting for a CI slot', '#57606a'],
  frozen: ['Frozen', '#0a3069'],
};

const COLUMN = 150;
const LANE = 54;
const BOX = { width: 118, height: 38 };
const LEFT = 110;

export function lanesOf(batches) {
  const scopes = [...new Set(batches.flatMap((batch) => (batch.all_scopes ? [] : batch.scopes)))].sort();
  return scopes.length > 0 ? scopes : ['queue'];
}

function boxesOf(batch, column, lanes) {
  const spans = batch.all_scopes || batch.scopes.length === 0 ? lanes : batch.scopes;
  const rows = spans.map((scope) => lanes.indexOf(scope)).filter((row) => row >= 0);
  const top = Math.min(...rows);
  const bottom = Math.max(...rows);
  return { x: LEFT + column * COLUMN, y: top * LANE + 8, height: (bottom - top) * LANE + BOX.height, rows };
}

export function QueueGraph({ batches }) {
  if (batches.length === 0) return null;
  const lanes = lanesOf(batches);
  const placed = new Map(batches.map((batch, column) => [batch.id, boxesOf(batch, column, lanes)]));
  const width = LEFT + batches.length * COLUMN;
  const height = lanes.length * LANE + 8;
  return html`<div class="scroll graph" tabindex="0" role="region" aria-label="Batches by scope">
    <svg width=${width} height=${height} viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${`${batches.length} batches in ${lanes.length} scope lanes; the list below says the same`}>
      ${lanes.map((lane, row) => html`<g class="lane">
        <line x1="0" x2=${width} y1=${row * LANE + LANE - 4} y2=${row * LANE + LANE - 4} stroke="#d0d7de" />
        <text x="4" y=${row * LANE + 31} class="lane-name">${lane.length > 14 ? `${lane.slice(0, 13)}…` : lane}</text>
      </g>`)}
      ${batches.flatMap((batch) => batch.parent_ids.filter((id) => placed.has(id)).map((parentId) => {
        const from = placed.get(parentId);
        const to = placed.get(batch.id);
        return html`<path class="edge" d=${`M${from.x + BOX.width} ${from.y + 19} C${from.x + BOX.width + 20} ${from.y + 19}, ${to.x - 20} ${to.y + 19}, ${to.x} ${to.y + 19}`} fill="none" stroke="#57606a" stroke-width="1.5" marker-end="url(#arrow)" />`;
      }))}
      <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0 0 L10 5 L0 10 z" fill="#57606a" /></marker></defs>
      ${batches.map((batch) => {
        const box = placed.get(batch.id);
        const [label, colour] = STATUS[batch.status.code] ?? [batch.status.code, '#57606a'];
        const pulls = batch.pull_requests.map((pull) => `#${pull.number}`).join(' ');
        return html`<g class="batch" data-batch=${batch.id} data-status=${batch.status.code}>
          <rect x=${box.x} y=${box.y} width=${BOX.width} height=${box.height} rx="6" fill=${colour} />
          <text x=${box.x + 8} y=${box.y + 16} fill="#ffffff" class="batch-pulls">${pulls.length > 16 ? `${pulls.slice(0, 15)}…` : pulls}</text>
          <text x=${box.x + 8} y=${box.y + 31} fill="#ffffff" class="batch-status">${label.length > 17 ? `${label.slice(0, 16)}…` : label}</text>
        </g>`;
      })}
    </svg>
  </div>`;
}
