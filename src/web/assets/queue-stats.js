// The queue page's statistics: the branch's last 24 hours, added up from the public statistics
// reads (GET …/stats/*, the API's default window): pull requests entered and merged, the share
// that left without merging, the mean time in queue and CI runtime, and why pull requests left.
import { useEffect, useState } from './preact-hooks.js';
import { html } from './html.js';
import { api } from './api.js';
import { count } from './format.js';

const REFRESH_MS = 30_000;
const READS = ['queues_entered_count', 'queues_merged_count', 'failure_rate', 'total_queue_time', 'average_ci_runtime', 'queues_pr_exit_reasons'];

function useStats(base, branch) {
  const [state, setState] = useState({ figures: null, problem: null });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const query = `?base_ref=${encodeURIComponent(branch)}`;
    Promise.all(READS.map((read) => api(`${base}/stats/${read}${query}`))).then(
      (answers) => live && setState({ figures: figuresOf(Object.fromEntries(answers.map((answer, i) => [READS[i], answer.body]))), problem: null }),
      (problem) => live && setState((previous) => ({ ...previous, problem })),
    );
    const timer = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [base, branch, tick]);
  return state;
}

const statsOf = (body) => body.groups.flatMap((group) => group.stats);
const sum = (body, field) => statsOf(body).reduce((total, stat) => total + stat[field], 0);

function figuresOf(bodies) {
  const exits = new Map();
  for (const stat of statsOf(bodies.queues_pr_exit_reasons)) exits.set(stat.exit_reason, (exits.get(stat.exit_reason) ?? 0) + stat.count);
  return {
    entered: sum(bodies.queues_entered_count, 'entered'),
    merged: sum(bodies.queues_merged_count, 'merged'),
    left: sum(bodies.failure_rate, 'total'),
    failures: sum(bodies.failure_rate, 'failures'),
    queueSeconds: mean(sum(bodies.total_queue_time, 'sum_queue_time'), sum(bodies.total_queue_time, 'count_queue_time')),
    ciSeconds: mean(sum(bodies.average_ci_runtime, 'sum_runtime'), sum(bodies.average_ci_runtime, 'count_runtime')),
    exits: [...exits].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)),
  };
}

const mean = (total, n) => (n === 0 ? null : total / n);

/** "42 s", "12 min", "3.5 h". */
function duration(seconds) {
  if (seconds === null) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function Figure({ name, label, children }) {
  return html`<div class="figure"><dt>${label}</dt><dd data-stat=${name}>${children}</dd></div>`;
}

export function QueueStats({ base, branch }) {
  const { figures, problem } = useStats(base, branch);
  let body;
  if (!figures) body = html`<p>${problem ? `Statistics unavailable: ${problem.detail}` : 'Reading the statistics…'}</p>`;
  else {
    const rate = figures.left === 0 ? '—' : `${Math.round((100 * figures.failures) / figures.left)} % (${count(figures.failures)} of ${count(figures.left)} that left)`;
    body = html`<dl class="queue-stats">
      <${Figure} name="entered" label="Entered">${count(figures.entered)}<//>
      <${Figure} name="merged" label="Merged">${count(figures.merged)}<//>
      <${Figure} name="failure-rate" label="Left without merging">${rate}<//>
      <${Figure} name="time-in-queue" label="Mean time in queue">${duration(figures.queueSeconds)}<//>
      <${Figure} name="ci-runtime" label="Mean CI runtime">${duration(figures.ciSeconds)}<//>
      <${Figure} name="exits" label="Why they left">${figures.exits.length === 0 ? '—' : figures.exits.map(([reason, n]) => `${reason} ${n}`).join(' · ')}<//>
    </dl>`;
  }
  return html`<section aria-labelledby="stats-title"><h2 id="stats-title">Last 24 hours</h2>${body}</section>`;
}
