// The four parts of an aggregate (DESIGN.md §8), each over the filters it must see, each as a
// statement that reads the event counts of migration 0030 when they can answer it, else the
// window's events:
//   main (histogram, by_event_type, by_outcome; total is the histogram's sum): every filter;
//   by_trigger: every filter but trigger / not_trigger;
//   by_pull_request, by_batch_pull_request: every filter but their own pair, cut to the first
//   200 in the database (count descending, then number ascending, as rankFacet orders them).
// The counts are kept per type, outcome, trigger and base_ref, so they apply any filter on those.
// The facets by number read the window's events (their hourly counts were dropped in migration
// 0034: the columnar copy answers those facets first, src/storage/columnar/).
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ActivityLogFilters } from '../../domain/activity-log/index.ts';
import { coverWindow } from '../../domain/activity-log/count-cover.ts';
import { FACET_LIMIT } from '../../domain/activity-log/facets.ts';
import type { TimeWindow } from '../../domain/activity-log/time-window.ts';
import type { Database } from '../database.ts';
import { matchEvents, type EventScope } from './event-filters.ts';

/** Slot widths of event_counts (migration 0030), widest first. */
const COUNT_WIDTHS = [86400, 14400, 600];

export type NumberFacet = 'pull_request' | 'batch_pull_request';

export interface PartRow {
  grouping: 'histogram' | 'type' | 'outcome' | 'trigger' | NumberFacet;
  value: string | null;
  n: string | number;
}

/** Whether the counts by type, outcome, trigger and base_ref can apply these filters. */
export function countable(filters: ActivityLogFilters): boolean {
  return filters.pullRequest === undefined && filters.batchPull === undefined;
}

/** The filters on type, outcome, trigger and base_ref, on any relation with those columns. */
function countConditions(filters: ActivityLogFilters): RawBuilder<SqlBool> {
  const conditions: RawBuilder<unknown>[] = [];
  if (filters.baseRef !== undefined) conditions.push(sql`base_ref = ${filters.baseRef}`);
  for (const [column, filter] of [['type', filters.eventType], ['outcome', filters.outcome], ['trigger', filters.trigger]] as const) {
    if (filter) conditions.push(sql`${sql.ref(column)} ${sql.raw(filter.exclude ? 'NOT IN' : 'IN')} (${sql.join(filter.values)})`);
  }
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` AND `)})` : sql<SqlBool>`true`;
}

/** The histogram bucket of an event: its slot of the step's width (migration 0005's event_slot), as an index. */
function bucketOf(stepSeconds: number) {
  return sql<number>`event_slot(received_at, ${stepSeconds}) / ${stepSeconds}`;
}

function inEdge(repositoryId: string, edge: TimeWindow) {
  return sql`repository_id = ${repositoryId} AND received_at >= ${edge.from} AND received_at < ${edge.to}`;
}

/**
 * The events of the window written after the scope's last id, counted -1 each: the counts and the
 * edges of one statement see them, and a scope fixed on an id must not (sliced aggregates,
 * event-aggregate.ts). Few rows, found by the primary key.
 */
function laterEvents(scope: EventScope, columns: RawBuilder<unknown>, where: RawBuilder<unknown>) {
  if (scope.maxId === undefined) return [];
  return [sql`SELECT ${columns}, -1 AS n FROM events WHERE id > ${scope.maxId.toString()} AND ${inEdge(scope.repositoryId, scope.window)} AND ${where}`];
}

/**
 * Rows of (columns..., n) over the window: whole slots from event_counts, the rest from the
 * events (n = 1). `slotColumns` and `eventColumns` select the same columns from each.
 */
function countRows(scope: EventScope, filters: ActivityLogFilters, widths: number[], slotColumns: RawBuilder<unknown>, eventColumns: RawBuilder<unknown>) {
  const cover = coverWindow(scope.window, widths);
  const where = countConditions(filters);
  const rows = [
    ...cover.slots.map((s) => sql`SELECT ${slotColumns}, n FROM event_counts
       WHERE repository_id = ${scope.repositoryId} AND width = ${s.width} AND slot_start >= ${s.first} AND slot_start < ${s.end} AND ${where}`),
    ...cover.edges.map((edge) => sql`SELECT ${eventColumns}, 1 AS n FROM events WHERE ${inEdge(scope.repositoryId, edge)} AND ${where}`),
    ...laterEvents(scope, eventColumns, where),
  ];
  return rows.length ? sql.join(rows, sql` UNION ALL `) : sql`SELECT ${eventColumns}, 1 AS n FROM events WHERE false`;
}

const MAIN_GROUPING = sql`CASE WHEN grouping(bucket) = 0 THEN 'histogram' WHEN grouping(type) = 0 THEN 'type' ELSE 'outcome' END AS grouping,
  coalesce(bucket::text, type, outcome) AS value`;

export class AggregateParts {
  constructor(private readonly db: Kysely<Database>) {}

  /** Histogram, types and outcomes, every filter applied. */
  main(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): RawBuilder<PartRow> {
    // A count slot lies in one bucket only when its width divides the step (steps of 600 s and up).
    const widths = COUNT_WIDTHS.filter((width) => stepSeconds % width === 0);
    if (countable(filters) && widths.length > 0) {
      const rows = countRows(scope, filters, widths, sql`floor(slot_start::double precision / ${stepSeconds})::bigint AS bucket, type, outcome`, sql`${bucketOf(stepSeconds)} AS bucket, type, outcome`);
      return sql<PartRow>`SELECT ${MAIN_GROUPING}, sum(n) AS n FROM (${rows}) AS found GROUP BY GROUPING SETS ((bucket), (type), (outcome))`;
    }
    const events = this.db.selectFrom('events').where((eb) => matchEvents(eb, scope, filters)).select([bucketOf(stepSeconds).as('bucket'), 'type', 'outcome']);
    return sql<PartRow>`SELECT ${MAIN_GROUPING}, count(*) AS n FROM (${events}) AS found GROUP BY GROUPING SETS ((bucket), (type), (outcome))`;
  }

  /** by_trigger: every filter but the trigger pair. Triggers are few; Node ranks them. */
  trigger(scope: EventScope, filters: ActivityLogFilters): RawBuilder<PartRow> {
    const rest = { ...filters, trigger: undefined };
    if (countable(rest)) {
      const rows = countRows(scope, rest, COUNT_WIDTHS, sql`trigger`, sql`trigger`);
      return sql<PartRow>`SELECT 'trigger' AS grouping, trigger AS value, sum(n) AS n FROM (${rows}) AS found GROUP BY trigger`;
    }
    const events = this.db.selectFrom('events').where((eb) => matchEvents(eb, scope, rest)).select('trigger');
    return sql<PartRow>`SELECT 'trigger' AS grouping, trigger AS value, count(*) AS n FROM (${events}) AS found GROUP BY trigger`;
  }

  /** by_pull_request or by_batch_pull_request: every filter but its own pair, first 200. */
  numbers(scope: EventScope, filters: ActivityLogFilters, facet: NumberFacet): RawBuilder<PartRow> {
    return sql<PartRow>`SELECT ${facet} AS grouping, number::text AS value, n FROM (${this.numberCounts(scope, filters, facet)}) AS counted
      ORDER BY n DESC, number LIMIT ${FACET_LIMIT}`;
  }

  /**
   * Every number of the facet with its count, packed into one text value ("number:count,…"), for
   * a slice of the window whose counts are added up elsewhere: one value crosses from the
   * embedded store far faster than as many rows.
   */
  packedNumbers(scope: EventScope, filters: ActivityLogFilters, facet: NumberFacet): RawBuilder<{ packed: string | null }> {
    return sql<{ packed: string | null }>`SELECT string_agg(number::text || ':' || n::text, ',') AS packed FROM (${this.numberCounts(scope, filters, facet)}) AS counted`;
  }

  /** (number, n) of the facet: every filter but its own pair, from the window's events. */
  private numberCounts(scope: EventScope, filters: ActivityLogFilters, facet: NumberFacet): RawBuilder<unknown> {
    const rest = { ...filters, [facet === 'pull_request' ? 'pullRequest' : 'batchPull']: undefined };
    const events = this.db.selectFrom('events').where((eb) => matchEvents(eb, scope, rest)).where(facet, 'is not', null).select(sql.ref(facet).as('number'));
    return sql`SELECT number, count(*) AS n FROM (${events}) AS found GROUP BY number`;
  }
}
