// What each evaluation of the rules engine asked of the hosting platform, for rules-engine.ts:
// the hosting client is wrapped so every call it receives is counted against the evaluation
// running it (AsyncLocalStorage follows the evaluation through its awaits), whichever part of
// the service made it. The service's own counter (RulesService.counters.platformReads) counts
// the snapshot's reads only; this also sees the lookup of the Summary before each write.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HostingPlatform } from '../src/hosting/hosting-platform.ts';
import type { RulesService } from '../src/services/automation/rules-service.ts';

export interface EvaluationCalls {
  number: bigint;
  /** Date.now() when it began and ended. */
  startedAt: number;
  /** The snapshot's reads: pull request, checks, reviews, files, commits, comparison, teams, contents. */
  reads: number;
  /** GETs of the check run about to be written (upsertCheckRun looks it up first). */
  lookups: number;
  /** Check runs created or changed. */
  writes: number;
  /** Which calls, by method name. */
  byMethod: Record<string, number>;
  ms: number;
  /** Of which waiting for the platform's answers. */
  platformMs: number;
  endedAt: number;
}

/** The client's reads (its private helpers, through which every call goes, are not counted twice). */
const READS = new Set(['pullRequest', 'listPullRequests', 'branchHead', 'commitParents', 'compare', 'checkRuns', 'combinedStatus', 'collaboratorPermission', 'fileContent', 'repository', 'pullRequestFiles', 'pullRequestCommits', 'reviews', 'teamMembers', 'comments']);
const WRITES = new Set(['createBranch', 'moveBranch', 'deleteBranch', 'mergeIntoBranch', 'createPullRequest', 'closePullRequest', 'mergePullRequest', 'updatePullRequestBranch', 'comment', 'updateComment', 'deleteComment']);
const COUNTED = new Set([...READS, ...WRITES, 'findCheckRun', 'upsertCheckRun']);

export class PlatformCallLog {
  readonly evaluations: EvaluationCalls[] = [];
  /** Calls made outside any evaluation (configuration reads). */
  readonly outside: Record<string, number> = {};
  private readonly current = new AsyncLocalStorage<EvaluationCalls>();
  /** Per evaluation waiting for the platform: calls in flight (nested and parallel ones too), and since when. */
  private readonly inFlight = new Map<EvaluationCalls, { calls: number; since: number }>();

  /** The client the service is given: the same calls, counted. */
  wrap(platform: HostingPlatform): HostingPlatform {
    const log = this;
    return new Proxy(platform, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string' || !COUNTED.has(property)) return value;
        return async function counted(this: unknown, ...args: unknown[]) {
          const calls = log.current.getStore();
          if (calls) log.waiting(calls, +1);
          try {
            const result = await value.apply(receiver, args);
            log.count(property, result);
            return result;
          } finally {
            if (calls) log.waiting(calls, -1);
          }
        };
      },
    });
  }

  /** Runs each evaluation of `service` in a context of its own, recorded once it ends. */
  observe(service: RulesService): void {
    const evaluate = service.evaluate.bind(service);
    service.evaluate = (repository, number) => {
      const calls: EvaluationCalls = { number, startedAt: Date.now(), reads: 0, lookups: 0, writes: 0, byMethod: {}, ms: 0, platformMs: 0, endedAt: 0 };
      const start = performance.now();
      return this.current.run(calls, () => evaluate(repository, number)).finally(() => {
        calls.ms = performance.now() - start;
        calls.endedAt = Date.now();
        this.evaluations.push(calls);
      });
    };
  }

  /** Time with at least one call in flight counts once, however many overlap. */
  private waiting(calls: EvaluationCalls, delta: 1 | -1): void {
    const state = this.inFlight.get(calls) ?? { calls: 0, since: performance.now() };
    state.calls += delta;
    if (state.calls > 0) this.inFlight.set(calls, state);
    else {
      calls.platformMs += performance.now() - state.since;
      this.inFlight.delete(calls);
    }
  }

  private count(method: string, result: unknown): void {
    const calls = this.current.getStore();
    if (!calls) {
      this.outside[method] = (this.outside[method] ?? 0) + 1;
      return;
    }
    calls.byMethod[method] = (calls.byMethod[method] ?? 0) + 1;
    // upsertCheckRun's own lookup and write are counted here; its findCheckRun comes through the proxy too.
    if (method === 'upsertCheckRun') calls.writes += (result as { changed: boolean }).changed ? 1 : 0;
    else if (method === 'findCheckRun') calls.lookups += 1;
    else if (WRITES.has(method)) calls.writes += 1;
    else if (READS.has(method)) calls.reads += 1;
  }
}
