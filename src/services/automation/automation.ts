// The rules engine's parts, made once per process: the configuration service (the API's reports
// and simulators), the webhook signals, and, with hosting credentials, the engine that evaluates.
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import type { Store } from '../../storage/store.ts';
import { ConfigurationService } from './configuration-service.ts';
import { RulesEngine, type RulesEngineOptions } from './rules-engine.ts';
import { RulesService } from './rules-service.ts';
import { RulesSignals } from './rules-signals.ts';
import { SnapshotCache } from './snapshot-cache.ts';
import { dependsOnBase } from './snapshot-needs.ts';

export interface Automation {
  configurations: ConfigurationService;
  signals: RulesSignals;
  /** null without hosting credentials: nothing is evaluated, what is due stays due. */
  service: RulesService | null;
  engine: RulesEngine | null;
}

export type AutomationOptions = Omit<RulesEngineOptions, 'store' | 'work'> & { coalesceMs?: number };

export function createAutomation(store: Store, platform: HostingPlatform | null, options: AutomationOptions = {}): Automation {
  const clock = options.clock ?? Date.now;
  const cache = new SnapshotCache(clock);
  let engine: RulesEngine | null = null;
  const configurations = new ConfigurationService({
    store,
    platform,
    clock,
    // A new configuration in force: every open pull request is evaluated again, now.
    onChanged: async (repositoryId) => {
      const now = new Date(clock());
      await store.rulesEngine.schedule(repositoryId, await store.pullRequests.open(repositoryId), now, now);
      engine?.wake();
    },
  });
  const service = platform ? new RulesService({ store, platform, configurations, cache, clock }) : null;
  engine = service ? new RulesEngine({ ...options, store, work: service }) : null;
  const signals = new RulesSignals({
    store,
    cache,
    clock,
    coalesceMs: options.coalesceMs,
    wake: () => engine?.wake(),
    readsBase: async (repository) => dependsOnBase((await configurations.inForce(repository)).parts),
  });
  return { configurations, signals, service, engine };
}
