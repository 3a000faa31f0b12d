// The dashboard's addresses of a repository's pages. Imports nothing, so the early requests of
// log-prefetch.js can read the route before Preact has arrived.

/** `/repos/{owner}/{repository}/{page}` of the dashboard, or null. */
export function repoRoute(path) {
  const match = /^\/repos\/([^/]+)\/([^/]+)\/(logs|queue|rules|settings)$/.exec(path);
  if (!match) return null;
  return { owner: decodeURIComponent(match[1]), repository: decodeURIComponent(match[2]), page: match[3] };
}

export const repoUrl = (owner, repository, page, search = '') =>
  `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repository)}/${page}${search ? `?${search}` : ''}`;
