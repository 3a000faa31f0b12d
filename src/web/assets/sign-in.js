// Sign-in: a key or hosting token, checked against the repository's activity log before it is
// kept (in this tab's sessionStorage only; it never goes in a URL or a cookie).
import { useState } from './preact-hooks.js';
import { html } from './html.js';
import { api, repoPath, session } from './api.js';
import { navigate, repoUrl } from './router.js';
import { ProblemView } from './problem-view.js';

const REPOSITORY = /^([A-Za-z0-9-]{1,40})\/([\w.-]{1,100})$/;

export function SignIn({ next }) {
  const [token, setToken] = useState('');
  const [repository, setRepository] = useState(() => sessionStorage.getItem('switchyard.repository') ?? '');
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState(null);

  async function submit(event) {
    event.preventDefault();
    const match = REPOSITORY.exec(repository.trim());
    if (!match) return setInvalid('Give the repository as owner/name, for example acme/widgets.');
    const previous = session.token();
    if (!token.trim() && !previous) return setInvalid('Paste an application key (swy_…) or a hosting-platform token.');
    setInvalid(null);
    setBusy(true);
    setProblem(null);
    if (token.trim()) session.signIn(token.trim());
    try {
      await api(`${repoPath(match[1], match[2])}/logs?per_page=1`);
      sessionStorage.setItem('switchyard.repository', `${match[1]}/${match[2]}`);
      navigate(next && next.startsWith('/repos/') ? next : repoUrl(match[1], match[2], 'logs'));
    } catch (error) {
      // A refused new token gives way to the one kept before; a refused kept one is forgotten.
      if (token.trim() && previous) session.signIn(previous);
      else if (!previous || error.kind === 'credential') session.signOut();
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  return html`<main id="main" class="sign-in">
    <h1>${session.token() ? 'Open a repository' : 'Sign in to Switchyard'}</h1>
    <p>Paste an admin application key of the repository's owner, or a hosting-platform token with access to the repository. It stays in this browser tab only and is sent to this server alone.</p>
    <form onSubmit=${submit} novalidate>
      <label for="repository">Repository</label>
      <input id="repository" name="repository" autocomplete="off" placeholder="owner/name" value=${repository} onInput=${(e) => setRepository(e.currentTarget.value)} aria-describedby=${invalid ? 'sign-in-invalid' : undefined} />
      <label for="token">Key or token${session.token() ? ' (signed in: leave empty to keep the current one)' : ''}</label>
      <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" value=${token} onInput=${(e) => setToken(e.currentTarget.value)} />
      ${invalid ? html`<p id="sign-in-invalid" class="invalid" role="alert">${invalid}</p>` : null}
      <button type="submit" disabled=${busy}>${busy ? 'Checking…' : 'Sign in'}</button>
    </form>
    ${problem ? html`<${ProblemView} problem=${problem.kind === 'credential' ? { ...problem, kind: 'signin' } : problem} />` : null}
  </main>`;
}
