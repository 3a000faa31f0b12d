// The Store: one Kysely instance over either backend, with the query groups every feature
// uses. The queries are written once, in PostgreSQL's SQL, and run unchanged on both.
import { Kysely, sql, type Dialect } from 'kysely';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { ApplicationKeyQueries } from './queries/application-keys.ts';
import { DefaultProductQueries } from './queries/default-products.ts';
import { EventQueries } from './queries/events.ts';
import { EventAggregateQueries } from './queries/event-aggregate.ts';
import { EventLogQueries } from './queries/event-log.ts';
import { MergeQueueQueries } from './queries/merge-queues.ts';
import { MergeQueueControlQueries } from './queries/merge-queue-controls.ts';
import { MergeQueueStatsQueries } from './queries/merge-queue-stats.ts';
import { MergeQueueMetricsQueries } from './queries/merge-queue-stats-metrics.ts';
import { PullRequestQueries } from './queries/pull-requests.ts';
import { RepositoryQueries } from './queries/repositories.ts';
import { ScopeReportQueries } from './queries/scope-reports.ts';
import { WebhookDeliveryQueries } from './queries/webhook-deliveries.ts';
import { RepositoryConfigurationQueries } from './queries/repository-configurations.ts';
import { RulesEngineQueries } from './queries/rules-engine.ts';
import { createPgliteDialect } from './drivers/pglite-dialect.ts';
import { createPostgresDialect } from './drivers/postgres-dialect.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { isStorageUnavailable } from './storage-errors.ts';
import { EventCopy } from './columnar/event-copy.ts';

/** The columnar copy of the events (src/storage/columnar/): on unless turned off; where its failure is told. */
interface CopySettings {
  enabled?: boolean | undefined;
  log?: ((message: string, detail: object) => void) | undefined;
}

export type Backend = 'pglite' | 'postgres';

export interface Store {
  readonly backend: Backend;
  readonly db: Kysely<Database>;
  readonly keys: ApplicationKeyQueries;
  readonly repositories: RepositoryQueries;
  readonly pullRequests: PullRequestQueries;
  readonly defaultProducts: DefaultProductQueries;
  readonly events: EventQueries;
  readonly eventAggregates: EventAggregateQueries;
  readonly eventLog: EventLogQueries;
  readonly scopeReports: ScopeReportQueries;
  readonly webhookDeliveries: WebhookDeliveryQueries;
  readonly configurations: RepositoryConfigurationQueries;
  readonly rulesEngine: RulesEngineQueries;
  readonly mergeQueues: MergeQueueQueries;
  readonly mergeQueueControls: MergeQueueControlQueries;
  readonly mergeQueueStats: MergeQueueStatsQueries;
  readonly mergeQueueMetrics: MergeQueueMetricsQueries;
  /** Resolves when storage answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Resolves when storage answered any query in the last few seconds, else when it answers a
   * trivial one: a pool busy with other requests' queries is not an unready store (/readyz).
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded store is used. */
  databaseUrl?: string | undefined;
  /** Directory of the embedded store, or 'memory://'. */
  dataDir: string;
  /** PostgreSQL only: connections in the pool (default 10). */
  poolSize?: number | undefined;
  /** PostgreSQL only: the server-side limit of one statement (default 30,000 ms). */
  statementTimeoutMs?: number | undefined;
  /** Told of each start-up step as it ends (the first start of an embedded store is slow). */
  onStep?: (step: StoreStep) => void;
  /** The columnar copy that answers aggregates (default on; SWITCHYARD_COLUMNAR_COPY=off). */
  columnarCopy?: boolean | undefined;
  /** Told when the columnar copy turns itself off. */
  log?: ((message: string, detail: object) => void) | undefined;
}

export type StoreStep =
  | { step: 'connected'; backend: Backend; ms: number }
  | { step: 'migrated'; applied: number[]; ms: number };

/** How recent an answer from storage /readyz takes as proof that it answers. */
const RECENT_ANSWER_MS = 5_000;
/** How long /readyz waits for its ping before a recent answer vouches for storage. */
const BUSY_PING_MS = 250;

function createStore(backend: Backend, dialect: Dialect, poolSize = 1, copy: CopySettings = {}): Store {
  let answeredAt = 0;
  let failedAt = 0;
  const db = new Kysely<Database>({
    dialect,
    log: (event) => {
      if (event.level === 'query') answeredAt = performance.now();
      // A query that found storage unreachable outweighs earlier answers: /readyz asks again.
      else if (isStorageUnavailable(event.error)) failedAt = performance.now();
    },
  });
  const eventCopy = copy.enabled === false ? undefined : new EventCopy(db, { snapshots: backend === 'postgres', chunkRows: backend === 'postgres' ? 50_000 : 5_000, log: copy.log });
  const ping = async () => {
    await sql`SELECT 1`.execute(db);
  };
  return {
    backend,
    db,
    keys: new ApplicationKeyQueries(db),
    repositories: new RepositoryQueries(db),
    pullRequests: new PullRequestQueries(db),
    defaultProducts: new DefaultProductQueries(db),
    events: new EventQueries(db, backend === 'postgres'),
    // Its four parts at once take four connections; a smaller pool runs them one after the other;
    // PGlite's one session is lent out between slices of the window.
    eventAggregates: new EventAggregateQueries(db, backend === 'pglite' ? 'sliced' : poolSize >= 4 ? 'parallel' : 'one-transaction', eventCopy),
    eventLog: new EventLogQueries(db, backend === 'pglite'),
    scopeReports: new ScopeReportQueries(db),
    webhookDeliveries: new WebhookDeliveryQueries(db),
    configurations: new RepositoryConfigurationQueries(db),
    rulesEngine: new RulesEngineQueries(db),
    mergeQueues: new MergeQueueQueries(db),
    mergeQueueControls: new MergeQueueControlQueries(db),
    mergeQueueStats: new MergeQueueStatsQueries(db),
    mergeQueueMetrics: new MergeQueueMetricsQueries(db),
    ping,
    ready: async () => {
      // Asked every time, so an outage shows at once; but a ping stuck behind a busy pool
      // does not make a process that answered moments ago unready.
      if (!(answeredAt > failedAt && performance.now() - answeredAt < RECENT_ANSWER_MS)) return ping();
      const outcome = await Promise.race([ping().then(() => 'answered', (error: unknown) => error), new Promise((resolve) => setTimeout(resolve, BUSY_PING_MS, 'busy'))]);
      if (outcome !== 'answered' && outcome !== 'busy') throw outcome;
    },
    close: async () => {
      await eventCopy?.close();
      await db.destroy();
    },
  };
}

/** The store settings of the configuration (src/config.ts): the server and the server-side commands open the same store. */
export function storeOptions(config: { databaseUrl: string | undefined; dataDir: string; databasePoolSize: number; statementTimeoutMs: number; columnarCopy: boolean }): StoreOptions {
  return { databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize, statementTimeoutMs: config.statementTimeoutMs, columnarCopy: config.columnarCopy };
}

/** Opens the configured backend and brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const onStep = options.onStep ?? (() => {});
  const copy = { enabled: options.columnarCopy, log: options.log };
  if (options.databaseUrl) {
    const dialect = createPostgresDialect({ connectionString: options.databaseUrl, max: options.poolSize, statementTimeoutMillis: options.statementTimeoutMs });
    return migrated(createStore('postgres', dialect, options.poolSize ?? 10, copy), onStep);
  }
  if (options.dataDir === 'memory://') return migrated(createStore('pglite', createPgliteDialect({ dataDir: options.dataDir }), 1, copy), onStep);
  const unlock = await lockDataDir(options.dataDir);
  try {
    const store = await migrated(createStore('pglite', createPgliteDialect({ dataDir: options.dataDir }), 1, copy), onStep);
    return { ...store, close: () => store.close().finally(unlock) };
  } catch (error) {
    await unlock();
    throw error;
  }
}

async function migrated(store: Store, onStep: (step: StoreStep) => void): Promise<Store> {
  try {
    // The first query starts PGlite (creating its files on a first start) or connects.
    let started = Date.now();
    await store.ping();
    onStep({ step: 'connected', backend: store.backend, ms: Date.now() - started });
    started = Date.now();
    const applied = await migrate(store.db);
    onStep({ step: 'migrated', applied, ms: Date.now() - started });
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}
