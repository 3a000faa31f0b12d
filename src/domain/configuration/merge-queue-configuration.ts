// The merge queue's configuration (DESIGN.md §9) when a file governs: the queue's existing
// shape, unchanged, plus one field it does not read yet, `conditions`, carrying each queue and
// priority rule's parsed conditions in rule order. In the file, conditions say what §9's
// `branches`, `required_checks` and `labels` said, so those are empty here: every queue rule
// covers every branch and no priority rule matches by label until the queue reads `conditions`.
import { defaultMergeQueueConfig } from '../merge-queue/config-defaults.ts';
import type { MergeQueueConfig } from '../merge-queue/model.ts';
import type { EffectiveConfiguration } from './effective-configuration.ts';

// Checks that never end within the longest timeout the queue takes (a week) are timed out then.
const LONGEST_CHECKS_TIMEOUT = 604_800;

export interface MergeQueueRuleConditions<C> {
  queue_rules: { name: string; queue_conditions: C; merge_conditions: C }[];
  priority_rules: { name: string; conditions: C }[];
}

export interface MergeQueueConfigFromFile<C> extends MergeQueueConfig {
  conditions: MergeQueueRuleConditions<C>;
}

export function toMergeQueueConfiguration<C>(effective: EffectiveConfiguration<C>): MergeQueueConfigFromFile<C> {
  const { barrier_files } = effective.scopes;
  const { missing, wait_seconds } = defaultMergeQueueConfig().scopes;
  return {
    merge_queue: { ...effective.merge_queue },
    queue_rules: effective.queue_rules.map((rule) => ({
      name: rule.name,
      batch_size: typeof rule.batch_size === 'number' ? rule.batch_size : { ...rule.batch_size },
      batch_max_wait_time: rule.batch_max_wait_time,
      checks_timeout: rule.checks_timeout ?? LONGEST_CHECKS_TIMEOUT,
      max_checks_retries: rule.max_checks_retries,
      merge_method: rule.merge_method,
      required_checks: [],
      branches: [],
    })),
    priority_rules: effective.priority_rules.map((rule) => ({ name: rule.name, priority: rule.priority, labels: [] })),
    // The file's vocabulary has no `missing` or `wait_seconds`: the §9 defaults hold.
    scopes: { missing, wait_seconds, ...(barrier_files ? { barrier_files: structuredClone(barrier_files) } : {}) },
    conditions: {
      queue_rules: effective.queue_rules.map((rule) => ({ name: rule.name, queue_conditions: rule.queue_conditions, merge_conditions: rule.merge_conditions })),
      priority_rules: effective.priority_rules.map((rule) => ({ name: rule.name, conditions: rule.conditions })),
    },
  };
}
