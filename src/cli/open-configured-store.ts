// The store the server would open, from the same environment (DATABASE_URL or
// SWITCHYARD_DATA_DIR), for the server-side commands: migrate, export, import.
import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../config.ts';
import { openStore, storeOptions, type Store, type StoreStep } from '../storage/store.ts';
import { CliError, usageError } from './cli-error.ts';
import type { CliIo } from './cli-io.ts';

export async function openConfiguredStore(io: CliIo, onStep?: (step: StoreStep) => void): Promise<Store> {
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) throw usageError(`configuration error: ${error.message}`);
    throw error;
  }
  const where = config.databaseUrl ? `PostgreSQL at ${new URL(config.databaseUrl).host}` : `the embedded store in ${config.dataDir}`;
  io.stderr(`opening ${where}\n`);
  try {
    if (!config.databaseUrl && config.dataDir !== 'memory://') await mkdir(config.dataDir, { recursive: true });
    return await openStore({ ...storeOptions(config), onStep });
  } catch (error) {
    throw new CliError(`cannot open ${where}: ${(error as Error).message}`);
  }
}
