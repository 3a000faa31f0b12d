// Reading the activity log a page at a time, by keyset (DESIGN.md §8): ORDER BY received_at, id
// with a row comparison against the page's starting position, so a page deep in the log costs
// what the first one does (no OFFSET). The first page also reads the snapshot, the highest event
// id visible to the same statement; later pages keep to it, so writes during a walk never shift it.
// Positions are in milliseconds, which is exact: received_at only ever holds whole milliseconds
// (every write goes through EventQueries.insertBatch with a JS Date).
//
// On the embedded store a page is read in slices of the window (as aggregates are,
// event-aggregate.ts): PGlite has one session for every request, and a filter that matches few
// events of a long window would hold it for as long as the scan takes. Each slice is one statement
// over a stretch of time next to the last, newest first (oldest first for a prev seek), sized from
// how long the last one took, until the page is full or the window read; the snapshot is read
// first and keeps later writes out, as it does for the later pages of a walk.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { ActivityLogFilters, Seek, StoredEvent, TimeWindow } from '../../domain/activity-log/index.ts';
import type { Database } from '../database.ts';
import { matchEvents } from './event-filters.ts';
import { lastEventId, nextSliceLength, onSession } from '../session-slices.ts';

export interface PageRequest {
  readonly repositoryId: string;
  readonly window: TimeWindow;
  readonly filters: ActivityLogFilters;
  /** Rows to fetch: per_page + 1, so the caller learns whether more lie beyond. */
  readonly limit: number;
  /** Absent on a first page, which reads it. */
  readonly snapshot?: bigint | undefined;
  readonly seek?: Seek | undefined;
}

export interface FetchedPage {
  /** In the seek's order: newest first, or oldest first for a prev seek. */
  readonly rows: StoredEvent[];
  /** The snapshot a first page fixed; undefined when it found no rows. */
  readonly snapshot: bigint | undefined;
}

const COLUMNS = ['id', 'received_at', 'trigger', 'pull_request', 'base_ref', 'outcome', 'type', 'metadata'] as const;
const SIGNING_KEY_NAME = 'activity_log';

/** Rows after the seek position in its direction: (received_at, id) < (t, i) for next, > for prev. */
function beyond(eb: ExpressionBuilder<Database, 'events'>, seek: Seek): Expression<SqlBool> {
  const position = eb.tuple(new Date(seek.position.receivedAt), seek.position.id.toString());
  return eb(eb.refTuple('received_at', 'id'), seek.direction === 'next' ? '<' : '>', position);
}

/**
 * The part of the window a seek can reach: up to its position's millisecond (next) or from it
 * (prev). Implied by the row comparison, but said as a plain bound so the index scan starts at the
 * position: PostgreSQL 18's btree (PGlite) otherwise starts a backward scan at the window's end
 * and reads every row before the page.
 */
function reachableWindow(window: TimeWindow, seek: Seek | undefined): TimeWindow {
  if (!seek) return window;
  const at = seek.position.receivedAt;
  return seek.direction === 'next' ? { from: window.from, to: new Date(Math.min(window.to.getTime(), at + 1)) } : { from: new Date(Math.max(window.from.getTime(), at)), to: window.to };
}

/** Slices start an hour long and grow (at most eightfold) or shrink towards the target time. */
const FIRST_SLICE_MS = 3_600_000;
const NARROWEST_SLICE_MS = 1_000;

export class EventLogQueries {
  #signingKey: Promise<Buffer> | undefined;
  /**
   * Sliced pages (the embedded store): how long one slice should hold the session, how long the
   * first slice is, and the shortest. Tests fix slices short (target 0) to cut every walk into many.
   */
  slicing = { targetMs: 20, firstMs: FIRST_SLICE_MS, narrowestMs: NARROWEST_SLICE_MS };

  /** @param sliced read pages in slices of the window (PGlite, see above). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sliced = false,
  ) {}

  /** The page's query, unexecuted (the benchmark runs the same SQL directly). */
  pageQuery(request: PageRequest) {
    const { seek, snapshot } = request;
    const order = seek?.direction === 'prev' ? 'asc' : 'desc';
    return this.db
      .selectFrom('events')
      .select(COLUMNS)
      .$if(snapshot === undefined, (query) => query.select((eb) => eb.selectFrom('events as latest').select((sub) => sub.fn.max('latest.id').as('max_id')).as('snapshot')))
      .where((eb) => matchEvents(eb, { repositoryId: request.repositoryId, window: reachableWindow(request.window, seek), maxId: snapshot }, request.filters))
      .$if(seek !== undefined, (query) => query.where((eb) => beyond(eb, seek!)))
      .orderBy('received_at', order)
      .orderBy('id', order)
      .limit(request.limit);
  }

  async page(request: PageRequest): Promise<FetchedPage> {
    if (this.sliced) return this.pageInSlices(request);
    const rows = await this.pageQuery(request).execute();
    const snapshot = request.snapshot ?? rows[0]?.snapshot;
    return { rows, snapshot: snapshot === undefined || snapshot === null ? undefined : BigInt(snapshot) };
  }

  private async pageInSlices(request: PageRequest): Promise<FetchedPage> {
    const snapshot = request.snapshot ?? (await lastEventId(this.db));
    if (snapshot === undefined) return { rows: [], snapshot: undefined };
    const reach = reachableWindow(request.window, request.seek);
    const backwards = request.seek?.direction !== 'prev';
    const rows: StoredEvent[] = [];
    let sliceMs = this.slicing.firstMs;
    // The edge of what is read so far: the slices walk from the window's end (or start) inwards.
    let edge = backwards ? reach.to.getTime() : reach.from.getTime();
    while (rows.length < request.limit && (backwards ? edge > reach.from.getTime() : edge < reach.to.getTime())) {
      const next = backwards ? Math.max(reach.from.getTime(), edge - sliceMs) : Math.min(reach.to.getTime(), edge + sliceMs);
      const window = backwards ? { from: new Date(next), to: new Date(edge) } : { from: new Date(edge), to: new Date(next) };
      const query = this.pageQuery({ ...request, window, snapshot, limit: request.limit - rows.length });
      const { rows: found, ms } = await onSession(this.db, query.compile());
      rows.push(...found);
      sliceMs = Math.round(nextSliceLength(sliceMs, ms, this.slicing.targetMs, this.slicing.narrowestMs));
      edge = next;
    }
    return { rows, snapshot: rows.length > 0 || request.snapshot !== undefined ? snapshot : undefined };
  }

  /** The key cursors are signed with, made by migration 0003 and shared by every instance. */
  signingKey(): Promise<Buffer> {
    this.#signingKey ??= this.readSigningKey().catch((error: unknown) => {
      this.#signingKey = undefined; // an outage must not be remembered
      throw error;
    });
    return this.#signingKey;
  }

  private async readSigningKey(): Promise<Buffer> {
    const result = await sql<{ secret: string }>`select secret from cursor_signing_keys where name = ${SIGNING_KEY_NAME}`.execute(this.db);
    const secret = result.rows[0]?.secret;
    if (!secret) throw new Error('cursor signing key missing: migration 0003 has not run');
    return Buffer.from(secret, 'hex');
  }
}
