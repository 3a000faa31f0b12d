// The merge queue's reconciler loop (DESIGN §10): started with the server, it drives every queue
// with work, one cycle at a time. Several processes may share one PostgreSQL: a queue is driven
// by the holder of its lease, renewed between steps; a holder that dies loses it when it expires
// (leaseMs), and another process takes the queue over at its next tick.
import { randomUUID } from 'node:crypto';
import { WakeableSleep } from '../../wakeable-sleep.ts';
import type { HostingPlatform } from '../../../hosting/hosting-platform.ts';
import { HostingFailure } from '../../../hosting/hosting-failure.ts';
import type { Store } from '../../../storage/store.ts';
import { QueueDriver } from './queue-driver.ts';

export interface ExecutorOptions {
  store: Store;
  platform: HostingPlatform;
  /** Names this process in leases. */
  holder?: string;
  clock?: () => number;
  /** Between two passes when nothing wakes the loop. */
  tickMs?: number;
  /** How long a lease lasts without renewal: the takeover time when a process dies. */
  leaseMs?: number;
  /** How often running checks are read without a webhook saying they changed. */
  pollMs?: number;
  log?: { warn(object: object, message: string): void; info(object: object, message: string): void; error(object: object, message: string): void };
}

const SILENT = { warn() {}, info() {}, error() {} };

export class MergeQueueExecutor {
  readonly holder: string;
  private readonly drivers = new Map<string, QueueDriver>();
  private readonly clock: () => number;
  private readonly log: NonNullable<ExecutorOptions['log']>;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private readonly pause = new WakeableSleep();
  /** Repositories whose running checks are read at the next pass (a check webhook arrived). */
  private readonly urgent = new Set<string>();
  private backoffUntil = 0;

  constructor(private readonly options: ExecutorOptions) {
    this.holder = options.holder ?? `switchyard-${process.pid}-${randomUUID()}`;
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? SILENT;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Runs a pass soon; `repositoryId` also has its running checks read at once. */
  wake(repositoryId?: string): void {
    if (repositoryId) this.urgent.add(repositoryId);
    this.pause.wake();
  }

  /** Finishes the step in progress, stops, and gives up its leases so another process takes over at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.wake();
    await this.loop;
    await this.options.store.mergeQueues.releaseLease(this.holder).catch(() => undefined);
  }

  /** One pass over every queue with work (tests and benchmarks call it directly too). */
  async pass(): Promise<void> {
    const { store } = this.options;
    const leaseMs = this.options.leaseMs ?? 15_000;
    for (const { queue, repository } of await store.mergeQueues.queuesToDrive()) {
      if (this.stopping) return;
      const renew = () => store.mergeQueues.claimLease(queue.id, this.holder, new Date(this.clock() + leaseMs), new Date(this.clock()));
      if (!(await renew())) {
        this.drivers.delete(queue.id);
        continue;
      }
      let driver = this.drivers.get(queue.id);
      if (!driver) {
        driver = new QueueDriver({ store, platform: this.options.platform, clock: this.clock, pollMs: this.options.pollMs ?? 10_000, log: this.log }, repository, queue.id, queue.baseRef);
        this.drivers.set(queue.id, driver);
      }
      if (this.urgent.delete(repository.id)) driver.pollNow();
      await driver.cycle(async () => !this.stopping && (await renew()));
    }
  }

  private async run(): Promise<void> {
    const tickMs = this.options.tickMs ?? 1_000;
    while (!this.stopping) {
      if (this.clock() >= this.backoffUntil) {
        try {
          await this.pass();
        } catch (error) {
          this.failed(error);
        }
      }
      if (this.stopping) break;
      await this.sleep(tickMs);
    }
  }

  private failed(error: unknown): void {
    if (error instanceof HostingFailure && (error.kind === 'unavailable' || error.kind === 'rate_limited')) {
      const seconds = error.retryAfterSeconds ?? 5;
      this.backoffUntil = this.clock() + seconds * 1000;
      this.log.warn({ kind: error.kind, retryAfterSeconds: seconds }, 'merge queue: the hosting platform is not answering; waiting');
      return;
    }
    this.log.error({ err: error }, 'merge queue: a pass failed; it is tried again at the next one');
  }

  private sleep(ms: number): Promise<void> {
    return this.pause.sleep(ms);
  }
}
