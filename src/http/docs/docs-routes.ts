// /docs: the HTML reference and the guides. Not API: every route here carries the `hide` marker.
// Everything a page loads comes from this process (Swagger UI's files from the installed package),
// and the Content-Security-Policy says so to the browser.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../errors.ts';
import { ASSETS, guidePage, referencePage } from './docs-pages.ts';
import type { Guide } from './guides.ts';

const SWAGGER_UI_DIR = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')), 'static');

/** Swagger UI styles elements inline; scripts and everything else come from this origin only. */
const POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ASSET_FILES: Record<string, { path: string; type: string }> = {
  'swagger-ui-bundle.js': { path: join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { path: join(SWAGGER_UI_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'reference.js': { path: new URL('reference.js', import.meta.url).pathname, type: 'text/javascript; charset=utf-8' },
  'docs.css': { path: new URL('docs.css', import.meta.url).pathname, type: 'text/css; charset=utf-8' },
};

const hidden = { schema: { hide: true } } as const;

function html(reply: FastifyReply, body: string): FastifyReply {
  return reply.header('content-security-policy', POLICY).header('x-content-type-options', 'nosniff').type('text/html; charset=utf-8').send(body);
}

export function docsRoutes(app: FastifyInstance, guides: readonly Guide[]): void {
  const reference = referencePage(guides);
  const bySlug = new Map(guides.map((guide) => [guide.slug, guide]));
  const pages = new Map<string, string>();
  const assets = new Map<string, Promise<Buffer>>();

  app.get('/docs', hidden, async (_request, reply) => html(reply, reference));
  app.get('/docs/', hidden, async (_request, reply) => html(reply, reference));

  app.get<{ Params: { slug: string } }>('/docs/guides/:slug', hidden, async (request, reply) => {
    const guide = bySlug.get(request.params.slug);
    if (guide === undefined) throw new ApiError('route_not_found', `No guide named ${request.params.slug}.`);
    if (!pages.has(guide.slug)) pages.set(guide.slug, guidePage(guide, guides));
    return html(reply, pages.get(guide.slug)!);
  });

  app.get<{ Params: { file: string } }>(`${ASSETS}/:file`, hidden, async (request, reply) => {
    const asset = Object.hasOwn(ASSET_FILES, request.params.file) ? ASSET_FILES[request.params.file] : undefined;
    if (!asset) throw new ApiError('route_not_found', `No asset named ${request.params.file}.`);
    if (!assets.has(asset.path)) assets.set(asset.path, readFile(asset.path));
    return reply.header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').type(asset.type).send(await assets.get(asset.path));
  });
}
