// A store for a benchmark: PGlite in a temporary directory, or PostgreSQL in a private schema of
// the database at --database-url / DATABASE_URL (else TEST_DATABASE_URL's default), dropped after.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Backend, type Store } from '../src/storage/store.ts';
import { TEST_DATABASE_URL } from '../test/support/backends.ts';

export interface BenchStore {
  store: Store;
  /** Closes the store and removes its directory or schema. */
  dispose(): Promise<void>;
}

async function admin(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function openBenchStore(backend: Backend, databaseUrl = process.env.DATABASE_URL ?? TEST_DATABASE_URL): Promise<BenchStore> {
  if (backend === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
    const store = await openStore({ dataDir: dir });
    return { store, dispose: async () => (await store.close(), await rm(dir, { recursive: true, force: true })) };
  }
  const schema = `sw_bench_${randomBytes(6).toString('hex')}`;
  await admin(databaseUrl, `CREATE SCHEMA ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const store = await openStore({ databaseUrl: url.toString(), dataDir: 'unused' });
  return { store, dispose: async () => (await store.close(), await admin(databaseUrl, `DROP SCHEMA ${schema} CASCADE`)) };
}
