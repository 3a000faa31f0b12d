// The data of an activity-log view: the aggregate (total, histogram, facets) and a page of events,
// fetched in parallel (or taken from log-prefetch.js, which started them as the page loaded);
// then the histogram by outcome, which the aggregate gives only as a total: one aggregate per
// outcome but the largest, whose counts are what the others leave of the total.
import { useEffect, useState } from './preact-hooks.js';
import { api, pageLinks } from './api.js';
import { filterQuery } from './view-state.js';
import { logRequests, takeEarly } from './log-requests.js';

function useLoad(key, load) {
  const [state, setState] = useState({ key: null, value: null, problem: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true, problem: null }));
    // An early request cannot be aborted: once this view is left, its answer is dropped here.
    load(controller.signal).then(
      (value) => !controller.signal.aborted && setState({ key, value, problem: null, loading: false }),
      (problem) => !controller.signal.aborted && problem.name !== 'AbortError' && setState({ key, value: null, problem, loading: false }),
    );
    return () => controller.abort();
  }, [key, attempt]);
  return { ...state, current: state.key === key, retry: () => setAttempt((n) => n + 1) };
}

function outcomeQuery(view, outcome) {
  const query = filterQuery(view);
  query.delete('outcome');
  query.delete('not_outcome');
  query.set('outcome', outcome);
  return query;
}

async function histogramByOutcome(base, view, aggregate, signal) {
  const present = aggregate.by_outcome.filter((row) => row.count > 0).sort((a, b) => b.count - a.count);
  const series = {};
  if (present.length === 0) return series;
  const [largest, ...others] = present;
  const answers = await Promise.all(others.map((row) => api(`${base}/logs/aggregate?${outcomeQuery(view, row.value)}`, { signal })));
  const rest = aggregate.histogram.map((bucket) => bucket.count);
  others.forEach((row, index) => {
    series[row.value] = answers[index].body.histogram.map((bucket) => bucket.count);
    series[row.value].forEach((n, i) => (rest[i] -= n));
  });
  series[largest.value] = rest;
  return series;
}

/** The answer to `path`: the early request when there is one, else a new one. */
const request = (path, signal) => takeEarly(path) ?? api(path, { signal });

export function useLogData(owner, repository, view) {
  const { base, aggregate: aggregatePath, page: pagePath } = logRequests(owner, repository, view);
  const aggregate = useLoad(aggregatePath, (signal) => request(aggregatePath, signal).then((answer) => answer.body));
  const page = useLoad(pagePath, (signal) =>
    request(pagePath, signal).then((answer) => ({ events: answer.body.events, links: pageLinks(answer.headers.get('link')) })),
  );
  const [stacked, setStacked] = useState(null);
  useEffect(() => {
    setStacked(null);
    if (!aggregate.current || !aggregate.value) return undefined;
    const controller = new AbortController();
    histogramByOutcome(base, view, aggregate.value, controller.signal).then(
      (series) => setStacked({ key: aggregate.key, series }),
      () => undefined, // the totals stay drawn; the breakdown is an extra
    );
    return () => controller.abort();
  }, [aggregate.key, aggregate.value]);
  return { aggregate, page, stacked: stacked?.key === aggregate.key ? stacked.series : null };
}
