// The OpenAPI 3.1 document at /v1/openapi.json, generated from the routes as registered, and the
// HTML reference and guides at /docs. Register before any route: routes are recorded as they come.
import type { FastifyInstance } from 'fastify';
import { stringifyJson } from '../json/exact-json.ts';
import { docsRoutes } from './docs/docs-routes.ts';
import { loadGuides } from './docs/guides.ts';
import { buildApiDocument } from './openapi/api-document.ts';
import { securitySchemes } from './openapi/document-info.ts';
import { recordRoutes, type RegisteredRoute } from './openapi/route-registry.ts';

export { securitySchemes };

export type SecuritySchemeName = keyof typeof securitySchemes;

export function security(...names: SecuritySchemeName[]): Record<string, string[]>[] {
  return names.map((name) => ({ [name]: [] }));
}

export interface OpenApiOptions {
  /** The server's body limit, documented on routes without their own. */
  bodyLimit: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after registerOpenApi, as declared (test/http/openapi-routes.test.ts walks them). */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  const routes = recordRoutes(app);
  app.decorate('registeredRoutes', routes);
  const guides = await loadGuides();
  let documentText = '';
  // Built once every route is known; a document that cannot be built (two schemas under one
  // name) stops start-up, as a duplicate route does.
  app.addHook('onReady', async () => {
    documentText = stringifyJson(buildApiDocument(routes, { bodyLimit: options.bodyLimit, guides }));
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async (_request, reply) => reply.type('application/json').send(documentText));
  docsRoutes(app, guides);
}
