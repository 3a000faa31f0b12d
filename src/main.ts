// Start-up: config → store → migrations → app → listen; SIGTERM/SIGINT drain and close.
// `switchyard serve` (and so `npm start`) runs runServer in its own process: no child process
// stands between the signal and the handlers below. Each step is logged as it happens.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pino, { type Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp, loggerOptions } from './app.ts';
import { HostingApi } from './hosting/hosting-api.ts';
import { startHealthListener, type HealthListener } from './http/health-listener.ts';
import { openStore, storeOptions, type StoreStep } from './storage/store.ts';
import { scheduleRetention } from './services/retention.ts';
import { HostingPlatform } from './hosting/hosting-platform.ts';
import { MergeQueueExecutor } from './services/merge-queue/executor/merge-queue-executor.ts';
import { createAutomation } from './services/automation/automation.ts';

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

/** Where the store is, for the log: never the connection string (it may hold a password). */
function announceStore(config: Config, log: Logger): void {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    log.info({ host: url.host, database: url.pathname.slice(1), poolSize: config.databasePoolSize, statementTimeoutMs: config.statementTimeoutMs }, 'connecting to PostgreSQL');
  } else if (config.dataDir === 'memory://') {
    log.info('initialising the embedded store in memory (nothing is kept after exit)');
  } else if (existsSync(join(config.dataDir, 'PG_VERSION'))) {
    log.info({ dataDir: config.dataDir }, 'opening the embedded store');
  } else {
    log.info({ dataDir: config.dataDir }, 'initialising the embedded store: a first start takes 20 to 30 seconds');
  }
}

function logStoreStep(log: Logger, step: StoreStep): void {
  if (step.step === 'connected') log.info({ backend: step.backend, ms: step.ms }, 'store ready; applying migrations');
  else log.info({ applied: step.applied, ms: step.ms }, step.applied.length ? `migrations applied: ${step.applied.join(', ')}` : 'migrations: schema up to date');
}

export async function startServer(config: Config): Promise<void> {
  const log = pino(loggerOptions(config.logLevel));
  // Handlers first: a signal during a slow first start still closes the store cleanly.
  let shutdown: (() => Promise<void>) | undefined;
  let stopping: string | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    log.info({ signal }, shutdown ? 'shutting down: draining requests in flight' : 'shutting down once the store is open');
    void shutdown?.();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  if (config.databaseUrl && !config.serviceToken) {
    log.warn('DATABASE_URL is set without SWITCHYARD_SERVICE_TOKEN: the admin API and ingestion refuse every request until it is set');
  }
  const generated = await embeddedServiceToken(config);
  if (config.dataDir !== 'memory://' && !config.databaseUrl) await mkdir(config.dataDir, { recursive: true });
  announceStore(config, log);
  const store = await openStore({ ...storeOptions(config), onStep: (step) => logStoreStep(log, step), log: (message, detail) => log.warn(detail, message) });
  // The merge queue acts on the hosting platform only with credentials of its own (DESIGN §10).
  const platform = config.hostingCredentials ? HostingPlatform.connect(config.hostingApiUrl, config.hostingCredentials) : null;
  const executor = platform ? new MergeQueueExecutor({ store, platform, pollMs: config.mergeQueuePollSeconds * 1000, leaseMs: config.mergeQueueLeaseSeconds * 1000, log: log.child({ component: 'merge-queue' }) }) : null;
  if (!platform) log.warn('no SWITCHYARD_HOSTING_TOKEN or GitHub App configured: the merge queue plans but runs nothing on the hosting platform, and configuration files are not read');
  // The rules engine reads configuration files and evaluates pull requests with the same credentials.
  const automation = createAutomation(store, platform, { log: log.child({ component: 'rules-engine' }) });
  const app = await buildApp({
    config: { ...config, serviceToken: config.serviceToken ?? generated?.token },
    store,
    hosting: new HostingApi(config.hostingApiUrl, { verificationsPerMinute: config.tokenVerificationsPerMinute }),
    hostingPlatform: platform,
    ...(executor ? { executor } : {}),
    automation,
    logger: log,
  });
  if (generated) app.log.info({ file: generated.file }, 'no SWITCHYARD_SERVICE_TOKEN set: using the service token stored in this file');

  let stopRetention = () => {};
  let health: HealthListener | undefined;
  shutdown = async () => {
    stopRetention();
    await health?.close();
    await executor?.stop();
    await automation.engine?.stop();
    // Requests in flight get DRAIN_MS to finish. Connections that never sent a request are not
    // timed out once the server closes (Node stops checking them), so without this one idle client
    // kept the process from ever exiting.
    const force = setTimeout(() => {
      app.log.warn({ afterMs: DRAIN_MS }, 'shutting down: closing the connections still open');
      app.server.closeAllConnections();
    }, DRAIN_MS);
    app.server.closeIdleConnections();
    await app.close();
    clearTimeout(force);
    await store.close();
    app.log.info('store closed; exiting');
    process.exit(0);
  };
  if (stopping) return shutdown();

  await app.listen({ host: config.host, port: config.port });
  if (stopping) return; // a signal during listen: shutdown is already closing the app
  if (config.healthPort !== undefined) {
    health = await startHealthListener(config.host, config.healthPort, { ready: () => store.ready(), warn: (fields, message) => app.log.warn(fields, message) });
    app.log.info({ port: health.port }, 'health port: /healthz and /readyz');
  }
  stopRetention = scheduleRetention(store, config, app.log);
  // The columnar copy of every repository's events, built in the background; until a
  // repository's copy is built, its aggregates are answered by storage.
  store.eventAggregates.copy?.warmAll().catch((error: unknown) => app.log.warn({ cause: (error as Error).message }, 'columnar copy: start-up build stopped'));
  executor?.start();
  automation.engine?.start();
  app.log.info({ backend: store.backend }, 'switchyard ready');
}

/** How long requests in flight at shutdown may take to finish before their connections are closed. */
const DRAIN_MS = 10_000;

/** Reads the configuration from `env` and serves until a signal; exits 2 on a bad setting, 1 on a failed start. */
export async function runServer(env: Record<string, string | undefined> = process.env): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`switchyard: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  await startServer(config).catch((error: unknown) => {
    process.stderr.write(`switchyard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

// `node --import tsx src/main.ts` still starts the server, as it always did.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void runServer();
