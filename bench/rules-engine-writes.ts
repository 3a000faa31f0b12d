// The Summary check runs Switchyard wrote, as the fake platform received them (its request log):
// when each arrived, on which head, and what it said. A benchmark reads the platform's side, not
// Switchyard's, so a write counts only once it reached the platform.
import type { FakePlatform } from '../test/support/fake-platform/fake-platform.ts';
import { REPO, SUMMARY } from './rules-engine-scene.ts';

export interface SummaryWrite {
  /** When the platform received the write (its log's clock, Date.now()). */
  at: number;
  head: string;
  title: string;
  summary: string;
}

const CHECK_RUN = /\/check-runs(?:\/(\d+))?$/;

/** Summary writes (created or changed) among the platform's requests from `fromIndex` on. */
export function summaryWrites(platform: FakePlatform, fromIndex = 0): SummaryWrite[] {
  const runs = platform.repo(REPO).checkRuns;
  const writes: SummaryWrite[] = [];
  for (const request of platform.requestLog.slice(fromIndex)) {
    if ((request.method !== 'POST' && request.method !== 'PATCH') || request.status >= 300) continue;
    const match = CHECK_RUN.exec(request.url.split('?')[0]!);
    const body = request.body as { name?: string; head_sha?: string; output?: { title?: string; summary?: string } } | undefined;
    if (!match || !body || body.name !== SUMMARY) continue;
    const head = match[1] ? runs.get(BigInt(match[1]))?.headSha : body.head_sha;
    if (head) writes.push({ at: request.receivedAt, head, title: body.output?.title ?? '', summary: body.output?.summary ?? '' });
  }
  return writes;
}

/** Requests that changed something on the platform from `fromIndex` on, by kind ("PATCH check-runs"). */
export function mutationsByKind(platform: FakePlatform, fromIndex = 0): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const request of platform.requestLog.slice(fromIndex)) {
    if (request.method === 'GET' || request.method === 'HEAD') continue;
    const kind = `${request.method} ${request.url.split('?')[0]!.replace(/^\/repos\/[^/]+\/[^/]+\//, '').replace(/\/\d+$/, '/{id}')}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return kinds;
}
