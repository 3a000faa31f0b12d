// What a failed call means for the person reading, and what to do next: sign in again, ask for
// rights, wait and retry (a 429 or 503 retries by itself after Retry-After), or fix the filter.
import { useEffect, useState } from './preact-hooks.js';
import { html } from './html.js';
import { session } from './api.js';
import { navigate } from './router.js';

const ADVICE = {
  credential: { title: 'Your credential was refused', text: 'The key or token is unknown, revoked or expired. Sign in again with a current one.' },
  rights: { title: 'No access', text: 'This credential does not cover this repository or this action. Use an admin key of the repository\'s owner, or a hosting token with access to the repository.' },
  not_found: { title: 'Not found', text: 'Switchyard does not know this repository (or this item). Check the name, or register the repository: switchyard repos register OWNER/REPO.' },
  rate_limited: { title: 'Too many requests', text: 'Switchyard is limiting requests from this address. The page retries by itself.' },
  unavailable: { title: 'Switchyard is unavailable for a moment', text: 'Its storage or the hosting platform did not answer. The page retries by itself.' },
  unreachable: { title: 'Switchyard did not answer', text: 'Check that the server is running and reachable, then retry.' },
  invalid: { title: 'The request was refused', text: 'Change the filters or the window.' },
  conflict: { title: 'Not possible now', text: '' },
  signin: { title: 'This key or token was refused', text: 'It is unknown, revoked or expired, or it cannot read the activity log (a ci key cannot). Check it and try again.' },
  failed: { title: 'Something went wrong', text: 'Retry; if it persists, the server log has the request id.' },
};

function useCountdown(seconds, onDone) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (!seconds) return undefined;
    setLeft(seconds);
    const timer = setInterval(() => setLeft((value) => value - 1), 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  useEffect(() => {
    if (seconds && left <= 0) onDone?.();
  }, [left]);
  return left;
}

export function ProblemView({ problem, onRetry }) {
  const advice = ADVICE[problem.kind] ?? ADVICE.failed;
  const waits = problem.kind === 'rate_limited' || problem.kind === 'unavailable';
  const left = useCountdown(waits ? Math.min(problem.retryAfter ?? 5, 60) : 0, onRetry);
  const signInAgain = () => {
    session.signOut();
    navigate(`/?next=${encodeURIComponent(location.pathname + location.search)}`);
  };
  return html`<div class="problem" role="alert" data-kind=${problem.kind}>
    <h2>${advice.title}</h2>
    <p>${advice.text}</p>
    ${problem.detail ? html`<p class="detail">Switchyard said: <q>${problem.detail}</q>${problem.status ? ` (HTTP ${problem.status})` : ''}</p>` : null}
    ${waits && left > 0 ? html`<p>Retrying in ${left} s.</p>` : null}
    <div class="actions">
      ${problem.kind === 'credential' || problem.kind === 'rights' ? html`<button type="button" onClick=${signInAgain}>Sign in again</button>` : null}
      ${onRetry && problem.kind !== 'credential' ? html`<button type="button" onClick=${onRetry}>Retry now</button>` : null}
    </div>
  </div>`;
}

export function Loading({ what }) {
  return html`<p class="loading" role="status" aria-live="polite">Loading ${what}…</p>`;
}
