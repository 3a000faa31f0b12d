// Webhooks to the rules engine (DESIGN.md §14): each asks for an evaluation of the pull requests
// it concerns a second from now (changes within the second coalesce into one evaluation), keeps
// what its payload says of the pull request, and marks stale what it says changed. A push to the
// default branch that touches a configuration file asks for the file to be read again.
import type { RulesSignal } from '../../domain/webhooks/rules-signal-event.ts';
import { CONFIGURATION_PATHS } from '../../domain/configuration/configuration-paths.ts';
import { readPullRequest } from '../../hosting/read-answers.ts';
import type { RepositoryIdentity } from '../../storage/queries/repositories.ts';
import type { Store } from '../../storage/store.ts';
import type { SnapshotCache } from './snapshot-cache.ts';

export interface RulesSignalDeps {
  store: Store;
  cache: SnapshotCache;
  /** Tells the engine something is due. */
  wake: () => void;
  /** Whether the repository's conditions read anything a push to a base changes (commits behind, conflicts). */
  readsBase: (repository: RepositoryIdentity) => Promise<boolean>;
  clock?: () => number;
  coalesceMs?: number;
}

export class RulesSignals {
  constructor(private readonly deps: RulesSignalDeps) {}

  async apply(signal: RulesSignal): Promise<void> {
    const { store } = this.deps;
    const repository = await store.repositories.identify(signal.repository.owner, signal.repository.name);
    if (!repository) return;
    const numbers = await this.concerned(repository, signal);
    // Asked at `now`: a pull request under evaluation meanwhile is evaluated again (RulesEngineQueries.schedule).
    const now = new Date(this.now());
    await store.rulesEngine.schedule(repository.id, numbers, this.dueAt(), now);
    if (signal.kind === 'push' && touchesConfiguration(signal)) await store.rulesEngine.scheduleConfigurationRead(repository.id, this.dueAt(), undefined, now);
    if (numbers.length > 0 || signal.kind === 'push') this.deps.wake();
  }

  private async concerned(repository: RepositoryIdentity, signal: RulesSignal): Promise<bigint[]> {
    const { store, cache } = this.deps;
    const repositoryId = repository.id;
    switch (signal.kind) {
      case 'pulls':
        if (signal.pull) keepPayload(cache, repositoryId, signal.pull);
        if (signal.reviewsChanged) for (const number of signal.numbers) cache.forget(repositoryId, number, 'reviews');
        return signal.numbers;
      case 'head': {
        const numbers = await store.pullRequests.openWithHead(repositoryId, signal.sha);
        for (const number of numbers) cache.forget(repositoryId, number, signal.checks);
        return numbers;
      }
      case 'push':
        // A push to a base changes nothing a pull request's rules read, unless they read how far behind it is.
        return (await this.deps.readsBase(repository)) ? store.pullRequests.open(repositoryId, { baseRef: signal.branch }) : [];
    }
  }

  private dueAt(): Date {
    return new Date(this.now() + (this.deps.coalesceMs ?? 1_000));
  }

  private now(): number {
    return (this.deps.clock ?? Date.now)();
  }
}

/** The payload's pull request, when it reads as one: a malformed one is simply not kept (the platform is read instead). */
function keepPayload(cache: SnapshotCache, repositoryId: string, pull: Record<string, unknown>): void {
  try {
    cache.pullFromWebhook(repositoryId, readPullRequest(pull));
  } catch {
    // The evaluation reads the pull request from the platform.
  }
}

function touchesConfiguration(signal: Extract<RulesSignal, { kind: 'push' }>): boolean {
  if (signal.defaultBranch !== null && signal.branch !== signal.defaultBranch) return false;
  return signal.files === null || signal.files.some((path) => (CONFIGURATION_PATHS as readonly string[]).includes(path));
}
