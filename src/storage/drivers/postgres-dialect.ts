// The production backend: PostgreSQL through a pg.Pool that fails fast while the server is away
// and reconnects by itself when it is back.
import type { Dialect } from 'kysely';
import pg from 'pg';
import { PgPoolDriver } from './pg-pool-driver.ts';
import { postgresFamilyDialect } from './postgres-family-dialect.ts';
import { pgTypeParsers } from './type-parsers.ts';

export interface PostgresDialectConfig {
  readonly connectionString: string;
  /** Pool size; default 10. */
  readonly max?: number | undefined;
  /** How long to wait for a new connection before failing the query; default 2000 ms. */
  readonly connectionTimeoutMillis?: number;
  /** Server-side limit per statement; default 30000 ms. The client gives up 5 s later. */
  readonly statementTimeoutMillis?: number | undefined;
  /**
   * An idle pooled connection failed (server restarted, network cut). The pool has already
   * dropped it and opens a fresh one when needed; this is for logging. Default: ignored.
   */
  readonly onIdleConnectionError?: (error: Error) => void;
}

export function createPostgresDialect(config: PostgresDialectConfig): Dialect {
  return postgresFamilyDialect(() => new PgPoolDriver(createPool(config)));
}

function createPool(config: PostgresDialectConfig): pg.Pool {
  const statementTimeout = config.statementTimeoutMillis ?? 30_000;
  const pool = new pg.Pool({
    connectionString: config.connectionString,
    max: config.max ?? 10,
    connectionTimeoutMillis: config.connectionTimeoutMillis ?? 2_000,
    statement_timeout: statementTimeout,
    // Backstop for a server that vanished without closing the socket: statement_timeout
    // cannot fire then, and the query would otherwise wait forever.
    query_timeout: statementTimeout + 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'switchyard',
    types: pgTypeParsers,
  });
  // Without a listener, an idle client's error would be an unhandled 'error' event: a crash.
  pool.on('error', (error) => config.onIdleConnectionError?.(error));
  return pool;
}
