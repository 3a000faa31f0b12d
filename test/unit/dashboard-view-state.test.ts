// The dashboard's view in its URL (src/web/assets/view-state.js): a shared address opens the same
// view, a facet click takes one side of the API's pairs, and a picked range is whole buckets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// @ts-expect-error: a browser module, plain JavaScript without declarations
import * as view from '../../src/web/assets/view-state.js';

test('a view survives its own URL, and the API query holds its filters and explicit bounds only', () => {
  const search = 'outcome=failure&not_event_type=action.label&not_event_type=action.merge&since=7d&cursor=abc&event=12';
  const parsed = view.parseView(search);
  assert.deepEqual(parsed.filters, { outcome: ['failure'], not_event_type: ['action.label', 'action.merge'] });
  assert.deepEqual(parsed.window, { since: '7d' });
  assert.deepEqual(view.parseView(view.viewSearch(parsed)), parsed);
  assert.equal(view.filterQuery(parsed).toString(), 'not_event_type=action.label&not_event_type=action.merge&outcome=failure');
  const picked = view.parseView('received_from=2026-01-01T00%3A00%3A00.000Z&received_to=2026-01-01T06%3A00%3A00.000Z');
  assert.equal(view.filterQuery(picked).get('received_to'), '2026-01-01T06:00:00.000Z');
  assert.deepEqual(view.parseView('since=13d').window, { since: '24h' }, 'an unknown preset falls back to the default');
});

test('a facet click toggles one side of a pair, drops the other side and the page', () => {
  let current = view.parseView('outcome=failure&cursor=abc');
  current = view.toggleFacet(current, 'outcome', 'success', 'exclude');
  assert.deepEqual(current.filters, { not_outcome: ['success'] });
  assert.equal(current.cursor, null);
  assert.equal(view.facetState(current, 'outcome', 'success'), 'exclude');
  current = view.toggleFacet(current, 'outcome', 'success', 'exclude');
  assert.deepEqual(current.filters, {});
  current = view.toggleFacet(view.toggleFacet(current, 'pull_request', '7', 'include'), 'pull_request', '9', 'include');
  assert.deepEqual(view.removeFilter(current, 'pull_request', '7').filters, { pull_request: ['9'] });
});

test('a range picked on the chart is widened to whole buckets, never empty', () => {
  const at = Date.UTC(2026, 0, 1, 10, 0, 0);
  assert.deepEqual(view.pickedWindow(at + 100_000, at + 1_900_000, 600), { from: '2026-01-01T10:00:00.000Z', to: '2026-01-01T10:40:00.000Z' });
  assert.deepEqual(view.pickedWindow(at, at, 600), { from: '2026-01-01T10:00:00.000Z', to: '2026-01-01T10:10:00.000Z' });
});
