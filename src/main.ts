// Start-up: config → store → migrations → app → listen; SIGTERM/SIGINT drain and close.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { HostingApi } from './hosting/hosting-api.ts';
import { openStore } from './storage/store.ts';
import { scheduleRetention } from './services/retention.ts';

const TOKEN_FILE = 'service-token';

/**
 * Without SWITCHYARD_SERVICE_TOKEN, the embedded store gets a generated token kept in its data
 * directory (mode 0600), so `npm start` alone gives an operator a way in. Never logged.
 */
async function embeddedServiceToken(config: Config): Promise<{ token: string; file: string } | undefined> {
  if (config.serviceToken || config.databaseUrl) return undefined;
  const file = join(config.dataDir, TOKEN_FILE);
  await mkdir(config.dataDir, { recursive: true });
  try {
    return { token: (await readFile(file, 'utf8')).trim(), file };
  } catch {
    const token = `sys_${randomBytes(32).toString('base64url')}`;
    await writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return { token, file };
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`switchyard: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const generated = await embeddedServiceToken(config);
  if (config.dataDir !== 'memory://' && !config.databaseUrl) await mkdir(config.dataDir, { recursive: true });
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({
    config: { ...config, serviceToken: config.serviceToken ?? generated?.token },
    store,
    hosting: new HostingApi(config.hostingApiUrl, { verificationsPerMinute: config.tokenVerificationsPerMinute }),
  });
  if (generated) app.log.info({ file: generated.file }, 'no SWITCHYARD_SERVICE_TOKEN set: using the service token stored in this file');

  let stopRetention = () => {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining requests in flight');
    stopRetention();
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  stopRetention = scheduleRetention(store, config.retentionDays, app.log);
  app.log.info({ backend: store.backend }, 'switchyard ready');
}

main().catch((error: unknown) => {
  process.stderr.write(`switchyard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
