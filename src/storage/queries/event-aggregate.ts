// The aggregate of a filtered window (DESIGN.md §8): four statements (event-aggregate-parts.ts),
// each over the filters its fields must see and each from the event counts when they can answer
// it, all over one state of the log, so that total still equals the list whatever is written
// meanwhile. How that state is held depends on the backend:
//   PostgreSQL: one REPEATABLE READ snapshot, the parts at once on several connections sharing it;
//   PGlite: its one session serves every request, so a statement holds all of them up for as long
//     as it runs. The parts are cut into slices of the window, each a statement of about 20 ms
//     (shorter slices cost more than they give: each statement has a fixed cost of a few
//     milliseconds in PGlite; bench/RESULTS.md), and the requests waiting meanwhile get the
//     session between two slices. The numbers of a facet cross from PGlite packed in one value. The
//     state is fixed by the last event id when the aggregate began: PGlite runs one transaction at
//     a time, so every event up to that id is already there and every later one has a higher id,
//     which the slices leave out (event-aggregate-parts.ts); retention, the only writer that
//     removes events, waits for sliced aggregates to end (`deleting`). Counts are added up here.
// Before either, the columnar copy (src/storage/columnar/) answers when it can do so exactly: in
// DuckDB, off the storage connections, tens of times faster; storage answers the rest.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { ActivityLogFilters } from '../../domain/activity-log/index.ts';
import type { GroupCount } from '../../domain/activity-log/aggregate-result.ts';
import { FACET_LIMIT } from '../../domain/activity-log/facets.ts';
import { compareDecimal } from '../../domain/int64.ts';
import type { Database } from '../database.ts';
import type { EventScope } from './event-filters.ts';
import { ConcurrencyLimit } from '../concurrency-limit.ts';
import { ReadWriteGate } from '../read-write-gate.ts';
import { lastEventId, nextSliceLength, onSession } from '../session-slices.ts';
import { AggregateParts, type PartRow } from './event-aggregate-parts.ts';
import type { EventCopy } from '../columnar/event-copy.ts';

/** How the parts of an aggregate share one state of the log (see above). */
export type AggregateMode = 'parallel' | 'one-transaction' | 'sliced';

/**
 * Slices start an hour long and grow or shrink towards the target time, but are never shorter
 * than an hour: measured when the counts by number were hourly (a slice cut inside an hour read
 * that hour's events, several times slower at a million events a day); since migration 0034 the
 * facets by number read events anyway, and the hour is kept as measured.
 */
const FIRST_SLICE_SECONDS = 3600;
const NARROWEST_SLICE_SECONDS = 3600;
/** Slice ends fall on these boundaries when the slice is at least that long, so whole count slots serve it. */
const SLICE_ALIGNMENTS = [86400, 14400, 3600, 600];

export class EventAggregateQueries {
  // An aggregate may still read many events (a facet by number under a filter): one at a time
  // per process, so concurrent aggregates queue among themselves instead of taking every core
  // from the cheap requests (bench/RESULTS.md, mixed traffic).
  private readonly scans = new ConcurrencyLimit(1, 100);
  readonly parts: AggregateParts;
  /** Sliced aggregates read; retention deletes (`deleting`). */
  private readonly deletions = new ReadWriteGate();
  /**
   * Sliced mode: how long one slice should hold the session (milliseconds), and the shortest slice
   * (seconds, a multiple of 3600). Tests set the target to 0 to cut windows into slices of the
   * shortest length they choose, and `afterSlice` to act between two slices (the session free).
   */
  slicing: { targetMs: number; narrowestSeconds: number; afterSlice?: (slices: number) => Promise<void> } = { targetMs: 20, narrowestSeconds: NARROWEST_SLICE_SECONDS };
  /** Sliced mode: the longest any one statement held the session so far (benchmarks read it). */
  longestSliceMs = 0;

  /**
   * @param mode 'parallel': the parts at once on several connections (PostgreSQL with a pool of
   *   four or more); 'one-transaction': one after the other in one transaction (a smaller pool);
   *   'sliced': PGlite (see above).
   */
  /** Whether the columnar copy is asked first (tests turn it off to test storage's own answers). */
  copyEnabled = true;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly mode: AggregateMode = 'one-transaction',
    readonly copy?: EventCopy,
  ) {
    this.parts = new AggregateParts(db);
  }

  async aggregate(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<GroupCount[]> {
    const rows = await this.scans.run(async () => {
      const copied = this.copyEnabled ? await this.copy?.aggregate(scope, filters, stepSeconds) : undefined;
      if (copied) return copied;
      if (this.mode === 'sliced') return this.deletions.read(() => this.inSlices(scope, filters, stepSeconds));
      const statements = this.statements(scope, filters, stepSeconds);
      return this.mode === 'parallel' ? this.inParallel(statements) : this.inOne(statements);
    });
    return rows.map((row) => {
      const n = Number(row.n);
      // Each part already applied the filters its facet must see, so its count serves every column.
      return { grouping: row.grouping, value: row.value, all: n, notTrigger: n, notPull: n, notBatch: n };
    });
  }

  /** Runs a deletion of events when no sliced aggregate is reading (retention). */
  deleting<T>(task: () => Promise<T>): Promise<T> {
    return this.deletions.write(task);
  }

  /**
   * PGlite: each part over consecutive slices of the window, fixed on the last event id, the
   * counts added up here; the number facets are cut to their first 200 once every slice is in.
   */
  private async inSlices(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<PartRow[]> {
    const fixed: EventScope = { ...scope, maxId: scope.maxId ?? (await lastEventId(this.db)) ?? 0n };
    const counts = new Map<string, PartRow & { n: number }>();
    const add = (grouping: PartRow['grouping'], value: string | null, n: number) => {
      const key = `${grouping} ${value}`;
      const total = counts.get(key);
      if (total) total.n += n;
      else counts.set(key, { grouping, value, n });
    };
    const slices = { done: 0 };
    for (const part of [(slice: EventScope) => this.parts.main(slice, filters, stepSeconds), (slice: EventScope) => this.parts.trigger(slice, filters)]) {
      await this.eachSlice(fixed, part, slices, (row) => add(row.grouping, row.value, Number(row.n)));
    }
    const numbers: PartRow[] = [];
    for (const facet of ['pull_request', 'batch_pull_request'] as const) {
      const tally = new Map<string, number>();
      await this.eachSlice(fixed, (slice) => this.parts.packedNumbers(slice, filters, facet), slices, ({ packed }) => {
        if (!packed) return;
        for (const pair of packed.split(',')) {
          const colon = pair.indexOf(':');
          const number = pair.slice(0, colon);
          tally.set(number, (tally.get(number) ?? 0) + Number(pair.slice(colon + 1)));
        }
      });
      numbers.push(...firstByCount(tally, FACET_LIMIT).map(([value, n]) => ({ grouping: facet, value, n })));
    }
    return [...[...counts.values()].filter((row) => row.n !== 0), ...numbers];
  }

  /**
   * One part over the window, slice after slice, each slice sized from how long the last one held
   * the session (the time waited for the session is not counted).
   */
  private async eachSlice<R>(scope: EventScope, part: (slice: EventScope) => RawBuilder<R>, slices: { done: number }, add: (row: R) => void): Promise<void> {
    const end = scope.window.to.getTime();
    let from = scope.window.from.getTime();
    const { targetMs, narrowestSeconds } = this.slicing;
    let seconds = Math.max(FIRST_SLICE_SECONDS, narrowestSeconds);
    while (from < end) {
      const to = sliceEnd(from, seconds, end);
      const statement = part({ ...scope, window: { from: new Date(from), to: new Date(to) } });
      const { rows, ms } = await onSession(this.db, statement.compile(this.db));
      this.longestSliceMs = Math.max(this.longestSliceMs, ms);
      for (const row of rows) add(row);
      await this.slicing.afterSlice?.(++slices.done);
      seconds = nextSliceLength(seconds, ms, targetMs, narrowestSeconds);
      from = to;
    }
  }

  /** Every part in one transaction, one after the other (a pool too small to run them at once). */
  private inOne(statements: RawBuilder<PartRow>[]): Promise<PartRow[]> {
    return this.snapshot(async (trx) => {
      const found: PartRow[] = [];
      for (const statement of statements) found.push(...(await statement.execute(trx)).rows);
      return found;
    });
  }

  /**
   * PostgreSQL: the first part in a transaction whose snapshot it exports, the others at once on
   * their own connections, each importing that snapshot (SET TRANSACTION SNAPSHOT), so the parts
   * use both cores and still see one state of the log.
   */
  private inParallel(statements: RawBuilder<PartRow>[]): Promise<PartRow[]> {
    const [first, ...others] = statements;
    return this.snapshot(async (trx) => {
      const { rows } = await sql<{ snapshot: string }>`SELECT pg_export_snapshot() AS snapshot`.execute(trx);
      const exported = rows[0]!.snapshot;
      const found = await Promise.all([
        first!.execute(trx).then((result) => result.rows),
        ...others.map((statement) => this.snapshot(async (other) => (await statement.execute(other)).rows, exported)),
      ]);
      return found.flat();
    });
  }

  /** A REPEATABLE READ transaction (on an exported snapshot when given), with room for the hash tables of a large window. */
  private snapshot<T>(run: (trx: Transaction<Database>) => Promise<T>, imported?: string): Promise<T> {
    return this.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      // Must be the transaction's first statement.
      if (imported) await sql`SET TRANSACTION SNAPSHOT ${sql.lit(imported)}`.execute(trx);
      // SET LOCAL ends with the transaction, so other queries keep the server's setting.
      await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
      return run(trx);
    });
  }

  /** The statements of one aggregate (also for EXPLAIN in benchmarks). */
  statements(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number) {
    return [
      this.parts.main(scope, filters, stepSeconds),
      this.parts.trigger(scope, filters),
      this.parts.numbers(scope, filters, 'pull_request'),
      this.parts.numbers(scope, filters, 'batch_pull_request'),
    ];
  }
}

/**
 * The end of a slice that starts at `from` and should last about `seconds`: on the boundary of the
 * widest count slot no longer than the slice, at least one narrowest slot past `from`, at most
 * `end` (epoch milliseconds; `from` and `end` may fall between slots).
 */
function sliceEnd(from: number, seconds: number, end: number): number {
  const unit = (SLICE_ALIGNMENTS.find((width) => width <= seconds) ?? NARROWEST_SLICE_SECONDS) * 1000;
  const aligned = Math.floor((from + seconds * 1000) / unit) * unit;
  const narrowest = NARROWEST_SLICE_SECONDS * 1000;
  const next = (Math.floor(from / narrowest) + 1) * narrowest;
  return Math.min(end, Math.max(aligned, next));
}

/** The first `limit` numbers by count descending, then number ascending (the facets' order), without sorting them all; zero counts left out. */
function firstByCount(tally: Map<string, number>, limit: number): [string, number][] {
  const before = (a: [string, number], b: [string, number]) => a[1] > b[1] || (a[1] === b[1] && compareDecimal(a[0], b[0]) < 0);
  const first: [string, number][] = [];
  for (const entry of tally) {
    if (entry[1] === 0 || (first.length === limit && !before(entry, first[limit - 1]!))) continue;
    let at = first.length;
    while (at > 0 && before(entry, first[at - 1]!)) at--;
    first.splice(at, 0, entry);
    if (first.length > limit) first.pop();
  }
  return first;
}
