// The dashboard (DESIGN.md §11): one HTML shell for every page, and the browser modules it loads,
// all from this process. The pages call the public /v1 API with the token the person pasted;
// nothing here reads a credential. Not API: every route carries the `hide` marker.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors.ts';
import { DASHBOARD_ASSETS, dashboardAssetFiles } from './dashboard-assets.ts';
import { dashboardShell } from './dashboard-shell.ts';

/**
 * Scripts only from this origin, never inline; styles from this origin (uPlot and Preact set
 * element styles through the CSSOM, which a policy does not restrict); requests to this origin only.
 */
export const DASHBOARD_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const hidden = { schema: { hide: true } } as const;

/** docs/dashboard.md's screenshots, so the guide at /docs/guides/dashboard shows them too. */
const SCREENSHOTS = new URL('../../docs/dashboard/', import.meta.url).pathname;
const SCREENSHOT_NAME = /^[a-z-]+-(1280|390)\.png$/;

function sendShell(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(html);
}

export function dashboardRoutes(app: FastifyInstance): void {
  const files = dashboardAssetFiles();
  const html = dashboardShell(Object.keys(files).filter((name) => name.endsWith('.js')));
  const loaded = new Map<string, Promise<Buffer>>();

  app.get('/', hidden, async (_request, reply) => sendShell(reply, html));
  // Every page of a repository is the same shell; the modules read the path and the query.
  app.get('/repos/:owner/:repository/:page', hidden, async (_request, reply) => sendShell(reply, html));

  app.get<{ Params: { file: string } }>('/docs/guides/dashboard/:file', hidden, async (request, reply) => {
    const { file } = request.params;
    if (!SCREENSHOT_NAME.test(file) || !existsSync(SCREENSHOTS + file)) throw new ApiError('route_not_found', `No screenshot named ${file}.`);
    return reply.header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').type('image/png').send(await readFile(SCREENSHOTS + file));
  });

  app.get<{ Params: { file: string } }>(`${DASHBOARD_ASSETS}/:file`, hidden, async (request, reply) => {
    const asset = Object.hasOwn(files, request.params.file) ? files[request.params.file] : undefined;
    if (!asset) throw new ApiError('route_not_found', `No asset named ${request.params.file}.`);
    if (!loaded.has(asset.path)) loaded.set(asset.path, readFile(asset.path).then(asset.transform ?? ((bytes) => bytes)));
    return reply
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .type(asset.type)
      .send(await loaded.get(asset.path));
  });
}
