// The aggregate of a filtered window (DESIGN.md §8): four statements (event-aggregate-parts.ts),
// each over the filters its fields must see and each from the event counts when they can answer
// it, run in one REPEATABLE READ transaction so that every field comes from one snapshot (total
// still equals the list, whatever is written meanwhile).
import { sql, type Kysely } from 'kysely';
import type { ActivityLogFilters } from '../../domain/activity-log/index.ts';
import type { GroupCount } from '../../domain/activity-log/aggregate-result.ts';
import type { Database } from '../database.ts';
import type { EventScope } from './event-filters.ts';
import { ConcurrencyLimit } from '../concurrency-limit.ts';
import { AggregateParts, type PartRow } from './event-aggregate-parts.ts';

export class EventAggregateQueries {
  // An aggregate may still read many events (a facet by number under a filter): one at a time
  // per process, so concurrent aggregates queue among themselves instead of taking every core
  // from the cheap requests (bench/RESULTS.md, mixed traffic).
  private readonly scans = new ConcurrencyLimit(1, 100);
  readonly parts: AggregateParts;

  constructor(private readonly db: Kysely<Database>) {
    this.parts = new AggregateParts(db);
  }

  async aggregate(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<GroupCount[]> {
    const statements = this.statements(scope, filters, stepSeconds);
    const rows = await this.scans.run(() => this.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      // Room for the hash tables of a large window, so none spills to disk; SET LOCAL ends with
      // the transaction, so other queries keep the server's setting.
      await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
      const found: PartRow[] = [];
      for (const statement of statements) found.push(...(await statement.execute(trx)).rows);
      return found;
    }));
    return rows.map((row) => {
      const n = Number(row.n);
      // Each part already applied the filters its facet must see, so its count serves every column.
      return { grouping: row.grouping, value: row.value, all: n, notTrigger: n, notPull: n, notBatch: n };
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
