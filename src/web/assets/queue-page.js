// The merge queue of a repository and branch: the batches as a graph of scope lanes and as a
// list, the pull requests still waiting and why, the pause and the scheduled freezes, estimated
// merge times, the last day's statistics (queue-stats.js); dequeue, pause and unpause (the API
// refuses them to those without the right, and the page says so). The status is read again every
// few seconds.
import { useEffect, useState } from './preact-hooks.js';
import { html } from './html.js';
import { api, repoPath } from './api.js';
import { relative, utc } from './format.js';
import { navigate, repoUrl } from './router.js';
import { Loading, ProblemView } from './problem-view.js';
import { QueueGraph, STATUS } from './queue-graph.js';
import { QueueStats } from './queue-stats.js';

const REFRESH_MS = 3000;

function useQueue(base, branch) {
  const [state, setState] = useState({ status: null, freezes: null, problem: null, at: null });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const query = branch ? `?branch=${encodeURIComponent(branch)}` : '';
    Promise.all([api(`${base}/merge-queue/status${query}`), api(`${base}/scheduled_freeze`).catch(() => null)]).then(
      ([status, freezes]) => live && setState({ status: status.body, freezes: freezes?.body?.scheduled_freezes ?? null, problem: null, at: new Date() }),
      (problem) => live && setState((previous) => ({ ...previous, problem })),
    );
    const timer = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [base, branch, tick]);
  return { ...state, refresh: () => setTick((n) => n + 1) };
}

function whyWaiting(pull) {
  if (pull.dequeue_requested) return 'Leaving the queue: a removal was asked for.';
  if (pull.is_frozen) return 'A scheduled freeze holds its merge.';
  if (pull.depends_on_pull_requests?.length) return `Queued behind ${pull.depends_on_pull_requests.map((n) => `#${n}`).join(', ')}.`;
  if (!pull.all_scopes && pull.scopes.length === 0) return 'No scope report yet: it waits for CI to report the scopes it touches, then is planned (as a barrier if none comes in time).';
  return 'Waiting for a place in a batch.';
}

function PullLine({ pull, onDequeue }) {
  return html`<li class="pull" data-number=${String(pull.number)}>
    <span class="number">#${String(pull.number)}</span> <span class="title">${pull.title}</span>
    ${pull.author?.login ? html` <span class="author">by ${pull.author.login}</span>` : null}
    ${pull.priority_alias && pull.priority_alias !== 'medium' ? html` <span class="tag">${pull.priority_alias} priority</span>` : null}
    ${pull.estimated_merge_at ? html` <span class="estimate">merges ~${utc(pull.estimated_merge_at)} (${relative(pull.estimated_merge_at)})</span>` : null}
    <button type="button" class="link" onClick=${() => onDequeue(pull.number)}>Dequeue<span class="visually-hidden"> #${String(pull.number)}</span></button>
  </li>`;
}

function batchFacts(batch) {
  const facts = [batch.all_scopes ? 'Every scope (a barrier)' : batch.scopes.length ? `Scopes: ${batch.scopes.join(', ')}` : 'No scopes'];
  facts.push(`checks ${batch.checks_summary.passed}/${batch.checks_summary.total}`);
  if (batch.started_at) facts.push(`started ${utc(batch.started_at)}`);
  if (batch.estimated_merge_at) facts.push(`merges ~${utc(batch.estimated_merge_at)} (${relative(batch.estimated_merge_at)})`);
  if (batch.queue_pull_request_number !== null && batch.queue_pull_request_number !== undefined) facts.push(`checked on #${batch.queue_pull_request_number}`);
  return facts;
}

function BatchItem({ batch, onDequeue }) {
  const [label] = STATUS[batch.status.code] ?? [batch.status.code];
  return html`<li class="batch-item" data-status=${batch.status.code} data-name=${batch.name}>
    <h3><span class="badge" data-status=${batch.status.code}>${label}</span> ${batch.name}</h3>
    <p class="meta">${batchFacts(batch).join(' · ')}</p>
    <ul class="pulls">${batch.pull_requests.map((pull) => html`<${PullLine} key=${String(pull.number)} pull=${pull} onDequeue=${onDequeue} />`)}</ul>
  </li>`;
}

function PauseControl({ base, pause, onDone, setProblem }) {
  const [reason, setReason] = useState('');
  const act = async (request) => {
    try {
      await request();
      setProblem(null);
      onDone();
    } catch (problem) {
      setProblem(problem);
    }
  };
  if (pause?.paused) {
    return html`<div class="paused" role="status">
      <strong>The queue is paused</strong>${pause.reason ? html`: <q>${pause.reason}</q>` : ''}${pause.paused_at ? ` since ${utc(pause.paused_at)}` : ''}. Nothing starts or merges; running checks go on.
      <button type="button" onClick=${() => act(() => api(`${base}/merge-queue/pause`, { method: 'DELETE' }))}>Unpause</button>
    </div>`;
  }
  return html`<form class="pause" onSubmit=${(event) => (event.preventDefault(), act(() => api(`${base}/merge-queue/pause`, { method: 'PUT', body: { reason: reason.trim() || 'Paused from the dashboard' } })))}>
    <label for="pause-reason">Pause reason</label>
    <input id="pause-reason" maxlength="255" value=${reason} onInput=${(e) => setReason(e.currentTarget.value)} />
    <button type="submit">Pause the queue</button>
  </form>`;
}

function Freezes({ freezes }) {
  if (!freezes || freezes.length === 0) return html`<p>No scheduled freeze.</p>`;
  const now = Date.now();
  return html`<ul class="freezes">${freezes.map((freeze) => {
    const active = new Date(freeze.start).getTime() <= now && (!freeze.end || new Date(freeze.end).getTime() > now);
    return html`<li class=${active ? 'active' : ''}>${active ? html`<strong>Active: </strong>` : null}${freeze.reason} — from ${utc(freeze.start)} ${freeze.end ? `to ${utc(freeze.end)}` : '(no end)'}${freeze.matching_conditions?.length ? ` · ${freeze.matching_conditions.join(', ')}` : ''}</li>`;
  })}</ul>`;
}

function BranchPicker({ owner, repository, branch }) {
  const [branches, setBranches] = useState([]);
  useEffect(() => {
    api(`${repoPath(owner, repository)}/merge-queue/branches`).then((answer) => setBranches(answer.body.branches ?? []), () => setBranches([]));
  }, [owner, repository]);
  const choices = [...new Set([branch, ...branches])];
  return html`<label class="branch">Branch
    <select value=${branch} onChange=${(e) => navigate(repoUrl(owner, repository, 'queue', `branch=${encodeURIComponent(e.currentTarget.value)}`))}>
      ${choices.map((name) => html`<option value=${name}>${name}</option>`)}
    </select></label>`;
}

export function QueuePage({ owner, repository, search }) {
  const branch = new URLSearchParams(search).get('branch') || 'main';
  const base = repoPath(owner, repository);
  const queue = useQueue(base, branch);
  const [actionProblem, setActionProblem] = useState(null);
  const dequeue = async (number) => {
    try {
      await api(`${base}/merge-queue/pull/${number}/dequeue`, { method: 'POST' });
      setActionProblem(null);
      queue.refresh();
    } catch (problem) {
      setActionProblem(problem);
    }
  };
  const status = queue.status;
  let body;
  if (queue.problem && !status) body = html`<${ProblemView} problem=${queue.problem} onRetry=${queue.refresh} />`;
  else if (!status) body = html`<${Loading} what="the merge queue" />`;
  else {
    body = html`
      ${queue.problem ? html`<${ProblemView} problem=${queue.problem} onRetry=${queue.refresh} />` : null}
      ${actionProblem ? html`<${ProblemView} problem=${actionProblem} />` : null}
      <p class="summary" aria-live="polite">${status.mode} queue · ${status.batches.length} ${status.batches.length === 1 ? 'batch' : 'batches'} · ${status.waiting_pull_requests.length} waiting <span class="updated">· updated ${utc(queue.at?.toISOString())}</span></p>
      <section aria-labelledby="pause-title"><h2 id="pause-title" class="visually-hidden">Pause</h2><${PauseControl} base=${base} pause=${status.pause} onDone=${queue.refresh} setProblem=${setActionProblem} /></section>
      <section aria-labelledby="batches-title">
        <h2 id="batches-title">Batches</h2>
        ${status.batches.length === 0 ? html`<p class="empty-note">No batch: the queue is empty. Pull requests enter with <code>PUT ${base}/merge-queue/pull/N</code> or a <code>@switchyard queue</code> comment.</p>` : html`
          <${QueueGraph} batches=${status.batches} />
          <ol class="batches">${status.batches.map((batch) => html`<${BatchItem} key=${batch.id} batch=${batch} onDequeue=${dequeue} />`)}</ol>`}
      </section>
      <section aria-labelledby="waiting-title">
        <h2 id="waiting-title">Waiting pull requests</h2>
        ${status.waiting_pull_requests.length === 0 ? html`<p>None.</p>` : html`<ul class="waiting">${status.waiting_pull_requests.map((pull) => html`<li data-number=${String(pull.number)}>
          <${PullLineInline} pull=${pull} onDequeue=${dequeue} /><p class="why">${whyWaiting(pull)}</p></li>`)}</ul>`}
      </section>
      <section aria-labelledby="freezes-title"><h2 id="freezes-title">Scheduled freezes</h2><${Freezes} freezes=${queue.freezes} /></section>
      <${QueueStats} base=${base} branch=${branch} />`;
  }
  return html`<main id="main" class="queue-page">
    <h1>Merge queue <span class="sub">${owner}/${repository}</span></h1>
    <${BranchPicker} owner=${owner} repository=${repository} branch=${branch} />
    ${body}
  </main>`;
}

function PullLineInline({ pull, onDequeue }) {
  return html`<span class="number">#${String(pull.number)}</span> <span class="title">${pull.title}</span>
    ${pull.author?.login ? html` <span class="author">by ${pull.author.login}</span>` : null}
    <button type="button" class="link" onClick=${() => onDequeue(pull.number)}>Dequeue<span class="visually-hidden"> #${String(pull.number)}</span></button>`;
}
