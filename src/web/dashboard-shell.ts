// The one HTML page of the dashboard: the activity log's early requests, the modules preloaded,
// the styles, then the entry module, which draws every page.
// It holds no data: what a person sees comes from the API, rendered by Preact as text.
import { DASHBOARD_ASSETS } from './dashboard-assets.ts';

/**
 * log-prefetch.js and what it imports: asked for first (an async script would otherwise be asked
 * for at low priority), and run as soon as they are here, so an activity log's aggregate starts
 * while the other modules are still on their way. The styles can be asked for after them: being in
 * the head, they still hold back the first paint until they are here. Keep the list in step with
 * log-prefetch.js's imports: a module missing here is only asked for later.
 */
export const EARLY_MODULES = ['log-prefetch.js', 'log-requests.js', 'api.js', 'view-state.js', 'repo-route.js'];

/** `modules`: every module the page imports, preloaded at once rather than found level by level. */
export function dashboardShell(modules: readonly string[]): string {
  const ordered = [...EARLY_MODULES.slice(1), ...modules.filter((name) => !EARLY_MODULES.includes(name))];
  const preloads = ordered.map((name) => `<link rel="modulepreload" href="${DASHBOARD_ASSETS}/${name}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchyard</title>
<link rel="icon" href="data:,">
<script type="module" async fetchpriority="high" src="${DASHBOARD_ASSETS}/${EARLY_MODULES[0]}"></script>
${preloads}
<link rel="stylesheet" href="${DASHBOARD_ASSETS}/uplot.css">
<link rel="stylesheet" href="${DASHBOARD_ASSETS}/dashboard.css">
<script type="module" src="${DASHBOARD_ASSETS}/main.js"></script>
</head>
<body>
<div id="app"><noscript><p>The dashboard needs JavaScript. The same data is in the API: see <a href="/docs">/docs</a>.</p></noscript></div>
</body>
</html>
`;
}
