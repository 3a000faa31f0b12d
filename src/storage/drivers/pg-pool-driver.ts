// Kysely driver over a pg.Pool. Unlike Kysely's own PostgresDriver, it sets up each new session
// (UTC, ISO dates), gives back clients that failed that set-up, and reports an unreachable
// server as DatabaseUnavailableError.
import { CompiledQuery, type DatabaseConnection } from 'kysely';
import type pg from 'pg';
import { DatabaseUnavailableError } from './database-errors.ts';
import { PgPoolConnection } from './pg-pool-connection.ts';
import { SESSION_SETTINGS_SQL } from './session-settings.ts';
import { SqlTransactionDriver } from './sql-transaction-driver.ts';

export class PgPoolDriver extends SqlTransactionDriver {
  readonly #connections = new WeakMap<pg.PoolClient, PgPoolConnection>();

  constructor(private readonly pool: pg.Pool) {
    super();
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.#connect();
    const known = this.#connections.get(client);
    if (known) return known;
    const connection = new PgPoolConnection(client);
    try {
      await connection.executeQuery(CompiledQuery.raw(SESSION_SETTINGS_SQL));
    } catch (error) {
      connection.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    this.#connections.set(client, connection);
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PgPoolConnection).release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }

  async #connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      throw new DatabaseUnavailableError(`Cannot connect to PostgreSQL: ${cause.message}`, { cause });
    }
  }
}
