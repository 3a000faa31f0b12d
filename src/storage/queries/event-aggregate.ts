// The aggregate of a filtered window in one pass (DESIGN.md §8). The rows read are those that
// pass every filter except the three pairs some facet ignores (trigger, pull_request,
// batch_pull); each row carries whether it passes each of those three, and one GROUP BY
// GROUPING SETS counts, per grouping, only the rows its facet must see:
//   histogram, by_event_type, by_outcome: all three;  by_trigger: pull and batch;
//   by_pull_request: trigger and batch;  by_batch_pull_request: trigger and pull.
// So the window is read once, however many facets there are.
import { sql, type Kysely } from 'kysely';
import type { ActivityLogFilters } from '../../domain/activity-log/index.ts';
import type { GroupCount, Grouping } from '../../domain/activity-log/aggregate-result.ts';
import type { Database } from '../database.ts';
import { matchEvents, type EventScope } from './event-filters.ts';


interface RawRow {
  grouping: Grouping;
  value: string | null;
  all_n: string;
  trigger_n: string;
  pull_n: string;
  batch_n: string;
}

export class EventAggregateQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async aggregate(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<GroupCount[]> {
    const result = await this.db.transaction().execute(async (trx) => {
      // Measured (bench/logs-aggregate.ts): with the default 4 MB the planner sorts one grouping
      // set and spills it to disk; with room for every hash table it hashes all six in one pass.
      // SET LOCAL ends with the transaction, so other queries keep the server's setting.
      await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
      return this.query(scope, filters, stepSeconds).execute(trx);
    });
    return result.rows.map((row) => ({
      grouping: row.grouping,
      value: row.value,
      all: Number(row.all_n),
      notTrigger: Number(row.trigger_n),
      notPull: Number(row.pull_n),
      notBatch: Number(row.batch_n),
    }));
  }

  /** The statement alone (for EXPLAIN in benchmarks). */
  query(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number) {
    const { trigger, pullRequest, batchPull, ...always } = filters;
    // Whether a row passes one pair (true when the pair is not given).
    const passes = (eb: Parameters<typeof matchEvents>[0], only: ActivityLogFilters | undefined) => sql<boolean>`${only ? matchEvents(eb, scope, only) : sql`true`}`;
    const base = this.db
      .selectFrom('events')
      .where((eb) => matchEvents(eb, scope, always))
      .select((eb) => [
        'type',
        'outcome',
        'trigger',
        'pull_request',
        'batch_pull_request',
        sql<number>`floor(date_part('epoch', received_at) / ${stepSeconds})`.as('bucket'),
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
