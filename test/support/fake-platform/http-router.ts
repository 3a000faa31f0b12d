// Matches REST paths to handlers. `:name` is one path segment, `*name` the rest of the path
// (branch names hold slashes, sent either raw or as %2F); captures are percent-decoded.
import type { PlatformCore } from './platform-core.ts';
import type { Caller } from './platform-model.ts';

export interface RouteContext {
  core: PlatformCore;
  caller: Caller | undefined;
  params: string[];
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (context: RouteContext) => Promise<RouteResult> | RouteResult;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, template: string, handler: Handler): this {
    const source = template.replace(/[.]/g, '\\.').replace(/:\w+/g, '([^/]+)').replace(/\*\w+/g, '(.+)');
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), handler });
    return this;
  }

  match(method: string, path: string): { handler: Handler; params: string[] } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(path);
      if (found) return { handler: route.handler, params: found.slice(1).map((p) => decodeURIComponent(p)) };
    }
    return undefined;
  }
}

export function json(status: number, body?: unknown, headers?: Record<string, string>): RouteResult {
  return { status, body, headers };
}

export function message(status: number, text: string, errors?: unknown[]): RouteResult {
  return json(status, { message: text, documentation_url: 'https://docs.github.com/rest', ...(errors ? { errors } : {}), status: String(status) });
}

export function notFound(): RouteResult {
  return message(404, 'Not Found');
}
