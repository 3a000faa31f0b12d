// The facets of the aggregate as lists a person filters with: a click on a value keeps only its
// events (again: lets them all back); Alt+click or the ⊖ button beside it excludes them instead.
import { useState } from './preact-hooks.js';
import { html } from './html.js';
import { count } from './format.js';
import { FACETS, facetState } from './view-state.js';
import { OUTCOME_COLOURS } from './histogram-chart.js';

const SHOWN = 8;

function FacetRow({ facet, row, state, onToggle }) {
  const name = facet.param === 'pull_request' || facet.param === 'batch_pull' ? `#${row.value}` : row.value;
  return html`<li class=${state ?? ''}>
    <button type="button" class="facet-value" aria-pressed=${state === 'include' ? 'true' : 'false'} data-value=${row.value}
      title="Show only these (Alt+click to exclude)" onClick=${(event) => onToggle(facet.param, row.value, event.altKey ? 'exclude' : 'include')}>
      ${facet.param === 'outcome' ? html`<span class="swatch" style=${{ background: OUTCOME_COLOURS[row.value] ?? '#888' }}></span>` : null}
      <span class="value">${name}</span><span class="count">${count(row.count)}</span>
    </button>
    <button type="button" class="facet-exclude" aria-pressed=${state === 'exclude' ? 'true' : 'false'} aria-label=${`Exclude ${facet.label.toLowerCase()} ${name}`}
      title="Exclude these" onClick=${() => onToggle(facet.param, row.value, 'exclude')}>⊖</button>
  </li>`;
}

function FacetList({ facet, rows, view, onToggle }) {
  const [all, setAll] = useState(false);
  const visible = all ? rows : rows.slice(0, SHOWN);
  return html`<section class="facet" aria-labelledby=${`facet-${facet.param}`} data-facet=${facet.param}>
    <h3 id=${`facet-${facet.param}`}>${facet.label}</h3>
    ${rows.length === 0 ? html`<p class="none">None in this window.</p>` : html`<ul>
      ${visible.map((row) => html`<${FacetRow} key=${row.value} facet=${facet} row=${row} state=${facetState(view, facet.param, row.value)} onToggle=${onToggle} />`)}
    </ul>`}
    ${rows.length > SHOWN ? html`<button type="button" class="link" onClick=${() => setAll(!all)}>${all ? 'Show fewer' : `Show all ${rows.length}`}</button>` : null}
  </section>`;
}

export function FacetLists({ aggregate, view, onToggle }) {
  return html`<div class="facets">
    ${FACETS.map((facet) => html`<${FacetList} key=${facet.param} facet=${facet} rows=${aggregate[facet.field] ?? []} view=${view} onToggle=${onToggle} />`)}
  </div>`;
}
