// The aggregate of a filtered window in one pass (DESIGN.md §8). The rows read are those that
// pass every filter except the three pairs some facet ignores (trigger, pull_request,
// batch_pull); each row carries whether it passes each of those three, and one GROUP BY
// GROUPING SETS counts, per grouping, only the rows its facet must see:
//   histogram, by_event_type, by_outcome: all three;  by_trigger: pull and batch;
//   by_pull_request: trigger and batch;  by_batch_pull_request: trigger and pull.
// So the window is read once, however many facets there are.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ActivityLogFilters } from '../../domain/activity-log/index.ts';
import type { GroupCount, Grouping } from '../../domain/activity-log/aggregate-result.ts';
import { FACET_LIMIT } from '../../domain/activity-log/facets.ts';
import type { Database } from '../database.ts';
import { filterConditions, matchEvents, type EventScope } from './event-filters.ts';
import { ConcurrencyLimit } from '../concurrency-limit.ts';


/** Slot widths of the count tables (migration 0005). */
const COUNT_SLOT_SECONDS = 600;
const PULL_SLOT_SECONDS = 3600;

/**
 * The counts answer an aggregate with no filter (they are kept per type, outcome, trigger and
 * number, not per combination with base ref or pull request) whose histogram step is made of
 * whole count slots. Such windows are longer than 200 steps of 120 s, so they hold whole slots.
 */
function countsServe(filters: ActivityLogFilters, stepSeconds: number): boolean {
  return Object.values(filters).every((filter) => filter === undefined) && stepSeconds % COUNT_SLOT_SECONDS === 0;
}

/** The histogram bucket of an event: its slot of the step's width (migration 0005's event_slot, as the counts use), as an index. */
function bucketOf(stepSeconds: number) {
  return sql<number>`event_slot(received_at, ${stepSeconds}) / ${stepSeconds}`;
}

interface RawRow {
  grouping: Grouping;
  value: string | null;
  all_n: string;
  trigger_n: string;
  pull_n: string;
  batch_n: string;
}

export class EventAggregateQueries {
  // A scan reads every event of its window (about 150 ms of a core for 100,000): one at a time
  // per process, so concurrent aggregates queue among themselves instead of taking every core
  // from the cheap requests (bench/RESULTS.md, mixed traffic).
  private readonly scans = new ConcurrencyLimit(1, 100);

  constructor(private readonly db: Kysely<Database>) {}

  async aggregate(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<GroupCount[]> {
    if (countsServe(filters, stepSeconds)) {
      const { rows } = await this.fromCounts(scope, stepSeconds).execute(this.db);
      return rows.map((row) => {
        const n = Number(row.n);
        return { grouping: row.grouping, value: row.value, all: n, notTrigger: n, notPull: n, notBatch: n };
      });
    }
    const result = await this.scans.run(() => this.db.transaction().execute(async (trx) => {
      // Measured (bench/logs-aggregate.ts): with the default 4 MB the planner sorts one grouping
      // set and spills it to disk; with room for every hash table it hashes all six in one pass.
      // SET LOCAL ends with the transaction, so other queries keep the server's setting.
      await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
      return this.query(scope, filters, stepSeconds).execute(trx);
    }));
    return result.rows.map((row) => ({
      grouping: row.grouping,
      value: row.value,
      all: Number(row.all_n),
      notTrigger: Number(row.trigger_n),
      notPull: Number(row.pull_n),
      notBatch: Number(row.batch_n),
    }));
  }

  /**
   * The unfiltered aggregate from the counts of migration 0005: whole slots inside the window
   * from the count tables, the parts of slots the window cuts at either end from the events. The
   * facets of numbers are cut to their first 200 here, in the order rankFacet gives them.
   */
  fromCounts(scope: EventScope, stepSeconds: number) {
    const { repositoryId, window } = scope;
    const slots = (width: number) => {
      const first = Math.ceil(window.from.getTime() / (width * 1000)) * width;
      const end = Math.floor(window.to.getTime() / (width * 1000)) * width;
      // The window's own events before the first whole slot and after the last one.
      const edges = (columns: RawBuilder<unknown>) => sql`
        SELECT ${columns} FROM events WHERE repository_id = ${repositoryId} AND received_at >= ${window.from} AND received_at < ${new Date(first * 1000)}
        UNION ALL
        SELECT ${columns} FROM events WHERE repository_id = ${repositoryId} AND received_at >= ${new Date(end * 1000)} AND received_at < ${window.to}`;
      return { first, end, edges };
    };
    const counts = slots(COUNT_SLOT_SECONDS);
    const pulls = slots(PULL_SLOT_SECONDS);
    const numbers = (facet: 'pull_request' | 'batch_pull_request') => sql`
      SELECT ${facet} AS grouping, number::text AS value, sum(n) AS n FROM (
        SELECT number, n FROM event_number_counts
         WHERE repository_id = ${repositoryId} AND facet = ${facet} AND slot_start >= ${pulls.first} AND slot_start < ${pulls.end}
        UNION ALL ${pulls.edges(sql`${sql.ref(facet)} AS number, 1 AS n`)}) AS found
      WHERE number IS NOT NULL
      GROUP BY number ORDER BY sum(n) DESC, number LIMIT ${FACET_LIMIT}`;
    return sql<{ grouping: Grouping; value: string | null; n: string | number }>`
      SELECT CASE WHEN grouping(bucket) = 0 THEN 'histogram' WHEN grouping(type) = 0 THEN 'type'
                  WHEN grouping(outcome) = 0 THEN 'outcome' ELSE 'trigger' END AS grouping,
             coalesce(bucket::bigint::text, type, outcome, trigger) AS value, sum(n) AS n
      FROM (
        SELECT floor(slot_start::double precision / ${stepSeconds}) AS bucket, type, outcome, trigger, n FROM event_counts
         WHERE repository_id = ${repositoryId} AND slot_start >= ${counts.first} AND slot_start < ${counts.end}
        UNION ALL ${counts.edges(sql`${bucketOf(stepSeconds)} AS bucket, type, outcome, trigger, 1 AS n`)}) AS found
      GROUP BY GROUPING SETS ((bucket), (type), (outcome), (trigger))
      UNION ALL (${numbers('pull_request')})
      UNION ALL (${numbers('batch_pull_request')})`;
  }

  /** The statement alone (for EXPLAIN in benchmarks). */
  query(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number) {
    const { trigger, pullRequest, batchPull, ...always } = filters;
    // Whether a row (already in the scope) passes one pair (true when the pair is not given).
    const passes = (eb: Parameters<typeof matchEvents>[0], only: ActivityLogFilters | undefined) => sql<boolean>`${only ? eb.and(filterConditions(eb, scope, only)) : sql`true`}`;
    const base = this.db
      .selectFrom('events')
      .where((eb) => matchEvents(eb, scope, always))
      .select((eb) => [
        'type',
        'outcome',
        'trigger',
        'pull_request',
        'batch_pull_request',
        bucketOf(stepSeconds).as('bucket'),
        passes(eb, trigger && { trigger }).as('t'),
        passes(eb, pullRequest && { pullRequest }).as('p'),
        passes(eb, batchPull && { batchPull }).as('b'),
      ]);
    return sql<RawRow>`
      SELECT CASE WHEN grouping(bucket) = 0 THEN 'histogram' WHEN grouping(type) = 0 THEN 'type'
                  WHEN grouping(outcome) = 0 THEN 'outcome' WHEN grouping(trigger) = 0 THEN 'trigger'
                  WHEN grouping(pull_request) = 0 THEN 'pull_request' ELSE 'batch_pull_request' END AS grouping,
             coalesce(bucket::bigint::text, type, outcome, trigger, pull_request::text, batch_pull_request::text) AS value,
             count(*) FILTER (WHERE t AND p AND b) AS all_n,
             count(*) FILTER (WHERE p AND b) AS trigger_n,
             count(*) FILTER (WHERE t AND b) AS pull_n,
             count(*) FILTER (WHERE t AND p) AS batch_n
      FROM (${base}) AS base
      GROUP BY GROUPING SETS ((bucket), (type), (outcome), (trigger), (pull_request), (batch_pull_request))`;
  }
}
