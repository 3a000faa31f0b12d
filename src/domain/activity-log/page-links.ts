// The RFC 8288 `Link` header of a page: absolute URLs that repeat every filter as the client
// gave it (normalised) with `per_page` and the cursor, so following a link needs nothing else.
import { FILTER_PAIRS } from './activity-log-filters.ts';
import type { ActivityLogQuery } from './parse-filter-query.ts';

export type QueryParam = [name: string, value: string];

/** Every filter of the query as parameters, in a fixed order. */
export function filterParams(query: ActivityLogQuery): QueryParam[] {
  const params: QueryParam[] = [];
  for (const pair of FILTER_PAIRS) {
    const filter = query.filters[pair.key];
    if (filter) for (const value of filter.values) params.push([filter.exclude ? pair.exclude : pair.include, String(value)]);
  }
  if (query.filters.baseRef !== undefined) params.push(['base_ref', query.filters.baseRef]);
  if (query.bounds.from) params.push(['received_from', query.bounds.from.toISOString()]);
  if (query.bounds.to) params.push(['received_to', query.bounds.to.toISOString()]);
  return params;
}

export interface PageLinks {
  readonly next?: string | undefined;
  readonly prev?: string | undefined;
}

/**
 * `<url>; rel="next", <url>; rel="prev"`, each only when that page exists; undefined when neither
 * does. The URL is serialised by the URL library, which encodes what would end the `<…>`.
 */
export function linkHeader(pageUrl: URL | string, params: readonly QueryParam[], perPage: number, cursors: PageLinks): string | undefined {
  const links: string[] = [];
  for (const rel of ['next', 'prev'] as const) {
    const cursor = cursors[rel];
    if (cursor === undefined) continue;
    const url = new URL(pageUrl);
    url.search = new URLSearchParams([...params, ['per_page', String(perPage)], ['cursor', cursor]]).toString();
    links.push(`<${url.href}>; rel="${rel}"`);
  }
  return links.length > 0 ? links.join(', ') : undefined;
}
