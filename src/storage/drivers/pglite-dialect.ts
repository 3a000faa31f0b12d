// The embedded backend: PostgreSQL (PGlite, WASM) in a worker thread, in memory or in a directory.
import type { Dialect } from 'kysely';
import { PgliteDriver } from './pglite-driver.ts';
import { postgresFamilyDialect } from './postgres-family-dialect.ts';

export interface PgliteDialectConfig {
  /** 'memory://' for a throw-away database, or a directory (created if missing) that persists. */
  readonly dataDir: string;
}

/** The worker starts on the first query; `db.destroy()` closes PGlite and ends the worker. */
export function createPgliteDialect(config: PgliteDialectConfig): Dialect {
  return postgresFamilyDialect(() => new PgliteDriver({ dataDir: config.dataDir }));
}
