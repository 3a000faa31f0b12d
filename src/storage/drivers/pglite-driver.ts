// Kysely driver for PGlite: one session in a worker thread, lent to one user at a time so a
// transaction owns it from BEGIN to COMMIT/ROLLBACK while other queries wait their turn.
import type { DatabaseConnection } from 'kysely';
import { ExclusiveLock } from './exclusive-lock.ts';
import { PgliteConnection } from './pglite-connection.ts';
import { startPgliteWorker, type PgliteWorkerClient } from './pglite-worker-client.ts';
import type { PgliteWorkerData } from './pglite-worker-messages.ts';
import { SESSION_SETTINGS_SQL } from './session-settings.ts';
import { SqlTransactionDriver } from './sql-transaction-driver.ts';

export class PgliteDriver extends SqlTransactionDriver {
  readonly #lock = new ExclusiveLock();
  #client: PgliteWorkerClient | undefined;
  #connection: PgliteConnection | undefined;

  constructor(private readonly config: PgliteWorkerData) {
    super();
  }

  async init(): Promise<void> {
    const client = await startPgliteWorker(this.config);
    try {
      await client.exec(SESSION_SETTINGS_SQL);
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    this.#client = client;
    this.#connection = new PgliteConnection(client);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    if (!this.#connection) {
      this.#lock.release();
      throw new Error('PGlite driver used before init() or after destroy()');
    }
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    this.#lock.release();
  }

  /** Waits for the current holder (an open transaction) to finish, then closes PGlite. */
  async destroy(): Promise<void> {
    await this.#lock.acquire();
    const client = this.#client;
    this.#client = undefined;
    this.#connection = undefined;
    this.#lock.release();
    await client?.close();
  }
}
