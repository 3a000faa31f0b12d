// The Store: one Kysely instance over either backend, with the query groups every feature
// uses. The queries are written once, in PostgreSQL's SQL, and run unchanged on both.
import { Kysely, sql, type Dialect } from 'kysely';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { ApplicationKeyQueries } from './queries/application-keys.ts';
import { DefaultProductQueries } from './queries/default-products.ts';
import { EventQueries } from './queries/events.ts';
import { PullRequestQueries } from './queries/pull-requests.ts';
import { RepositoryQueries } from './queries/repositories.ts';
import { createPgliteDialect } from './drivers/pglite-dialect.ts';
import { createPostgresDialect } from './drivers/postgres-dialect.ts';

export type Backend = 'pglite' | 'postgres';

export interface Store {
  readonly backend: Backend;
  readonly db: Kysely<Database>;
  readonly keys: ApplicationKeyQueries;
  readonly repositories: RepositoryQueries;
  readonly pullRequests: PullRequestQueries;
  readonly defaultProducts: DefaultProductQueries;
  readonly events: EventQueries;
  /** Resolves when storage answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded store is used. */
  databaseUrl?: string | undefined;
  /** Directory of the embedded store, or 'memory://'. */
  dataDir: string;
}

function createStore(backend: Backend, dialect: Dialect): Store {
  const db = new Kysely<Database>({ dialect });
  return {
    backend,
    db,
    keys: new ApplicationKeyQueries(db),
    repositories: new RepositoryQueries(db),
    pullRequests: new PullRequestQueries(db),
    defaultProducts: new DefaultProductQueries(db),
    events: new EventQueries(db),
    ping: async () => {
      await sql`SELECT 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Opens the configured backend and brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const store = options.databaseUrl
    ? createStore('postgres', createPostgresDialect({ connectionString: options.databaseUrl }))
    : createStore('pglite', createPgliteDialect({ dataDir: options.dataDir }));
  try {
    await migrate(store.db);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}
