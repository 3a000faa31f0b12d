// The world of rules-engine.ts: the fake hosting platform over real git (test/support/fake-platform)
// and a benchmark store that outlive Switchyard, which runs in this process with its rules engine
// as the GitHub App `switchyard` installed on the owner (check runs can only be written by apps)
// and receives the platform's signed webhooks, as in production. Switchyard can be restarted on
// the same store and platform (an empty snapshot cache, another coalescing window); every call
// its engine makes to the platform is counted per evaluation (rules-engine-calls.ts).
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { HostingApi } from '../src/hosting/hosting-api.ts';
import { createAutomation, type Automation } from '../src/services/automation/automation.ts';
import type { Backend } from '../src/storage/store.ts';
import { FakePlatform } from '../test/support/fake-platform/fake-platform.ts';
import { hostingClientFor } from '../test/support/fake-platform/platform-client.ts';
import type { FakeApp } from '../test/support/fake-platform/platform-model.ts';
import { openBenchStore, type BenchStore } from './bench-store.ts';
import { PlatformCallLog } from './rules-engine-calls.ts';

export const OWNER = 'bench';
const SERVICE_TOKEN = 'bench-service-token-0123456789';
const WEBHOOK_SECRET = 'bench-webhook-secret-0123456789';

export interface SwitchyardSettings {
  /** The rules engine's coalescing window (production: 1000 ms). */
  coalesceMs: number;
  /** The hosting client's least time between two writes (production: 1000 ms; the tests' 0). */
  writeIntervalMs: number;
  /** Pull requests of a repository the engine evaluates at once (RulesEngineOptions.concurrency). */
  concurrency?: number;
  /** Added to every answer of the platform, as GitHub's round trip (the fake on loopback answers in a few ms). */
  platformLatencyMs?: number;
}

interface Running {
  app: FastifyInstance;
  automation: Automation;
  calls: PlatformCallLog;
  baseUrl: string;
}

export class RulesWorld {
  /** When each webhook delivery was answered by Switchyard, by delivery id. */
  readonly webhookAnswered = new Map<string, number>();
  /** The engine's own complaints (an evaluation that failed), counted. */
  readonly engineErrors: string[] = [];
  private running: Running | null = null;

  private constructor(
    readonly platform: FakePlatform,
    readonly bench: BenchStore,
    private readonly switchyardApp: FakeApp,
  ) {}

  static async open(backend: Backend): Promise<RulesWorld> {
    const platform = await new FakePlatform().start();
    const bench = await openBenchStore(backend);
    platform.createOrganization(OWNER);
    const app = platform.createApp('switchyard');
    platform.installApp(app, OWNER);
    return new RulesWorld(platform, bench, app);
  }

  get store() {
    return this.bench.store;
  }

  get switchyard(): Running {
    if (!this.running) throw new Error('Switchyard is not running');
    return this.running;
  }

  /** Starts Switchyard (stopping the one running, if any): an empty snapshot cache, these settings. */
  async start(settings: SwitchyardSettings): Promise<void> {
    await this.stopSwitchyard();
    const calls = new PlatformCallLog();
    const client = hostingClientFor(this.platform, { kind: 'app', appId: String(this.switchyardApp.id), privateKey: this.switchyardApp.privateKey }, { writeIntervalMs: settings.writeIntervalMs });
    const log = { warn: (object: object, message: string) => this.complain(object, message), error: (object: object, message: string) => this.complain(object, message) };
    // The engine's loop timings are production's (createAutomation's defaults); only the window is set.
    const automation = createAutomation(this.store, calls.wrap(client), { coalesceMs: settings.coalesceMs, log, ...(settings.concurrency === undefined ? {} : { concurrency: settings.concurrency }) });
    this.platform.faults.clear();
    if (settings.platformLatencyMs) this.platform.faults.add({ kind: { delayMs: settings.platformLatencyMs } });
    calls.observe(automation.service!);
    const app = await buildApp({
      config: { serviceToken: SERVICE_TOKEN, webhookSecret: WEBHOOK_SECRET, publicUrl: undefined, logLevel: 'silent', limits: { requestsPerMinutePerAddress: 1e9, requestsPerMinutePerCredential: 1e9, requestsPerMinutePerOwner: 1e9, connectionsTotal: 1e6, connectionsPerAddress: 1e6, bodiesReadPerAddress: 1e6 } },
      store: this.store,
      hosting: new HostingApi(this.platform.url, { verificationsPerMinute: 1e9 }),
      automation,
    });
    app.addHook('onResponse', async (request) => {
      const delivery = request.headers['x-github-delivery'];
      if (typeof delivery === 'string') this.webhookAnswered.set(delivery, Date.now());
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    this.platform.subscribe({ url: `${baseUrl}/v1/hooks/hosting`, secret: WEBHOOK_SECRET });
    automation.engine!.start();
    this.running = { app, automation, calls, baseUrl };
  }

  /** A request to Switchyard's API with the service token; the JSON answer. */
  async api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(this.switchyard.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${SERVICE_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  }

  async close(): Promise<void> {
    await this.stopSwitchyard();
    await this.platform.stop();
    await this.bench.dispose();
  }

  private async stopSwitchyard(): Promise<void> {
    if (!this.running) return;
    const { app, automation, baseUrl } = this.running;
    this.running = null;
    // Webhooks go to the Switchyard that runs next, not to a closed port.
    const subscriptions = this.platform.webhooks.subscriptions;
    subscriptions.splice(subscriptions.findIndex((s) => s.url.startsWith(baseUrl)), 1);
    await this.platform.webhooks.settled();
    await automation.engine!.stop();
    await app.close();
  }

  private complain(object: object, message: string): void {
    const error = (object as { err?: unknown }).err;
    this.engineErrors.push(`${message}${error ? `: ${(error as Error).message ?? String(error)}` : ''}`);
  }
}
