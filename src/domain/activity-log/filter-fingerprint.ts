// A short digest of everything a page depends on besides its position: the repository, the
// normalised filters and the window bounds the client gave. A cursor carries it, so a cursor
// replayed against other filters is refused instead of quietly returning a mixture.
import { createHash } from 'node:crypto';
import { FILTER_PAIRS } from './activity-log-filters.ts';
import type { ActivityLogQuery } from './parse-filter-query.ts';

export const FINGERPRINT_BYTES = 8;

export function filterFingerprint(repositoryId: string, query: ActivityLogQuery): Buffer {
  const { filters, bounds } = query;
  const pairs = FILTER_PAIRS.map(({ key }) => {
    const filter = filters[key];
    return filter ? [filter.exclude, filter.values.map(String)] : null;
  });
  const canonical = JSON.stringify([repositoryId, pairs, filters.baseRef ?? null, bounds.from?.getTime() ?? null, bounds.to?.getTime() ?? null]);
  return createHash('sha256').update(canonical).digest().subarray(0, FINGERPRINT_BYTES);
}
