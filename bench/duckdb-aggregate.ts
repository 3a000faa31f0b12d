// The reference of bench/logs-aggregate.ts: the same aggregate (total, histogram, by_event_type,
// by_outcome, and the three facets each ignoring its own pair, top 200) computed by DuckDB, an
// in-process column store, over a copy of the benchmarked repository's narrow event columns.
// The copy is read from the store in id order; its answers are compared with Switchyard's, so
// the two are known to compute the same thing.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { sql } from 'kysely';
import type { Store } from '../src/storage/store.ts';

const BATCH = 200_000;

export interface AggregateCase {
  /** Query string of the API (without the window). */
  search: string;
}

type Param = 'pull_request' | 'not_pull_request' | 'batch_pull' | 'not_batch_pull' | 'event_type' | 'not_event_type' | 'outcome' | 'not_outcome' | 'trigger' | 'not_trigger' | 'base_ref';
type Pair = 'trigger' | 'pull_request' | 'batch_pull';

export class DuckDbReference {
  private constructor(private readonly connection: DuckDBConnection) {}

  /** Copies the repository's events (narrow columns) into an in-memory DuckDB. */
  static async load(store: Store, repositoryId: string): Promise<DuckDbReference> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE events (id BIGINT, received_ms BIGINT, type VARCHAR, outcome VARCHAR, "trigger" VARCHAR, pull_request BIGINT, base_ref VARCHAR, batch_pull_request BIGINT, batch_id VARCHAR)`);
    const appender = await connection.createAppender('events');
    let last = '0';
    for (;;) {
      const { rows } = await sql<{ id: string; ms: string; type: string; outcome: string; trigger: string; pull_request: string | null; base_ref: string | null; batch_pull_request: string | null; batch_id: string | null }>`
        SELECT id, (extract(epoch FROM received_at) * 1000)::bigint AS ms, type, outcome, trigger, pull_request, base_ref, batch_pull_request, batch_id::text AS batch_id
        FROM events WHERE repository_id = ${repositoryId} AND id > ${last} ORDER BY id LIMIT ${BATCH}`.execute(store.db);
      for (const row of rows) {
        appender.appendBigInt(BigInt(row.id));
        appender.appendBigInt(BigInt(row.ms));
        appender.appendVarchar(row.type);
        appender.appendVarchar(row.outcome);
        appender.appendVarchar(row.trigger);
        if (row.pull_request === null) appender.appendNull(); else appender.appendBigInt(BigInt(row.pull_request));
        if (row.base_ref === null) appender.appendNull(); else appender.appendVarchar(row.base_ref);
        if (row.batch_pull_request === null) appender.appendNull(); else appender.appendBigInt(BigInt(row.batch_pull_request));
        if (row.batch_id === null) appender.appendNull(); else appender.appendVarchar(row.batch_id);
        appender.endRow();
      }
      if (rows.length < BATCH) break;
      last = rows.at(-1)!.id;
    }
    appender.closeSync();
    return new DuckDbReference(connection);
  }

  /** The aggregate as the API answers it (same field names and order of rows). */
  async aggregate(search: string, from: Date, to: Date, stepSeconds: number) {
    const params = new URLSearchParams(search);
    const conditions = (ignored?: Pair) => {
      const all = [`received_ms >= ${from.getTime()}`, `received_ms < ${to.getTime()}`];
      for (const [name, values] of grouped(params)) {
        const pair = name.replace(/^not_/, '') as Pair;
        if (pair === ignored) continue;
        all.push(condition(name, values));
      }
      return all.join(' AND ');
    };
    const step = stepSeconds * 1000;
    const [main, triggers, pulls, batches] = await Promise.all([
      this.rows(`SELECT CASE WHEN grouping(bucket) = 0 THEN 'h' WHEN grouping(type) = 0 THEN 't' ELSE 'o' END AS g, coalesce(bucket::VARCHAR, type, outcome) AS v, count(*) AS n
        FROM (SELECT floor(received_ms / ${step})::BIGINT AS bucket, type, outcome FROM events WHERE ${conditions()}) GROUP BY GROUPING SETS ((bucket), (type), (outcome))`),
      this.rows(`SELECT 'r' AS g, "trigger" AS v, count(*) AS n FROM events WHERE ${conditions('trigger')} GROUP BY "trigger"`),
      this.rows(`SELECT 'p' AS g, pull_request::VARCHAR AS v, count(*) AS n FROM events WHERE ${conditions('pull_request')} AND pull_request IS NOT NULL GROUP BY pull_request ORDER BY n DESC, pull_request LIMIT 200`),
      this.rows(`SELECT 'b' AS g, batch_pull_request::VARCHAR AS v, count(*) AS n FROM events WHERE ${conditions('batch_pull')} AND batch_pull_request IS NOT NULL GROUP BY batch_pull_request ORDER BY n DESC, batch_pull_request LIMIT 200`),
    ]);
    const facet = (rows: Row[], g: string, limit = Infinity) =>
      rows.filter((r) => r.g === g).map((r) => ({ value: r.v, count: r.n })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, limit);
    const histogram = main.filter((r) => r.g === 'h');
    return {
      total: histogram.reduce((sum, r) => sum + r.n, 0),
      buckets: new Map(histogram.map((r) => [Number(r.v) * stepSeconds * 1000, r.n])),
      by_event_type: facet(main, 't'),
      by_outcome: facet(main, 'o'),
      by_trigger: facet(triggers, 'r', 200),
      by_pull_request: pulls.map((r) => ({ value: r.v, count: r.n })),
      by_batch_pull_request: batches.map((r) => ({ value: r.v, count: r.n })),
    };
  }

  private async rows(text: string): Promise<Row[]> {
    const reader = await this.connection.runAndReadAll(text);
    return reader.getRowObjects().map((r) => ({ g: String(r.g), v: String(r.v), n: Number(r.n) }));
  }
}

interface Row {
  g: string;
  v: string;
  n: number;
}

function grouped(params: URLSearchParams): Map<Param, string[]> {
  const map = new Map<Param, string[]>();
  for (const [name, value] of params) map.set(name as Param, [...(map.get(name as Param) ?? []), value]);
  return map;
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** One filter as the API applies it (docs/activity-log.md). */
function condition(name: Param, values: string[]): string {
  const texts = values.map(quote).join(', ');
  const numbers = () => values.map((v) => BigInt(v).toString()).join(', ');
  switch (name) {
    case 'base_ref': return `base_ref = ${quote(values[0]!)}`;
    case 'event_type': return `type IN (${texts})`;
    case 'not_event_type': return `type NOT IN (${texts})`;
    case 'outcome': return `outcome IN (${texts})`;
    case 'not_outcome': return `outcome NOT IN (${texts})`;
    case 'trigger': return `"trigger" IN (${texts})`;
    case 'not_trigger': return `"trigger" NOT IN (${texts})`;
    case 'pull_request': return `pull_request IN (${numbers()})`;
    case 'not_pull_request': return `(pull_request IS NULL OR pull_request NOT IN (${numbers()}))`;
    case 'batch_pull': return batchMembers(numbers());
    case 'not_batch_pull': return `(${batchMembers(numbers())}) IS NOT TRUE`;
  }
}

function batchMembers(numbers: string): string {
  return `(batch_pull_request IN (${numbers}) OR (type IN ('action.queue.batch_bisection_start', 'action.queue.batch_bisection_end')
    AND batch_id IN (SELECT batch_id FROM events WHERE batch_pull_request IN (${numbers}) AND batch_id IS NOT NULL)))`;
}
