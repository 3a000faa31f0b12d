// The activity-log view as it stands in the page's URL, so a view can be shared: the filters
// (named as the API names them), the window (a preset or two bounds), the page's cursor and the
// opened event. Pure: no DOM, no fetch; test/unit/dashboard-view-state.test.ts runs it in Node.

/** The facets of the aggregate, each with the filter pair a click on one of its values sets. */
export const FACETS = [
  { param: 'event_type', label: 'Event type', field: 'by_event_type' },
  { param: 'outcome', label: 'Outcome', field: 'by_outcome' },
  { param: 'trigger', label: 'Trigger', field: 'by_trigger' },
  { param: 'pull_request', label: 'Pull request', field: 'by_pull_request' },
  { param: 'batch_pull', label: 'Batch pull request', field: 'by_batch_pull_request' },
];

export const OUTCOMES = ['success', 'failure', 'pending', 'neutral'];

/** Time presets, in seconds; the API allows at most 93 days. */
export const PRESETS = { '1h': 3600, '6h': 6 * 3600, '24h': 86400, '7d': 7 * 86400, '30d': 30 * 86400, '90d': 90 * 86400 };
export const DEFAULT_PRESET = '24h';

const FILTER_PARAMS = FACETS.flatMap((facet) => [facet.param, `not_${facet.param}`]);

/** The view of `search` (a URL's query string). */
export function parseView(search) {
  const query = new URLSearchParams(search);
  const filters = {};
  for (const param of FILTER_PARAMS) {
    const values = [...new Set(query.getAll(param).filter((value) => value !== ''))];
    if (values.length > 0) filters[param] = values;
  }
  const from = query.get('received_from');
  const to = query.get('received_to');
  const since = query.get('since');
  const window = from && to ? { from, to } : { since: Object.hasOwn(PRESETS, since ?? '') ? since : DEFAULT_PRESET };
  return { filters, baseRef: query.get('base_ref') || null, window, cursor: query.get('cursor') || null, event: query.get('event') || null };
}

/** The query string of the view in the dashboard's URL. */
export function viewSearch(view) {
  const query = filterQuery(view);
  if ('since' in view.window && view.window.since !== DEFAULT_PRESET) query.set('since', view.window.since);
  if (view.cursor) query.set('cursor', view.cursor);
  if (view.event) query.set('event', view.event);
  return query.toString();
}

/** The filters and explicit bounds, as the API reads them (a preset leaves the bounds to the API). */
export function filterQuery(view) {
  const query = new URLSearchParams();
  for (const param of FILTER_PARAMS) for (const value of view.filters[param] ?? []) query.append(param, value);
  if (view.baseRef) query.set('base_ref', view.baseRef);
  if ('from' in view.window) {
    query.set('received_from', view.window.from);
    query.set('received_to', view.window.to);
  }
  return query;
}

/** How a value of a facet is filtered now: 'include', 'exclude' or null. */
export function facetState(view, param, value) {
  if (view.filters[param]?.includes(value)) return 'include';
  if (view.filters[`not_${param}`]?.includes(value)) return 'exclude';
  return null;
}

/**
 * A click on a facet's value: toggles it on the side asked for. The API takes one side of a pair
 * at a time, so choosing a side drops the other. Any change of filter starts again at page one.
 */
export function toggleFacet(view, param, value, side) {
  const own = side === 'exclude' ? `not_${param}` : param;
  const other = side === 'exclude' ? param : `not_${param}`;
  const filters = { ...view.filters };
  const current = filters[own] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  delete filters[other];
  if (next.length > 0) filters[own] = next;
  else delete filters[own];
  return { ...view, filters, cursor: null, event: null };
}

export function removeFilter(view, param, value) {
  const filters = { ...view.filters };
  const next = (filters[param] ?? []).filter((v) => v !== value);
  if (next.length > 0) filters[param] = next;
  else delete filters[param];
  return { ...view, filters, cursor: null, event: null };
}

export function withWindow(view, window) {
  return { ...view, window, cursor: null, event: null };
}

/** The active filters as a flat list, for chips a person can remove. */
export function activeFilters(view) {
  return FILTER_PARAMS.flatMap((param) => (view.filters[param] ?? []).map((value) => ({ param, value, exclude: param.startsWith('not_') })));
}

/** A window picked on the chart, widened to whole buckets and kept within what the API allows. */
export function pickedWindow(fromMs, toMs, bucketSeconds) {
  const step = bucketSeconds * 1000;
  const from = Math.floor(fromMs / step) * step;
  const to = Math.max(from + step, Math.ceil(toMs / step) * step);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}
