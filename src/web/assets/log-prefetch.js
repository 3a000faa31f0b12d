// Run as soon as it arrives (an async module of the shell, with a graph of four small modules):
// on an activity-log address with a token, starts the view's aggregate and first page before
// Preact and the page's modules have arrived and rendered, which log-data.js then takes.
// The aggregate of a large window is most of the wait for the page (bench/RESULTS.md, first
// meaningful paint): started here, it no longer waits behind the modules.
import { session } from './api.js';
import { logRequests, startEarly } from './log-requests.js';
import { repoRoute } from './repo-route.js';
import { parseView } from './view-state.js';

const route = repoRoute(location.pathname);
if (route?.page === 'logs' && session.token()) {
  const requests = logRequests(route.owner, route.repository, parseView(location.search));
  startEarly(requests.aggregate);
  startEarly(requests.page);
}
