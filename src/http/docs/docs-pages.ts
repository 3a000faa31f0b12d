// The HTML of /docs: the API reference (Swagger UI over /v1/openapi.json, served from this
// process) and the guides, under one header that links them all and the raw document.
import { guideUrl, renderGuide, type Guide } from './guides.ts';

export const ASSETS = '/docs/assets';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function header(guides: readonly Guide[], current: string | undefined): string {
  const link = (href: string, text: string, key: string) => `<a href="${href}"${key === current ? ' aria-current="page"' : ''}>${escapeHtml(text)}</a>`;
  return `<header class="site">
  <a class="brand" href="/docs">Switchyard</a>
  <nav aria-label="Documentation">
    ${link('/docs', 'API reference', 'reference')}
    ${guides.map((guide) => link(guideUrl(guide.slug), guide.title.replace(/:.*$/, ''), guide.slug)).join('\n    ')}
    <a href="/v1/openapi.json">OpenAPI document (JSON)</a>
  </nav>
</header>`;
}

function page(title: string, head: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
${head}<link rel="stylesheet" href="${ASSETS}/docs.css">
</head>
<body>
${body}
</body>
</html>
`;
}

export function referencePage(guides: readonly Guide[]): string {
  return page(
    'Switchyard API reference',
    `<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">\n`,
    `${header(guides, 'reference')}
<main id="reference">
  <noscript><p>The reference needs JavaScript; the same content is in <a href="/v1/openapi.json">the OpenAPI document</a>.</p></noscript>
  <div id="swagger-ui"></div>
</main>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/reference.js"></script>`,
  );
}

export function guidePage(guide: Guide, guides: readonly Guide[]): string {
  return page(`${guide.title} · Switchyard`, '', `${header(guides, guide.slug)}\n<main class="guide">\n${renderGuide(guide, guides)}</main>`);
}
