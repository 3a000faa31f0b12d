// Starts Switchyard on loopback over a test store, with the fake hosting platform beside it
// (test/support/fake-platform/), whose webhooks go to the app.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { Limits } from '../../src/config.ts';
import { stringifyJson } from '../../src/json/exact-json.ts';
import { HostingApi } from '../../src/hosting/hosting-api.ts';
import type { Backend, Store } from '../../src/storage/store.ts';
import { openTestStore } from './backends.ts';
import { FakeHosting } from './fake-hosting.ts';
import { MergeQueueExecutor } from '../../src/services/merge-queue/executor/merge-queue-executor.ts';
import { hostingClientFor } from './fake-platform/platform-client.ts';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import type { ClientTuning } from '../../src/hosting/octokit-client.ts';
import { createAutomation, type Automation } from '../../src/services/automation/automation.ts';

/** The platform user the merge queue acts as in tests: grant it write on a repository to queue there. */
export const QUEUE_BOT = 'switchyard-bot';

export const SERVICE_TOKEN = 'test-service-token-0123456789';
export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  hosting: FakeHosting;
  /** The merge-queue executor, when asked for (`executor` option); started. */
  executor: MergeQueueExecutor | undefined;
  /** The rules engine's parts; the engine runs (as a GitHub App installed on `rules.owner`) when asked for. */
  automation: Automation;
  baseUrl: string;
  /** fetch against the app, with JSON helpers */
  request(method: string, path: string, options?: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface TestAppOptions {
  /** SWITCHYARD_PUBLIC_URL; unset by default, so links come from the request's host. */
  publicUrl?: string;
  /**
   * Unknown hosting tokens one client address may have verified per minute. Every test client
   * is 127.0.0.1, so by default the budget is out of the way; the test of the budget sets it.
   */
  tokenVerificationsPerMinute?: number;
  /** the clock of the hosting client's cache and budget (a test freezes it to count exactly) */
  hostingClock?: () => number;
  /** Runs the merge queue on the fake platform, as QUEUE_BOT; loop timings for tests. */
  executor?: { tickMs?: number; pollMs?: number; leaseMs?: number; holder?: string; clock?: () => number };
  /** The hosting client's tuning (pacing, retries) beyond the tests' fast defaults (FAST_TUNING). */
  hostingTuning?: ClientTuning;
  /** What the executor (only) acts through, in place of the plain client: faults between it and the platform. */
  executorPlatform?: (platform: HostingPlatform) => HostingPlatform;
  /** AppDeps.onQueueChanged: told of each committed change to a queue's controls */
  onQueueChanged?: (repositoryId: string) => void;
  /**
   * Limits other than the defaults (src/config.ts, DEFAULT_LIMITS). Every test client is
   * 127.0.0.1 and most use a few keys, so the rate limits and the connection caps are out of the
   * way unless set here.
   */
  limits?: Partial<Limits>;
  /** SWITCHYARD_TRUSTED_PROXIES; none by default */
  trustedProxies?: string[];
  /** SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS; the default otherwise */
  webhookMaxAgeSeconds?: number;
  /**
   * Runs the rules engine as the GitHub App `switchyard`, installed on the account `owner` (made
   * an organization when it does not exist): check runs can only be written by apps.
   */
  rules?: { owner: string; tickMs?: number; coalesceMs?: number; clock?: () => number };
}

/** Starts the app on a fresh store of `backend`, or on `given` (which the caller disposes). */
export async function startTestApp(backend: Backend, given?: Store, options: TestAppOptions = {}): Promise<TestApp> {
  const hosting = await new FakeHosting().start();
  const { store, dispose } = given ? { store: given, dispose: async () => undefined } : await openTestStore(backend);
  const bot = options.executor ? hosting.createUser(QUEUE_BOT) : null;
  const platform = bot ? hostingClientFor(hosting, { kind: 'token', token: bot.token }, options.hostingTuning) : null;
  const executor = platform && options.executor ? new MergeQueueExecutor({ store, platform: options.executorPlatform?.(platform) ?? platform, tickMs: 50, pollMs: 100, leaseMs: 15_000, ...options.executor }) : undefined;
  const automation = createAutomation(store, options.rules ? rulesClient(hosting, options.rules.owner, options.hostingTuning) : null, { tickMs: 50, coalesceMs: 100, leaseMs: 15_000, ...options.rules });
  const app = await buildApp({
    config: { serviceToken: SERVICE_TOKEN, webhookSecret: WEBHOOK_SECRET, publicUrl: options.publicUrl, logLevel: 'silent', limits: { requestsPerMinutePerAddress: 1_000_000, requestsPerMinutePerCredential: 1_000_000, requestsPerMinutePerOwner: 1_000_000, connectionsTotal: 1_000_000, connectionsPerAddress: 1_000_000, bodiesReadPerAddress: 1_000_000, ...options.limits }, trustedProxies: options.trustedProxies, webhookMaxAgeSeconds: options.webhookMaxAgeSeconds },
    store,
    hosting: new HostingApi(hosting.url, { verificationsPerMinute: options.tokenVerificationsPerMinute ?? 1_000_000, now: options.hostingClock }),
    hostingPlatform: platform,
    ...(executor ? { executor } : {}),
    automation,
    onQueueChanged: options.onQueueChanged,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // What happens on the fake platform reaches the app as it would from GitHub: signed webhooks.
  hosting.subscribe({ url: `${baseUrl}/v1/hooks/hosting`, secret: WEBHOOK_SECRET });
  executor?.start();
  automation.engine?.start();
  return {
    app,
    store,
    hosting,
    executor,
    automation,
    baseUrl,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const token = options.token === undefined ? SERVICE_TOKEN : options.token;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) body = stringifyJson(options.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const response = await fetch(baseUrl + path, { method, headers, body });
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async close() {
      await executor?.stop();
      await automation.engine?.stop();
      await app.close();
      await dispose();
      await hosting.stop();
    },
  };
}

/** The rules engine's client: the app `switchyard`, installed on every repository of `owner`. */
function rulesClient(hosting: FakeHosting, owner: string, tuning?: ClientTuning): HostingPlatform {
  if (!hosting.core.accounts.find(owner)) hosting.createOrganization(owner);
  const switchyard = hosting.createApp('switchyard');
  hosting.installApp(switchyard, owner);
  return hostingClientFor(hosting, { kind: 'app', appId: String(switchyard.id), privateKey: switchyard.privateKey }, tuning);
}
