// The one HTML page of the dashboard: styles, then the entry module, which draws every page.
// It holds no data: what a person sees comes from the API, rendered by Preact as text.
import { DASHBOARD_ASSETS } from './dashboard-assets.ts';

export function dashboardShell(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchyard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DASHBOARD_ASSETS}/uplot.css">
<link rel="stylesheet" href="${DASHBOARD_ASSETS}/dashboard.css">
<link rel="modulepreload" href="${DASHBOARD_ASSETS}/preact.js">
<link rel="modulepreload" href="${DASHBOARD_ASSETS}/uplot.js">
<script type="module" src="${DASHBOARD_ASSETS}/main.js"></script>
</head>
<body>
<div id="app"><noscript><p>The dashboard needs JavaScript. The same data is in the API: see <a href="/docs">/docs</a>.</p></noscript></div>
</body>
</html>
`;
}
