// The aggregate of a filtered window (DESIGN.md §8): four statements (event-aggregate-parts.ts),
// each over the filters its fields must see and each from the event counts when they can answer
// it, all on one REPEATABLE READ snapshot so that every field comes from one state of the log
// (total still equals the list, whatever is written meanwhile). On PostgreSQL the parts run at
// once on several connections sharing that snapshot.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
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

  /**
   * @param parallel run the parts on several connections at once (PostgreSQL); PGlite has one
   *   connection, which a transaction holds, so there they run one after the other.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly parallel = false,
  ) {
    this.parts = new AggregateParts(db);
  }

  async aggregate(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<GroupCount[]> {
    const statements = this.statements(scope, filters, stepSeconds);
    const rows = await this.scans.run(() => (this.parallel ? this.inParallel(statements) : this.inOne(statements)));
    return rows.map((row) => {
      const n = Number(row.n);
      // Each part already applied the filters its facet must see, so its count serves every column.
      return { grouping: row.grouping, value: row.value, all: n, notTrigger: n, notPull: n, notBatch: n };
    });
  }

  /** Every part in one transaction, one after the other (PGlite has one connection). */
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
