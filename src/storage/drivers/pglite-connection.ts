// A Kysely connection over the PGlite worker: parameters and result values go through the same
// shared modules as the pg backend, so both return identical rows.
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import type { PgliteWorkerClient } from './pglite-worker-client.ts';
import type { RawResult } from './pglite-worker-messages.ts';
import { serializeParameters } from './query-parameters.ts';
import { toQueryResult } from './query-result.ts';
import { typeParserFor } from './type-parsers.ts';

export class PgliteConnection implements DatabaseConnection {
  constructor(private readonly client: PgliteWorkerClient) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    // Without parameters the simple protocol is used, as pg does, so multi-statement SQL
    // (migrations) runs the same way on both backends.
    let raw: RawResult;
    try {
      raw = await (parameters.length === 0 ? this.client.exec(sql) : this.client.query(sql, serializeParameters(parameters)));
    } catch (error) {
      // The error was built in the worker's message handler; point its stack at the caller instead.
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    }
    return toQueryResult(raw.command, raw.rowCount, decodeRows<R>(raw));
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported by the PGlite driver');
  }
}

function decodeRows<R>({ fields, rows }: RawResult): R[] {
  const parsers = fields.map((field) => typeParserFor(field.dataTypeID));
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    // A repeated column name keeps its last value, as pg does.
    fields.forEach((field, i) => {
      const text = values[i];
      row[field.name] = text === null || text === undefined ? null : parsers[i]!(text);
    });
    return row as R;
  });
}
