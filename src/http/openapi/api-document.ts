// The OpenAPI 3.1 document, generated from the routes as registered: one operation per route
// not marked `hide`, its schemas named as components (named-schemas.ts).
import type { Guide } from '../docs/guides.ts';
import { API_PREFIX, documentInfo, securitySchemes } from './document-info.ts';
import { nameSchemas } from './named-schemas.ts';
import { operationObject } from './operation-object.ts';
import { isDocumented, type RegisteredRoute } from './route-registry.ts';
import { shareHeaders } from './shared-headers.ts';

type Json = Record<string, unknown>;

export interface ApiDocumentOptions {
  /** The server's body limit, for routes without their own. */
  bodyLimit: number;
  guides: readonly Guide[];
}

/** `/v1/repos/:owner/:repository` → `/repos/{owner}/{repository}`; a route outside /v1 keeps its path and says its server. */
export function documentPath(url: string): { path: string; underPrefix: boolean } {
  const templated = url.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
  const underPrefix = templated.startsWith(`${API_PREFIX}/`);
  return { path: underPrefix ? templated.slice(API_PREFIX.length) : templated, underPrefix };
}

export function buildApiDocument(routes: readonly RegisteredRoute[], options: ApiDocumentOptions): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes.filter(isDocumented)) {
    const { path, underPrefix } = documentPath(route.url);
    paths[path] ??= underPrefix ? {} : { servers: [{ url: '/' }] };
    paths[path][route.method.toLowerCase()] = operationObject(route, options.bodyLimit);
  }
  const sorted = Object.fromEntries(Object.keys(paths).sort().map((path) => [path, paths[path]]));
  const named = nameSchemas(sorted);
  const headers = shareHeaders(named.paths);
  return { ...documentInfo(options.guides), paths: named.paths, components: { schemas: named.schemas, headers, securitySchemes } };
}
