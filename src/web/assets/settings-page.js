// Repository settings: the configuration file (its report, read again on demand), the products
// (changed here by those with admin rights), the merge-queue configuration as the API reads it
// back, and a pull request's effective scopes.
import { useEffect, useState } from './preact-hooks.js';
import { html } from './html.js';
import { api, repoPath } from './api.js';
import { utc } from './format.js';
import { Loading, ProblemView } from './problem-view.js';
import { useApi } from './use-api.js';
import { ConfigurationFile } from './configuration-file.js';

const PRODUCTS = [
  ['merge_queue', 'Merge queue'],
  ['merge_protections', 'Merge protections'],
  ['workflow_automation', 'Workflow automation'],
  ['ci_insights', 'CI insights'],
];

function Products({ owner, repository }) {
  const path = `/v1/products/${encodeURIComponent(owner)}/${encodeURIComponent(repository)}`;
  const loaded = useApi(path);
  const [chosen, setChosen] = useState(null);
  const [saving, setSaving] = useState(null);
  useEffect(() => loaded.value && setChosen(new Set(loaded.value.products)), [loaded.value]);
  if (loaded.problem) return html`<${ProblemView} problem=${loaded.problem} onRetry=${loaded.retry} />`;
  if (!chosen) return html`<${Loading} what="products" />`;
  async function save(event) {
    event.preventDefault();
    setSaving({ state: 'saving' });
    try {
      await api(path, { method: 'PUT', body: { products: [...chosen] } });
      setSaving({ state: 'saved' });
    } catch (problem) {
      setSaving({ state: 'failed', problem });
    }
  }
  const toggle = (product) => {
    const next = new Set(chosen);
    if (next.has(product)) next.delete(product);
    else next.add(product);
    setChosen(next);
    setSaving(null);
  };
  return html`<form class="products" onSubmit=${save}>
    <fieldset><legend>Products enabled on this repository</legend>
      ${PRODUCTS.map(([value, label]) => html`<label class="check"><input type="checkbox" name="products" value=${value} checked=${chosen.has(value)} onChange=${() => toggle(value)} />${label}</label>`)}
    </fieldset>
    <button type="submit" disabled=${saving?.state === 'saving'}>Save products</button>
    ${saving?.state === 'saved' ? html`<p role="status">Saved; each change is in the activity log.</p>` : null}
    ${saving?.state === 'failed' ? html`<${ProblemView} problem=${saving.problem} />` : null}
  </form>`;
}

function QueueConfiguration({ owner, repository }) {
  const loaded = useApi(`${repoPath(owner, repository)}/merge-queue/configuration`);
  if (loaded.problem?.kind === 'not_found' && !/Repository/.test(loaded.problem.detail)) return html`<p>This server has no merge-queue configuration endpoint.</p>`;
  if (loaded.problem) return html`<${ProblemView} problem=${loaded.problem} onRetry=${loaded.retry} />`;
  if (!loaded.value) return html`<${Loading} what="the merge-queue configuration" />`;
  const config = loaded.value;
  const queue = config.merge_queue ?? {};
  return html`<div class="configuration">
    <dl class="pairs">
      <dt>Mode</dt><dd>${queue.mode ?? '—'}</dd>
      <dt>Parallel checks</dt><dd>${queue.max_parallel_checks ?? '—'}</dd>
      <dt>Queue rules</dt><dd>${(config.queue_rules ?? []).map((rule) => rule.name).join(', ') || '—'}</dd>
      <dt>Missing scope reports</dt><dd>${config.scopes?.missing ?? '—'}${config.scopes?.wait_seconds ? ` (after ${config.scopes.wait_seconds} s)` : ''}</dd>
    </dl>
    <details><summary>The whole configuration (JSON)</summary><pre tabindex="0">${JSON.stringify(config, null, 2)}</pre></details>
    <p class="hint">While a configuration file governs (above), change the file; otherwise change it with <code>PUT ${repoPath(owner, repository)}/merge-queue/configuration</code> (see the API reference).</p>
  </div>`;
}

function EffectiveScopes({ owner, repository }) {
  const [number, setNumber] = useState('');
  const [answer, setAnswer] = useState(null);
  async function look(event) {
    event.preventDefault();
    if (!/^\d+$/.test(number.trim())) return setAnswer({ invalid: 'Give a pull request number.' });
    setAnswer({ loading: true });
    try {
      setAnswer({ value: (await api(`${repoPath(owner, repository)}/pulls/${number.trim()}/scopes`)).body });
    } catch (problem) {
      setAnswer({ problem });
    }
  }
  const report = answer?.value;
  return html`<form class="scopes" onSubmit=${look}>
    <label for="scopes-pull">Pull request number</label>
    <input id="scopes-pull" inputmode="numeric" value=${number} onInput=${(e) => setNumber(e.currentTarget.value)} />
    <button type="submit">Show its scopes</button>
    ${answer?.invalid ? html`<p class="invalid" role="alert">${answer.invalid}</p>` : null}
    ${answer?.loading ? html`<${Loading} what="the scopes" />` : null}
    ${answer?.problem ? html`<${ProblemView} problem=${answer.problem} />` : null}
    ${report ? html`<dl class="pairs" aria-live="polite">
      <dt>Pull request</dt><dd>#${String(report.pull_request)}</dd>
      <dt>Head</dt><dd><code>${report.head_sha ?? '—'}</code></dd>
      <dt>Scopes</dt><dd class="scope-list">${report.all_scopes ? 'every scope (a barrier)' : report.scopes === null || report.source === null ? 'none reported yet' : report.scopes.length === 0 ? 'none' : report.scopes.map((scope) => html`<span class="scope">${scope}</span> `)}</dd>
      <dt>From</dt><dd>${report.source === 'commit' ? 'the report of its head commit' : report.source === 'pull_request' ? 'a report by number' : '—'}${report.reported_at ? `, ${utc(report.reported_at)}` : ''}</dd>
    </dl>` : null}
  </form>`;
}

export function SettingsPage({ owner, repository }) {
  return html`<main id="main" class="settings-page">
    <h1>Settings <span class="sub">${owner}/${repository}</span></h1>
    <section aria-labelledby="configuration-file-title"><h2 id="configuration-file-title">Configuration file</h2><${ConfigurationFile} owner=${owner} repository=${repository} /></section>
    <section aria-labelledby="products-title"><h2 id="products-title">Products</h2><${Products} owner=${owner} repository=${repository} /></section>
    <section aria-labelledby="queue-config-title"><h2 id="queue-config-title">Merge-queue configuration</h2><${QueueConfiguration} owner=${owner} repository=${repository} /></section>
    <section aria-labelledby="scopes-title"><h2 id="scopes-title">Effective scopes of a pull request</h2><${EffectiveScopes} owner=${owner} repository=${repository} /></section>
  </main>`;
}
