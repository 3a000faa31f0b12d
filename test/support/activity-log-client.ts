// The activity log as a client uses it: write events (and model them), read pages, and walk them
// by following the URLs of the `Link` header as given.
import assert from 'node:assert/strict';
import type { IngestEventInput } from '../../src/domain/events/index.ts';
import { modelEvents, type ModelEvent } from './activity-log-model.ts';
import type { TestApp, TestResponse } from './test-app.ts';

/** Ingests `events` (in batches of 1000) and returns them as the model sees them. */
export async function ingestEvents(t: TestApp, repository: string, events: readonly IngestEventInput[], now = Date.now()): Promise<ModelEvent[]> {
  const model: ModelEvent[] = [];
  for (let i = 0; i < events.length; i += 1000) {
    const chunk = events.slice(i, i + 1000);
    const response = await t.request('POST', `/v1/repos/${repository}/logs`, { body: { events: chunk } });
    assert.equal(response.status, 201, response.text);
    model.push(...modelEvents(repository, chunk, response.json.ids, now));
  }
  return model;
}

export interface Page {
  ids: string[];
  response: TestResponse;
  next?: string;
  prev?: string;
}

/** The next and prev URLs of a `Link` header. */
export function linksOf(header: string | null): { next?: string; prev?: string } {
  const links: { next?: string; prev?: string } = {};
  for (const match of (header ?? '').matchAll(/<([^>]*)>; rel="(next|prev)"/g)) links[match[2] as 'next' | 'prev'] = match[1]!;
  return links;
}

/** Ids as exact decimal text, read from the raw body (JSON.parse would round 64-bit values). */
export function idsOf(text: string): string[] {
  return [...text.matchAll(/\{"id":(\d+),"received_at"/g)].map((m) => m[1]!);
}

/** One page, by a path or by an absolute URL from a Link header (followed as is). */
export async function getPage(t: TestApp, pathOrUrl: string, headers: Record<string, string> = {}): Promise<Page> {
  const url = new URL(pathOrUrl, t.baseUrl);
  // Links may name another host (SWITCHYARD_PUBLIC_URL); the request still goes to the test app.
  const response = await t.request('GET', url.pathname + url.search, { headers });
  assert.equal(response.status, 200, `${pathOrUrl}: ${response.text}`);
  assert.equal(response.json.size, response.json.events.length);
  return { ids: idsOf(response.text), response, ...linksOf(response.headers.get('link')) };
}

/** Every page from `path` to the end, following rel="next". */
export async function walkNext(t: TestApp, path: string, limit = 1000): Promise<Page[]> {
  const pages = [await getPage(t, path)];
  while (pages[pages.length - 1]!.next) {
    assert.ok(pages.length < limit, 'the walk ends');
    pages.push(await getPage(t, pages[pages.length - 1]!.next!));
  }
  return pages;
}

/** Every page from `page` back to the first, following rel="prev". */
export async function walkPrev(t: TestApp, page: Page, limit = 1000): Promise<Page[]> {
  const pages = [page];
  while (pages[pages.length - 1]!.prev) {
    assert.ok(pages.length < limit, 'the walk ends');
    pages.push(await getPage(t, pages[pages.length - 1]!.prev!));
  }
  return pages.reverse();
}
