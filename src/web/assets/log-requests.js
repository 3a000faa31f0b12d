// The two requests an activity-log view starts with (the aggregate and its first page of events),
// and the copies of them started early, as soon as the page's address is known (log-prefetch.js),
// so that the aggregate's scan runs while the page's modules are still arriving.
import { api, repoPath, session } from './api.js';
import { filterQuery } from './view-state.js';

export const PER_PAGE = 25;

/** The API paths of a view's aggregate and of the page of events it shows. */
export function logRequests(owner, repository, view) {
  const base = repoPath(owner, repository);
  const filters = filterQuery(view).toString();
  const pageQuery = new URLSearchParams(filters);
  pageQuery.set('per_page', String(PER_PAGE));
  if (view.cursor) pageQuery.set('cursor', view.cursor);
  return { base, aggregate: `${base}/logs/aggregate?${filters}`, page: `${base}/logs?${pageQuery}` };
}

const early = new Map();

/** Starts `path` now; the first `takeEarly` of it with the same token answers from this request. */
export function startEarly(path) {
  const answer = api(path);
  answer.catch(() => undefined); // the taker sees the failure; nobody else must be told
  early.set(path, { token: session.token(), answer });
}

/** The early request of `path`, once, if it was made with the token in use now. */
export function takeEarly(path) {
  const found = early.get(path);
  early.delete(path);
  return found && found.token === session.token() ? found.answer : null;
}
