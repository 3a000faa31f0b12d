// The time window: presets relative to now, or the bounds picked on the chart, and the filters
// in force as chips a person can remove.
import { html } from './html.js';
import { utc } from './format.js';
import { PRESETS, activeFilters } from './view-state.js';

const PRESET_NAMES = { '1h': 'Last hour', '6h': 'Last 6 hours', '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days', '90d': 'Last 90 days' };

export function WindowBar({ view, onWindow, onRemoveFilter, onClear }) {
  const picked = 'from' in view.window;
  const chips = activeFilters(view);
  return html`<div class="window-bar">
    <div class="presets" role="group" aria-label="Time window">
      ${Object.keys(PRESETS).map((preset) => html`<button type="button" aria-pressed=${!picked && view.window.since === preset ? 'true' : 'false'} title=${PRESET_NAMES[preset]} onClick=${() => onWindow({ since: preset })}>${preset}</button>`)}
    </div>
    ${picked ? html`<p class="picked">From <time datetime=${view.window.from}>${utc(view.window.from)}</time> to <time datetime=${view.window.to}>${utc(view.window.to)}</time></p>` : html`<p class="picked">${PRESET_NAMES[view.window.since]}</p>`}
    ${chips.length > 0 ? html`<ul class="chips" aria-label="Filters">
      ${chips.map((chip) => html`<li class=${chip.exclude ? 'exclude' : 'include'}>
        <span>${chip.exclude ? 'not ' : ''}${chip.param.replace(/^not_/, '').replace('_', ' ')}: ${chip.value}</span>
        <button type="button" aria-label=${`Remove filter ${chip.param} ${chip.value}`} onClick=${() => onRemoveFilter(chip.param, chip.value)}>×</button>
      </li>`)}
      <li><button type="button" class="link" onClick=${onClear}>Clear filters</button></li>
    </ul>` : null}
  </div>`;
}
