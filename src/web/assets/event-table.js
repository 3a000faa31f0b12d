// A page of events as a table, newest first; a row opens to show the event's envelope and its
// metadata as indented JSON. Metadata is whatever a producer sent: it is shown as text, never
// as markup.
import { html } from './html.js';
import { utc } from './format.js';
import { OUTCOME_COLOURS } from './histogram-chart.js';

function EventDetails({ event }) {
  return html`<tr class="details" id=${`event-${event.id}`}>
    <td colspan="6">
      <dl>
        <dt>Id</dt><dd>${String(event.id)}</dd>
        <dt>Received</dt><dd>${event.received_at}</dd>
        <dt>Repository</dt><dd>${event.repository}</dd>
        <dt>Base branch</dt><dd>${event.base_ref ?? '—'}</dd>
      </dl>
      <h4>Metadata</h4>
      <pre class="metadata" tabindex="0" aria-label="Metadata of the event">${JSON.stringify(event.metadata, null, 2)}</pre>
    </td>
  </tr>`;
}

function EventRow({ event, open, onOpen }) {
  const id = String(event.id);
  return html`<tr class=${open ? 'event open' : 'event'} data-id=${id}>
    <td class="time">${utc(event.received_at)}</td>
    <td class="type">${event.type}</td>
    <td class="outcome"><span class="swatch" style=${{ background: OUTCOME_COLOURS[event.outcome] ?? '#888' }}></span>${event.outcome}</td>
    <td class="number">${event.pull_request === null || event.pull_request === undefined ? '—' : `#${event.pull_request}`}</td>
    <td class="trigger">${event.trigger}</td>
    <td><button type="button" class="link" aria-expanded=${open ? 'true' : 'false'} aria-controls=${open ? `event-${id}` : undefined} onClick=${() => onOpen(open ? null : id)}>${open ? 'Close' : 'Open'}<span class="visually-hidden"> event ${id}</span></button></td>
  </tr>
  ${open ? html`<${EventDetails} event=${event} />` : null}`;
}

export function EventTable({ events, openId, onOpen }) {
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Events">
    <table class="events">
      <thead><tr><th scope="col">Received (UTC)</th><th scope="col">Event type</th><th scope="col">Outcome</th><th scope="col">Pull request</th><th scope="col">Trigger</th><th scope="col"><span class="visually-hidden">Details</span></th></tr></thead>
      <tbody>${events.map((event) => html`<${EventRow} key=${String(event.id)} event=${event} open=${openId === String(event.id)} onOpen=${onOpen} />`)}</tbody>
    </table>
  </div>`;
}
