// A repository's activity log: window and filters, the histogram, the facets and a page of
// events. Everything it shows is the view in the URL; every change of it is a navigation.
import { html } from './html.js';
import { count, utc } from './format.js';
import { navigate, repoUrl } from './router.js';
import { parseView, pickedWindow, removeFilter, toggleFacet, viewSearch, withWindow } from './view-state.js';
import { useLogData } from './log-data.js';
import { HistogramChart } from './histogram-chart.js';
import { FacetLists } from './facet-lists.js';
import { EventTable } from './event-table.js';
import { WindowBar } from './window-bar.js';
import { Loading, ProblemView } from './problem-view.js';

function Summary({ aggregate }) {
  const buckets = aggregate.histogram;
  const from = buckets[0]?.start;
  const to = buckets[buckets.length - 1]?.end;
  return html`<p class="summary" aria-live="polite"><strong data-total=${aggregate.total}>${count(aggregate.total)}</strong> ${aggregate.total === 1 ? 'event' : 'events'}${from ? html` between ${utc(from)} and ${utc(to)}` : ''}</p>`;
}

function Empty({ view, go }) {
  const filtered = Object.keys(view.filters).length > 0;
  return html`<div class="empty" role="status">
    <h2>No events here</h2>
    <p>${filtered ? 'Nothing in this window matches these filters.' : 'Nothing was recorded in this window.'} Events arrive as pull requests move, products change and the merge queue works.</p>
    <div class="actions">
      ${filtered ? html`<button type="button" onClick=${() => go({ ...view, filters: {}, cursor: null })}>Clear filters</button>` : null}
      <button type="button" onClick=${() => go(withWindow(view, { since: '7d' }))}>Look at the last 7 days</button>
    </div>
  </div>`;
}

function Pager({ view, links, go }) {
  return html`<nav class="pager" aria-label="Pages of events">
    <button type="button" disabled=${!view.cursor} onClick=${() => go({ ...view, cursor: null, event: null })}>Newest</button>
    <button type="button" disabled=${!links.prev} onClick=${() => go({ ...view, cursor: links.prev, event: null })}>← Newer</button>
    <button type="button" disabled=${!links.next} onClick=${() => go({ ...view, cursor: links.next, event: null })}>Older →</button>
  </nav>`;
}

function EventsSection({ view, page, go }) {
  if (page.problem) return html`<${ProblemView} problem=${page.problem} onRetry=${page.retry} />`;
  if (!page.value) return html`<${Loading} what="events" />`;
  return html`<div aria-busy=${page.current ? 'false' : 'true'}>
    <${EventTable} events=${page.value.events} openId=${view.event} onOpen=${(id) => go({ ...view, event: id }, { replace: true })} />
    <${Pager} view=${view} links=${page.value.links} go=${go} />
  </div>`;
}

export function LogPage({ owner, repository, search }) {
  const view = parseView(search);
  const go = (next, options) => navigate(repoUrl(owner, repository, 'logs', viewSearch(next)), options);
  const { aggregate, page, stacked } = useLogData(owner, repository, view);
  const onPick = (fromMs, toMs) => go(withWindow(view, pickedWindow(fromMs, toMs, aggregate.value?.interval_size_seconds ?? 60)));
  const problem = aggregate.problem ?? null;

  let body;
  if (problem) body = html`<${ProblemView} problem=${problem} onRetry=${() => (aggregate.retry(), page.retry())} />`;
  else if (!aggregate.value) body = html`<${Loading} what="the activity log" />`;
  else if (aggregate.value.total === 0 && aggregate.current) body = html`<${Summary} aggregate=${aggregate.value} /><${Empty} view=${view} go=${go} />`;
  else {
    body = html`<div class="log-layout" aria-busy=${aggregate.current ? 'false' : 'true'}>
      <div class="log-main">
        <${Summary} aggregate=${aggregate.value} />
        <${HistogramChart} aggregate=${aggregate.value} stacked=${stacked} onPick=${onPick} />
        <h2 class="visually-hidden">Events</h2>
        <${EventsSection} view=${view} page=${page} go=${go} />
      </div>
      <aside class="log-facets" aria-label="Facets">
        <h2>Filter by</h2>
        <${FacetLists} aggregate=${aggregate.value} view=${view} onToggle=${(param, value, side) => go(toggleFacet(view, param, value, side))} />
      </aside>
    </div>`;
  }
  return html`<main id="main" class="log-page">
    <h1>Activity log <span class="sub">${owner}/${repository}</span></h1>
    <${WindowBar} view=${view} onWindow=${(window) => go(withWindow(view, window))}
      onRemoveFilter=${(param, value) => go(removeFilter(view, param, value))} onClear=${() => go({ ...view, filters: {}, cursor: null, event: null })} />
    ${body}
  </main>`;
}
