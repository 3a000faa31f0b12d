// Every route the app registers, as declared: the OpenAPI document is generated from this list,
// and the test that keeps the document complete walks it (test/http/openapi-routes.test.ts).
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

export interface RegisteredRoute {
  readonly method: string;
  /** As registered, with the plugin prefix: `/v1/repos/:owner/:repository/logs`. */
  readonly url: string;
  readonly schema: FastifySchema | undefined;
  /** Route config: `rateLimit: false` exempts a route from the rate limit. */
  readonly config: Readonly<Record<string, unknown>>;
  /** The route's own body limit, when it has one; else the server's. */
  readonly bodyLimit: number | undefined;
}

/** Starts recording; routes registered before this call are not seen, so call it first. */
export function recordRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (options: RouteOptions) => {
    for (const method of [options.method].flat()) {
      // Fastify adds a HEAD route beside every GET; it answers as the GET does.
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: options.url,
        schema: options.schema,
        config: (options.config ?? {}) as Record<string, unknown>,
        bodyLimit: options.bodyLimit,
      });
    }
  });
  return routes;
}

/** Whether a route is part of the API document: every route is, unless marked `hide`. */
export function isDocumented(route: RegisteredRoute): boolean {
  return route.schema?.hide !== true;
}
