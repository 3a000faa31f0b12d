// Storage for a benchmark: PGlite in a temporary directory, or PostgreSQL in a private schema of
// the database at --database-url / DATABASE_URL (else TEST_DATABASE_URL's default), removed after.
// Opened in this process (openBenchStore), or handed to a real Switchyard process (createBenchStorage).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { HostingApi } from '../src/hosting/hosting-api.ts';
import { openStore, type Backend, type Store } from '../src/storage/store.ts';
import { privateSchemaUrl, TEST_DATABASE_URL } from '../test/support/backends.ts';
import type { StorageEnv } from '../test/support/switchyard-process.ts';

export interface BenchStore {
  store: Store;
  /** Closes the store and removes its directory or schema. */
  dispose(): Promise<void>;
}

export interface BenchStorage {
  /** The environment a Switchyard process is started with to use this storage. */
  env: StorageEnv;
  /** Opens a store on it here; close it before a process opens the same PGlite directory. */
  open(): Promise<Store>;
  /** Removes the directory or drops the schema. */
  remove(): Promise<void>;
}

export async function createBenchStorage(backend: Backend, databaseUrl = process.env.DATABASE_URL ?? TEST_DATABASE_URL): Promise<BenchStorage> {
  if (backend === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
    return { env: { SWITCHYARD_DATA_DIR: dir }, open: () => openStore({ dataDir: dir }), remove: () => rm(dir, { recursive: true, force: true }) };
  }
  const { url, drop } = await privateSchemaUrl('sw_bench', databaseUrl);
  return { env: { DATABASE_URL: url }, // Loading millions of events takes statements longer than the server's default limit.
    open: () => openStore({ databaseUrl: url, dataDir: 'unused', statementTimeoutMs: 600_000 }), remove: drop };
}

export async function openBenchStore(backend: Backend, databaseUrl?: string): Promise<BenchStore> {
  const storage = await createBenchStorage(backend, databaseUrl);
  const store = await storage.open().catch(async (error: unknown) => {
    await storage.remove();
    throw error;
  });
  return { store, dispose: async () => (await store.close(), await storage.remove()) };
}

/** The service token of the in-process benchmark servers. */
export const BENCH_TOKEN = 'bench-service-token-0123456789';

/** Switchyard in this process on `store`, listening on a free loopback port (no hosting platform). */
export async function startBenchApp(store: Store): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = await buildApp({ config: { serviceToken: BENCH_TOKEN, webhookSecret: undefined, publicUrl: undefined, logLevel: 'silent' }, store, hosting: new HostingApi('http://127.0.0.1:9') });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, baseUrl: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}
