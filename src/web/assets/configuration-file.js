// The configuration file's report on the settings page (DESIGN.md §13): the file last read on the
// default branch, whether it is valid, its errors by location and line, the keys Switchyard does
// not implement, and which file is in force (the last good one); "Refresh" reads it again, for
// those with push rights. The file is written by anyone with push access: all of it is text here.
import { useState } from './preact-hooks.js';
import { html } from './html.js';
import { api, repoPath } from './api.js';
import { Loading, ProblemView } from './problem-view.js';
import { useApi } from './use-api.js';

/** `["queue_rules", 0, "batch_size"]` → `queue_rules[0].batch_size`, as the not-supported keys are written. */
export function locationText(loc) {
  return loc.reduce((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : String(part)), '') || '(the whole file)';
}

function FileAt({ file }) {
  return html`<code>${file.path}</code> <span class="sha">(blob <code>${file.sha}</code>)</span>`;
}

function Errors({ errors }) {
  if (errors.length === 0) return null;
  return html`<h3 id="configuration-errors-title">Errors (${errors.length})</h3>
    <ul class="config-errors" aria-labelledby="configuration-errors-title">
      ${errors.map((error) => html`<li>
        <code class="loc">${locationText(error.loc)}</code>${error.line ? html` <span class="line">line ${error.line}</span>` : null}: <span class="msg">${error.msg}</span>
      </li>`)}
    </ul>`;
}

function NotSupported({ keys }) {
  if (keys.length === 0) return null;
  return html`<h3 id="not-supported-title">Not supported (${keys.length})</h3>
    <p class="hint">Keys of the public configuration that this file uses and Switchyard does not implement: they do nothing here.</p>
    <ul class="not-supported" aria-labelledby="not-supported-title">${keys.map((key) => html`<li><code>${key}</code></li>`)}</ul>`;
}

function inForceText(report) {
  if (!report.in_force) return report.source ? 'no file: none has been valid yet, so the merge-queue API is the source' : 'no file: the merge-queue API is the source';
  if (report.valid && report.source?.sha === report.in_force.sha) return 'the file last read';
  return 'the last good file, until the file last read is fixed';
}

function Report({ report }) {
  return html`<div class="configuration-report">
    <dl class="pairs">
      <dt>File last read</dt><dd>${report.source ? html`<${FileAt} file=${report.source} />` : 'none: the default branch has no configuration file'}</dd>
      <dt>Valid</dt><dd>${report.source ? html`<span class="verdict" data-valid=${String(report.valid)}>${report.valid ? '✓ valid' : '✗ not valid'}</span>` : '—'}</dd>
      <dt>In force</dt><dd>${report.in_force ? html`<${FileAt} file=${report.in_force} />, ` : null}${inForceText(report)}</dd>
    </dl>
    <${Errors} errors=${report.errors} />
    <${NotSupported} keys=${report.not_supported} />
  </div>`;
}

export function ConfigurationFile({ owner, repository }) {
  const path = `${repoPath(owner, repository)}/configuration`;
  const loaded = useApi(path);
  const [refreshed, setRefreshed] = useState(null);
  const [refresh, setRefresh] = useState(null);
  async function readAgain() {
    setRefresh({ state: 'reading' });
    try {
      setRefreshed((await api(`${path}/refresh`, { method: 'POST' })).body);
      setRefresh({ state: 'done' });
    } catch (problem) {
      setRefresh({ state: 'failed', problem });
    }
  }
  if (loaded.problem) return html`<${ProblemView} problem=${loaded.problem} onRetry=${loaded.retry} />`;
  const report = refreshed ?? loaded.value;
  if (!report) return html`<${Loading} what="the configuration report" />`;
  return html`<div class="configuration-file">
    <${Report} report=${report} />
    <div class="refresh">
      <button type="button" onClick=${readAgain} disabled=${refresh?.state === 'reading'}>Refresh</button>
      <span class="hint">Reads the file on the default branch now (push rights).</span>
    </div>
    ${refresh?.state === 'reading' ? html`<${Loading} what="the file again" />` : null}
    ${refresh?.state === 'done' ? html`<p role="status">Read again just now.</p>` : null}
    ${refresh?.state === 'failed' ? html`<${ProblemView} problem=${refresh.problem} onRetry=${readAgain} />` : null}
  </div>`;
}
