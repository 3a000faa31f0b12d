// The dashboard's entry: picks the page from the path, with a header to move between a
// repository's activity log, merge queue, a pull request's rules and settings. Signed out, every
// page is the sign-in.
import { render } from './preact.js';
import { html } from './html.js';
import { session } from './api.js';
import { onLinkClick, repoRoute, repoUrl, useLocation, navigate } from './router.js';
import { SignIn } from './sign-in.js';
import { LogPage } from './log-page.js';
import { QueuePage } from './queue-page.js';
import { RulesPage } from './rules-page.js';
import { SettingsPage } from './settings-page.js';

const PAGES = { logs: ['Activity log', LogPage], queue: ['Merge queue', QueuePage], rules: ['Rules', RulesPage], settings: ['Settings', SettingsPage] };

function Header({ route }) {
  const signOut = () => {
    session.signOut();
    navigate('/');
  };
  return html`<header class="site">
    <a class="skip" href="#main">Skip to content</a>
    <a class="brand" href="/" onClick=${onLinkClick}>Switchyard</a>
    ${route ? html`<span class="repo-name">${route.owner}/${route.repository}</span>
      <nav aria-label="Repository">
        ${Object.entries(PAGES).map(([page, [label]]) => html`<a href=${repoUrl(route.owner, route.repository, page)} onClick=${onLinkClick} aria-current=${page === route.page ? 'page' : undefined}>${label}</a>`)}
      </nav>` : null}
    <span class="spacer"></span>
    <a href="/docs">API reference</a>
    ${session.token() ? html`<button type="button" class="link" onClick=${signOut}>Sign out</button>` : null}
  </header>`;
}

function App() {
  const { path, search } = useLocation();
  const route = repoRoute(path);
  const signedIn = Boolean(session.token());
  let page;
  if (!signedIn || !route) {
    const next = new URLSearchParams(search).get('next') ?? (route ? path + search : null);
    page = html`<${SignIn} next=${next} />`;
  } else {
    const [label, Page] = PAGES[route.page];
    document.title = `${label} · ${route.owner}/${route.repository} · Switchyard`;
    page = html`<${Page} key=${`${route.owner}/${route.repository}/${route.page}`} owner=${route.owner} repository=${route.repository} search=${search} />`;
  }
  if (!signedIn || !route) document.title = 'Sign in · Switchyard';
  return html`<${Header} route=${signedIn ? route : null} />${page}`;
}

render(html`<${App} />`, document.getElementById('app'));
