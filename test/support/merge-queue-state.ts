// Builders of merge-queue states for the unit and property tests of src/domain/merge-queue.
import type { Batch, MergeQueueConfig, Priority, QueueEntry, QueueMode, QueueRuleConfig, QueueState } from '../../src/domain/merge-queue/model.ts';

export interface ConfigOptions {
  mode?: QueueMode;
  maxParallelChecks?: number;
  batchSize?: QueueRuleConfig['batch_size'];
  batchMaxWaitTime?: number;
  maxChecksRetries?: number;
  checksTimeout?: number;
  missing?: 'wait' | 'barrier';
  waitSeconds?: number;
  resetOnExternalMerge?: 'always' | 'never';
  skipIntermediateResults?: boolean;
  extraRules?: QueueRuleConfig[];
}

export function queueConfig(options: ConfigOptions = {}): MergeQueueConfig {
  return {
    merge_queue: {
      mode: options.mode ?? 'serial',
      max_parallel_checks: options.maxParallelChecks ?? 5,
      skip_intermediate_results: options.skipIntermediateResults ?? false,
      reset_on_external_merge: options.resetOnExternalMerge ?? 'always',
    },
    queue_rules: [
      {
        name: 'default',
        batch_size: options.batchSize ?? 1,
        batch_max_wait_time: options.batchMaxWaitTime ?? 30,
        checks_timeout: options.checksTimeout ?? 3600,
        max_checks_retries: options.maxChecksRetries ?? 0,
        merge_method: 'merge',
        required_checks: [],
        branches: [],
      },
      ...(options.extraRules ?? []),
    ],
    priority_rules: [],
    scopes: { missing: options.missing ?? 'wait', wait_seconds: options.waitSeconds ?? 600 },
  };
}

export interface EntryOptions {
  /** Scopes reported; null: nothing reported. Default: []. */
  scopes?: string[] | null;
  barrier?: boolean;
  priority?: Priority;
  /** Entry time in seconds. Default: the number. */
  at?: number;
  rule?: string;
  embarkCount?: number;
}

/** Entry `n`: id `entry-000n` (so ids sort as numbers do), pull request #n. */
export function queueEntry(n: number, options: EntryOptions = {}): QueueEntry {
  const at = (options.at ?? n) * 1000;
  const scopes = options.scopes === undefined ? [] : options.scopes;
  return {
    id: entryId(n),
    number: BigInt(n),
    headSha: n.toString(16).padStart(40, '0'),
    queueRule: options.rule ?? 'default',
    priority: options.priority ?? 'medium',
    priorityRuleName: null,
    enteredAt: at,
    scopes: scopes === null ? null : { scopes: [...scopes].sort(), allScopes: options.barrier ?? false },
    scopesAwaitedSince: at,
    embarkCount: options.embarkCount ?? 0,
  };
}

export const entryId = (n: number): string => `entry-${String(n).padStart(4, '0')}`;

export function queueState(config: MergeQueueConfig, entries: QueueEntry[], batches: Batch[] = [], holds = { paused: false, frozen: false }): QueueState {
  return { queueId: 'queue-1', baseRef: 'main', config, entries, batches, holds };
}
