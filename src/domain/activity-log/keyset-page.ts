// Cutting a page out of what the keyset query fetched (per_page + 1 rows, so whether more rows
// lie beyond is known without counting), and where the pages either side of it start.
import type { KeysetPosition, PageDirection } from './page-cursor.ts';

/** Where a page starts: just after `position` in the listing's order (next), or just before it (prev). */
export interface Seek {
  readonly direction: PageDirection;
  readonly position: KeysetPosition;
}

export interface PageSlice<R> {
  /** In the listing's order: newest first. */
  readonly rows: R[];
  /** Position to seek next from, when a next page exists. */
  readonly next?: KeysetPosition | undefined;
  /** Position to seek prev from, when a previous page exists. */
  readonly prev?: KeysetPosition | undefined;
}

/**
 * `fetched` is in the order of the seek: newest first for a first or next page, oldest first for
 * a prev page. A page reached through a cursor always has the page it came from on its other side.
 */
export function slicePage<R>(fetched: readonly R[], perPage: number, seek: Seek | undefined, positionOf: (row: R) => KeysetPosition): PageSlice<R> {
  const more = fetched.length > perPage;
  const taken = fetched.slice(0, perPage);
  const rows = seek?.direction === 'prev' ? taken.reverse() : taken;
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) return { rows };
  if (seek?.direction === 'prev') return { rows, next: positionOf(last), prev: more ? positionOf(first) : undefined };
  return { rows, next: more ? positionOf(last) : undefined, prev: seek ? positionOf(first) : undefined };
}
