// Builds the HTTP application from its dependencies. Reads no environment: main.ts and the
// tests hand it a config, a store and a hosting-platform client.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_LIMITS, DEFAULT_WEBHOOK_MAX_AGE_SECONDS, type Config, type Limits } from './config.ts';
import { ApiError } from './errors.ts';
import { parseJson, stringifyJson, type JsonBounds } from './json/exact-json.ts';
import { jsonBoundsOf, NO_BOUNDS } from './validation/json-bounds.ts';
import { decodeUtf8 } from './json/strict-utf8.ts';
import type { HostingApi } from './hosting/hosting-api.ts';
import type { Store } from './storage/store.ts';
import type { CredentialDeps } from './http/auth/principal.ts';
import { sendClientError, sendError } from './http/error-handler.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerQueueMetrics } from './http/merge-queue-metrics.ts';
import { QueueMetricsFeed } from './services/merge-queue-metrics-feed.ts';
import { registerOpenApi } from './http/openapi.ts';
import { compileBodyValidator, compileParameterValidator } from './validation/validators.ts';
import { operationsRoutes } from './http/routes/operations.ts';
import { adminKeyRoutes } from './http/routes/admin-keys.ts';
import { adminRepoRoutes } from './http/routes/admin-repos.ts';
import { scopeRoutes } from './http/routes/scopes.ts';
import { productRoutes } from './http/routes/products.ts';
import { logRoutes } from './http/routes/logs.ts';
import { logAggregateRoutes } from './http/routes/logs-aggregate.ts';
import { ingestRoutes } from './http/routes/ingest.ts';
import { hostingWebhookRoutes } from './http/routes/hosting-webhooks.ts';
import { mergeQueueRoutes } from './http/routes/merge-queue.ts';
import { DEFAULT_HOSTING_WEB_URL } from './http/merge-queue/public-pull-fields.ts';
import { MergeQueueService } from './services/merge-queue/merge-queue-service.ts';
import { QueueSignals } from './services/merge-queue/queue-signals.ts';
import type { HostingPlatform } from './hosting/hosting-platform.ts';
import { mergeQueueControlRoutes } from './http/routes/merge-queue-controls.ts';
import { configurationRoutes } from './http/routes/configuration.ts';
import { pullRulesRoutes } from './http/routes/pull-rules.ts';
import { createAutomation, type Automation } from './services/automation/automation.ts';
import { mergeQueueStatsRoutes } from './http/routes/merge-queue-stats.ts';
import { MergeQueueStats } from './services/merge-queue-stats.ts';
import { dashboardRoutes } from './web/dashboard-routes.ts';
import { BodyMemoryBudget } from './http/limits/body-memory-budget.ts';
import { registerMeteredBodies } from './http/limits/metered-bodies.ts';
import { registerRateLimits } from './http/limits/rate-limits.ts';
import { OwnerShare, registerOwnerShare } from './http/limits/owner-share.ts';
import { registerLingeringClose } from './http/limits/lingering-close.ts';
import { ConnectionGate, gateConnections } from './http/limits/connection-gate.ts';
import { addressMatcher } from './http/limits/address-matcher.ts';
import { registerBodyProgress } from './http/limits/body-progress.ts';
import { BodySlots, registerBodySlots } from './http/limits/body-slots.ts';

export const BODY_LIMIT = 1024 * 1024;

export interface AppDeps {
  /** `limits` left out are DEFAULT_LIMITS */
  config: Pick<Config, 'serviceToken' | 'webhookSecret' | 'publicUrl' | 'logLevel'> & { limits?: Partial<Limits>; trustedProxies?: readonly string[]; webhookMaxAgeSeconds?: number; hostingWebUrl?: string };
  store: Store;
  hosting: HostingApi;
  /** The merge queue's use cases; made over `store` when not given. */
  mergeQueue?: MergeQueueService;
  /** How the merge queue acts on the hosting platform (comment replies, permission checks); none without credentials. */
  hostingPlatform?: HostingPlatform | null;
  /** The merge queue's executor, woken when a queue changes or a webhook says checks or a branch moved. */
  executor?: { wake(repositoryId?: string): void };
  /** The process's logger (made with loggerOptions), when start-up logged before the app existed. */
  logger?: FastifyBaseLogger;
  /** The rules engine's parts (configuration, webhook signals); made over `store` and `hostingPlatform` when not given. */
  automation?: Automation;
  /** Told after a change to a repository's merge-queue configuration, pause or freezes commits. */
  onQueueChanged?: (repositoryId: string) => void;
}

/** pino's options for Switchyard's logs: credentials and signatures never written. */
export function loggerOptions(level: Config['logLevel']) {
  return { level, redact: ['req.headers.authorization', 'req.headers["x-hub-signature-256"]'] };
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

function createServer(config: AppDeps['config'], logger: FastifyBaseLogger | undefined, limits: Limits) {
  return Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: loggerOptions(config.logLevel) }),
    bodyLimit: BODY_LIMIT,
    // What a legitimate client needs, not Node's or Fastify's defaults (60 s for headers, no limit
    // on a request, 72 s idle between requests): a connection held by a slow or idle client is a
    // connection nobody else has (docs/security.md, "Connections").
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node looks for expired requests every 30 s by default, which let a 60 s header timeout
      // hold connections for 90.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersTimeoutMs / 4)),
    },
    // X-Forwarded-* are believed only from the configured proxies (none by default): they decide
    // the client address every per-client limit counts, and the links written back.
    trustProxy: config.trustedProxies?.length ? [...config.trustedProxies] : false,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Long enough for any valid identifier, so an over-long one is a 422 naming it, not a 414.
    routerOptions: { maxParamLength: 512 },
    // Requests refused before routing (bad percent-encoding, an over-long segment) or by Node's
    // HTTP parser (headers over 16 KiB, malformed HTTP) answer with a catalogued JSON `detail` too.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    // Fastify's default formatter writes every validation error into one message string nobody
    // reads (sendError renders the errors themselves): for 500 000 errors, tens of megabytes.
    schemaErrorFormatter: () => new Error('The request is invalid.'),
    clientErrorHandler: sendClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

// Event metadata is stored as it was sent (src/storage/queries/events.ts): when its text is
// compact, the parser keeps it, and ingestion writes it without serialising the object again.
const KEEP_SOURCE_OF = new Set(['metadata']);

// What each route's body schema can accept at most, worked out once per schema: the parser stops
// at the first value past it (src/validation/json-bounds.ts).
const boundsBySchema = new WeakMap<object, JsonBounds>();
function bodyBounds(schema: unknown): JsonBounds {
  if (typeof schema !== 'object' || schema === null) return NO_BOUNDS;
  let bounds = boundsBySchema.get(schema);
  if (!bounds) boundsBySchema.set(schema, (bounds = jsonBoundsOf(schema)));
  return bounds;
}

function installCodecs(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? compileBodyValidator(schema) : compileParameterValidator(schema)));
  // Response schemas document the API; bodies are written by our own serializer so 64-bit
  // integers (bigint) come out exact.
  app.setSerializerCompiler(() => (data) => stringifyJson(data));
  // Fastify reads text/plain by default: a JSON body sent as text got a 422 where docs/errors.md
  // promises 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // An empty body is no body: endpoints without one accept it, those with one say it is missing.
    if ((body as Buffer).length === 0) return done(null, undefined);
    try {
      done(null, parseJson(decodeUtf8(body as Buffer), { keepSourceOf: KEEP_SOURCE_OF, bounds: bodyBounds(request.routeOptions.schema?.body) }));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const limits: Limits = { ...DEFAULT_LIMITS, ...deps.config.limits };
  const app = createServer(deps.config, deps.logger, limits);
  const connections = new ConnectionGate({ total: limits.connectionsTotal, perAddress: limits.connectionsPerAddress }, addressMatcher(deps.config.trustedProxies ?? []));
  gateConnections(app.server, connections);
  installCodecs(app);
  registerLingeringClose(app);
  // First of the body's hooks: nothing reads a body before its address has a slot for it.
  registerBodySlots(app, new BodySlots(limits.bodiesReadPerAddress));
  registerMeteredBodies(app, new BodyMemoryBudget(limits.bodiesInFlightBytes, limits.bodiesInFlightPerClientBytes));
  registerBodyProgress(app, limits.bodyStallTimeoutMs);
  await registerRateLimits(app, { perAddress: limits.requestsPerMinutePerAddress, perCredential: limits.requestsPerMinutePerCredential, perOwner: limits.requestsPerMinutePerOwner });
  registerOwnerShare(app, new OwnerShare({ perOwner: limits.expensiveReadsPerOwner, total: limits.expensiveReadsTotal, waitingPerOwner: 100 }));
  // First: it records every route registered after it, for the API document and its test.
  await registerOpenApi(app, { bodyLimit: BODY_LIMIT });
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => sendError(new ApiError('route_not_found', `No endpoint ${request.method} ${request.url.split('?')[0]}.`), request, reply));

  const metrics = registerMetrics(app, connections);
  registerQueueMetrics(metrics, new QueueMetricsFeed(deps.store.mergeQueueMetrics), (message, error) => app.log.warn({ err: error }, message));
  const mergeQueue = deps.mergeQueue ?? new MergeQueueService(deps.store, Date.now, () => deps.executor?.wake());
  const signals = new QueueSignals({ store: deps.store, service: mergeQueue, platform: deps.hostingPlatform ?? null, wake: (repositoryId) => deps.executor?.wake(repositoryId) });
  const automation = deps.automation ?? createAutomation(deps.store, deps.hostingPlatform ?? null);
  const chooser = automation.service;
  if (chooser) mergeQueue.useRuleChooser((repository, number, asked) => chooser.chooseForQueue(repository, number, asked));
  const auth: CredentialDeps = { serviceToken: deps.config.serviceToken, keys: deps.store.keys, hosting: deps.hosting };
  operationsRoutes(app, { ping: () => deps.store.ready(), metrics });
  await app.register(adminKeyRoutes, { auth, keys: deps.store.keys });
  await app.register(adminRepoRoutes, { auth, store: deps.store });
  await app.register(scopeRoutes, { auth, store: deps.store });
  await app.register(productRoutes, { auth, store: deps.store });
  await app.register(logRoutes, { auth, store: deps.store, publicUrl: deps.config.publicUrl });
  await app.register(logAggregateRoutes, { auth, store: deps.store });
  await app.register(ingestRoutes, { auth, store: deps.store });
  await app.register(hostingWebhookRoutes, { store: deps.store, secret: deps.config.webhookSecret, signals, rules: automation.signals, maxAgeSeconds: deps.config.webhookMaxAgeSeconds ?? DEFAULT_WEBHOOK_MAX_AGE_SECONDS });
  const onQueueChanged = (repositoryId: string) => {
    deps.onQueueChanged?.(repositoryId);
    deps.executor?.wake(repositoryId);
  };
  await app.register(mergeQueueControlRoutes, { auth, store: deps.store, onQueueChanged });
  await app.register(mergeQueueRoutes, { auth, mergeQueue, hostingWebUrl: deps.config.hostingWebUrl ?? DEFAULT_HOSTING_WEB_URL });
  await app.register(configurationRoutes, { auth, store: deps.store, automation });
  await app.register(mergeQueueStatsRoutes, { auth, store: deps.store, stats: new MergeQueueStats(deps.store.mergeQueueStats) });
  await app.register(pullRulesRoutes, { auth, store: deps.store });
  dashboardRoutes(app);
  return app;
}
