// The one HTML page of the dashboard: styles, the modules preloaded, then the entry module,
// which draws every page.
// It holds no data: what a person sees comes from the API, rendered by Preact as text.
import { DASHBOARD_ASSETS } from './dashboard-assets.ts';

/** `modules`: every module the page imports, preloaded at once rather than found level by level. */
export function dashboardShell(modules: readonly string[]): string {
  const preloads = modules.map((name) => `<link rel="modulepreload" href="${DASHBOARD_ASSETS}/${name}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchyard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DASHBOARD_ASSETS}/uplot.css">
<link rel="stylesheet" href="${DASHBOARD_ASSETS}/dashboard.css">
${preloads}
<script type="module" src="${DASHBOARD_ASSETS}/main.js"></script>
</head>
<body>
<div id="app"><noscript><p>The dashboard needs JavaScript. The same data is in the API: see <a href="/docs">/docs</a>.</p></noscript></div>
</body>
</html>
`;
}
