// A Kysely connection over one pooled pg client. Server errors become DatabaseError; a lost or
// silent server becomes DatabaseUnavailableError, and the client is then discarded, not reused.
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import pg from 'pg';
import { DatabaseError, DatabaseUnavailableError } from './database-errors.ts';
import { serializeParameters } from './query-parameters.ts';
import { toQueryResult } from './query-result.ts';

// admin_shutdown, crash_shutdown, cannot_connect_now: the server is going or not there yet.
const SERVER_GONE_CODES = new Set(['57P01', '57P02', '57P03']);

export class PgPoolConnection implements DatabaseConnection {
  #brokenBy: Error | undefined;

  constructor(private readonly client: pg.PoolClient) {
    // A checked-out client emits 'error' when its socket dies between queries (e.g. inside a
    // transaction); unlistened, that event would crash the process.
    client.on('error', (error) => {
      this.#brokenBy ??= error;
    });
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const values = serializeParameters(compiledQuery.parameters);
    let result: pg.QueryResult | pg.QueryResult[];
    try {
      result = await this.client.query({ text: compiledQuery.sql, values });
    } catch (error) {
      throw this.#translate(error);
    }
    // Several statements in one parameterless query give one result each; none is "the" result.
    if (Array.isArray(result)) return toQueryResult(undefined, undefined, []);
    return toQueryResult(result.command, result.rowCount, result.rows as R[]);
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported by the PostgreSQL driver');
  }

  /** Gives the client back to the pool, which destroys it if it broke (or if `error` is given). */
  release(error?: Error): void {
    this.client.release(error ?? this.#brokenBy);
  }

  #translate(error: unknown): Error {
    if (error instanceof pg.DatabaseError && !SERVER_GONE_CODES.has(error.code ?? '')) {
      return new DatabaseError({ ...pickFields(error), message: error.message, code: error.code ?? '' }, { cause: error });
    }
    const cause = error instanceof Error ? error : new Error(String(error));
    this.#brokenBy ??= cause;
    return new DatabaseUnavailableError(`PostgreSQL did not answer: ${cause.message}`, { cause });
  }
}

function pickFields(error: pg.DatabaseError) {
  const { severity, detail, hint, position, where, schema, table, column, dataType, constraint, routine } = error;
  return { severity, detail, hint, position, where, schema, table, column, dataType, constraint, routine };
}
