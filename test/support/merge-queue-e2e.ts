// Helpers of the merge queue's end-to-end tests: waiting for the platform or the log to say
// something, and reading a repository's whole activity log in order.
import assert from 'node:assert/strict';
import type { TestApp } from './test-app.ts';

export interface LoggedEvent {
  id: string;
  type: string;
  pull_request: number | string | null;
  metadata: Record<string, any>;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | false | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every event of the last day, oldest first, walking the list's pages. */
export async function queueEvents(t: Pick<TestApp, 'request'>, repo: string, query = ''): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let url: string | null = `/v1/repos/${repo}/logs?per_page=100${query}`;
  while (url) {
    const answer = await t.request('GET', url);
    assert.equal(answer.status, 200, answer.text);
    all.push(...answer.json.events);
    const next = /<([^>]+)>; rel="next"/.exec(answer.headers.get('link') ?? '');
    url = next ? new URL(next[1]!).pathname + new URL(next[1]!).search : null;
  }
  return all.reverse();
}
