// The rules engine's loop (DESIGN.md §14): started with the server, it takes each repository with
// something due (a configuration to read, pull requests to evaluate: a webhook's coalesced ask
// or a durable timer), holds the repository's lease while it works, and evaluates what is due.
// Several processes may share one PostgreSQL: the lease makes one of them evaluate a repository
// at a time, and a dead holder's lease expires. Everything due is a row, so a restart loses
// nothing: what was due is still due.
import { randomUUID } from 'node:crypto';
import { WakeableSleep } from '../wakeable-sleep.ts';
import { HostingFailure } from '../../hosting/hosting-failure.ts';
import type { RepositoryIdentity } from '../../storage/queries/repositories.ts';
import type { Store } from '../../storage/store.ts';

/** What the engine does for a repository: implemented by RulesService. */
export interface RulesWork {
  readConfiguration(repository: RepositoryIdentity): Promise<void>;
  /** Evaluates one pull request; the instant a time condition can next change what it says, if any. */
  evaluate(repository: RepositoryIdentity, number: bigint): Promise<Date | null>;
}

export interface RulesEngineOptions {
  store: Store;
  work: RulesWork;
  holder?: string;
  clock?: () => number;
  /** The longest sleep between passes when nothing wakes the loop. */
  tickMs?: number;
  leaseMs?: number;
  /** Pull requests evaluated per repository before the lease is renewed. */
  batchSize?: number;
  /**
   * Pull requests of one repository evaluated at once. An evaluation mostly waits for the
   * platform (a lookup and a write of the Summary at least, 100–300 ms each on GitHub), so one
   * at a time caps a repository at a few evaluations a second (issue 30 asks for 20).
   */
  concurrency?: number;
  log?: { warn(object: object, message: string): void; error(object: object, message: string): void };
}

const SILENT = { warn() {}, error() {} };
/** A pull request whose evaluation failed is tried again this much later (the platform may be down). */
const RETRY_MS = 30_000;

export class RulesEngine {
  readonly holder: string;
  private readonly clock: () => number;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private readonly pause = new WakeableSleep();
  private backoffUntil = 0;

  constructor(private readonly options: RulesEngineOptions) {
    this.holder = options.holder ?? `switchyard-rules-${process.pid}-${randomUUID()}`;
    this.clock = options.clock ?? Date.now;
  }

  start(): void {
    this.loop ??= this.run();
  }

  wake(): void {
    this.pause.wake();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.wake();
    await this.loop;
    await this.options.store.rulesEngine.releaseLeases(this.holder).catch(() => undefined);
  }

  /** One pass over every repository with something due (tests and benchmarks call it directly too). */
  async pass(): Promise<void> {
    const { store } = this.options;
    for (const repositoryId of await store.rulesEngine.repositoriesDue(new Date(this.clock()))) {
      if (this.stopping) return;
      if (!(await this.renew(repositoryId))) continue;
      const repository = await store.repositories.byId(repositoryId);
      if (repository) await this.drive(repository);
    }
  }

  private renew(repositoryId: string): Promise<boolean> {
    const leaseMs = this.options.leaseMs ?? 15_000;
    return this.options.store.rulesEngine.claimLease(repositoryId, this.holder, new Date(this.clock() + leaseMs), new Date(this.clock()));
  }

  private async drive(repository: RepositoryIdentity): Promise<void> {
    const { store, work } = this.options;
    const readDue = await store.rulesEngine.configurationReadDue(repository.id, new Date(this.clock()));
    if (readDue) {
      await work.readConfiguration(repository);
      await store.rulesEngine.configurationReadDone(repository.id, readDue);
    }
    const batchSize = this.options.batchSize ?? 50;
    for (;;) {
      const due = await store.rulesEngine.due(repository.id, new Date(this.clock()), batchSize);
      await this.evaluateEach(repository, due);
      if (due.length < batchSize || this.stopping || !(await this.renew(repository.id))) return;
    }
  }

  /** Each due pull request once, `concurrency` at a time; the first failure that stops the pass stops taking more, then is thrown. */
  private async evaluateEach(repository: RepositoryIdentity, due: readonly { number: bigint; dueAt: Date }[]): Promise<void> {
    let next = 0;
    let failure: { error: unknown } | null = null;
    const worker = async () => {
      while (next < due.length && !this.stopping && !failure) {
        const { number, dueAt } = due[next++]!;
        try {
          await this.evaluateOne(repository, number, dueAt);
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency ?? 8, due.length) }, worker));
    if (failure) throw (failure as { error: unknown }).error;
  }

  private async evaluateOne(repository: RepositoryIdentity, number: bigint, dueAt: Date): Promise<void> {
    const { store, work } = this.options;
    try {
      const next = await work.evaluate(repository, number);
      await store.rulesEngine.done(repository.id, number, dueAt);
      if (next) await store.rulesEngine.schedule(repository.id, [number], next, new Date(this.clock()));
    } catch (error) {
      // Tried again later, not at once: a failing pull request must not hold the others.
      await store.rulesEngine.done(repository.id, number, dueAt);
      await store.rulesEngine.schedule(repository.id, [number], new Date(this.clock() + RETRY_MS), new Date(this.clock()));
      if (error instanceof HostingFailure && (error.kind === 'unavailable' || error.kind === 'rate_limited')) {
        this.backoffUntil = this.clock() + (error.retryAfterSeconds ?? 5) * 1000;
        throw error;
      }
      (this.options.log ?? SILENT).error({ err: error, repository: `${repository.owner}/${repository.name}`, number: number.toString() }, 'rules engine: an evaluation failed; it is tried again later');
    }
  }

  private async run(): Promise<void> {
    const tickMs = this.options.tickMs ?? 1_000;
    // Repositories registered before the rules engine existed have their file read once.
    await this.options.store.rulesEngine.scheduleUnreadConfigurations(new Date(this.clock())).catch((error: unknown) => (this.options.log ?? SILENT).warn({ err: error }, 'rules engine: could not schedule the first configuration reads'));
    while (!this.stopping) {
      if (this.clock() >= this.backoffUntil) {
        try {
          await this.pass();
        } catch (error) {
          (this.options.log ?? SILENT).warn({ err: error }, 'rules engine: the hosting platform is not answering; waiting');
        }
      }
      if (this.stopping) break;
      await this.sleep(await this.untilNext(tickMs));
    }
  }

  /** Until the next thing due, at most `tickMs` (another process may have asked meanwhile). */
  private async untilNext(tickMs: number): Promise<number> {
    const next = await this.options.store.rulesEngine.nextDue().catch(() => null);
    if (!next) return tickMs;
    return Math.max(10, Math.min(tickMs, next.getTime() - this.clock()));
  }

  private sleep(ms: number): Promise<void> {
    return this.pause.sleep(ms);
  }

}
