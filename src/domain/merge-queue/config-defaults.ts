// Every default of the merge-queue configuration (DESIGN.md §9), filled in once when a
// configuration is stored, so the planner and GET read complete values. A repository never
// configured has a serial queue with one rule, `default`.
import type { MergeQueueConfigurationInput } from './config-schema.ts';
import type { MergeQueueConfig, PriorityRuleConfig, QueueRuleConfig } from './model.ts';

type QueueRuleInput = NonNullable<MergeQueueConfigurationInput['queue_rules']>[number];
type PriorityRuleInput = NonNullable<MergeQueueConfigurationInput['priority_rules']>[number];

export const DEFAULT_QUEUE_RULE_NAME = 'default';

export function fillQueueRule(rule: QueueRuleInput): QueueRuleConfig {
  const size = rule.batch_size ?? 1;
  return {
    name: rule.name,
    batch_size: typeof size === 'number' ? size : { min: size.min, max: size.max },
    batch_max_wait_time: rule.batch_max_wait_time ?? 30,
    checks_timeout: rule.checks_timeout ?? 3600,
    max_checks_retries: rule.max_checks_retries ?? 0,
    merge_method: rule.merge_method ?? 'merge',
    required_checks: [...(rule.required_checks ?? [])],
    branches: [...(rule.branches ?? [])],
  };
}

function fillPriorityRule(rule: PriorityRuleInput): PriorityRuleConfig {
  return { name: rule.name, priority: rule.priority ?? 'medium', labels: [...(rule.labels ?? [])] };
}

/** The configuration with every option given or defaulted; `{}` gives the defaults. */
export function fillConfigDefaults(input: MergeQueueConfigurationInput): MergeQueueConfig {
  const queue = input.merge_queue ?? {};
  const scopes = input.scopes ?? {};
  return {
    merge_queue: {
      mode: queue.mode ?? 'serial',
      max_parallel_checks: queue.max_parallel_checks ?? 5,
      skip_intermediate_results: queue.skip_intermediate_results ?? false,
      reset_on_external_merge: queue.reset_on_external_merge ?? 'always',
    },
    queue_rules: (input.queue_rules ?? [{ name: DEFAULT_QUEUE_RULE_NAME }]).map(fillQueueRule),
    priority_rules: (input.priority_rules ?? []).map(fillPriorityRule),
    scopes: {
      missing: scopes.missing ?? 'wait',
      wait_seconds: scopes.wait_seconds ?? 600,
      ...(scopes.barrier_files !== undefined && { barrier_files: structuredClone(scopes.barrier_files) }),
    },
  };
}

/** The configuration of a repository never configured. */
export function defaultMergeQueueConfig(): MergeQueueConfig {
  return fillConfigDefaults({});
}
