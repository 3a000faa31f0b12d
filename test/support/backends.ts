// Every behaviour test runs on each backend: PGlite always, PostgreSQL when one answers at
// TEST_DATABASE_URL (mandatory when SWITCHYARD_REQUIRE_POSTGRES=1, as in .ci/run). Each
// PostgreSQL run gets a private schema, dropped at the end.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore, type Backend, type Store } from '../../src/storage/store.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRE_POSTGRES = process.env.SWITCHYARD_REQUIRE_POSTGRES === '1';

let postgresAnswers: Promise<boolean> | undefined;

export function postgresAvailable(): Promise<boolean> {
  postgresAnswers ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (error) {
      if (REQUIRE_POSTGRES) throw new Error(`PostgreSQL is required but does not answer at ${TEST_DATABASE_URL}: ${(error as Error).message}`);
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return postgresAnswers;
}

export async function adminQuery(text: string, databaseUrl = TEST_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A connection string whose sessions use a fresh private schema (`prefix_…`) of `databaseUrl`'s database. */
export async function privateSchemaUrl(prefix = 'sw_test', databaseUrl = TEST_DATABASE_URL): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE SCHEMA ${schema}`, databaseUrl);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => adminQuery(`DROP SCHEMA ${schema} CASCADE`, databaseUrl) };
}

export interface TestStore {
  store: Store;
  /** Closes the store and removes what it created. */
  dispose(): Promise<void>;
}

export async function openTestStore(backend: Backend): Promise<TestStore> {
  if (backend === 'pglite') {
    const store = await openStore({ dataDir: 'memory://' });
    return { store, dispose: () => store.close() };
  }
  const { url, drop } = await privateSchemaUrl();
  const store = await openStore({ databaseUrl: url, dataDir: 'unused' });
  return {
    store,
    dispose: async () => {
      await store.close();
      await drop();
    },
  };
}

/** The backends to run on; PostgreSQL only when it answers (or is required). */
export async function backends(): Promise<Backend[]> {
  const all: Backend[] = (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];
  // SWITCHYARD_TEST_BACKENDS=postgres runs one backend only (when investigating a failure).
  const only = process.env.SWITCHYARD_TEST_BACKENDS?.split(',');
  return only ? all.filter((backend) => only.includes(backend)) : all;
}
