// The queue rule a batch or entry follows, read from the configuration. A rule removed from the
// configuration while entries used it falls back to the first rule, so planning never stops on
// it (dequeuing them with QUEUE_RULE_MISSING is the API's call, not the plan's).
import type { MergeQueueConfig, QueueRuleConfig } from './model.ts';

const DEFAULT_RULE: QueueRuleConfig = {
  name: 'default',
  batch_size: 1,
  batch_max_wait_time: 30,
  checks_timeout: 3600,
  max_checks_retries: 0,
  merge_method: 'merge',
  required_checks: [],
  branches: [],
};

export function queueRule(config: MergeQueueConfig, name: string): QueueRuleConfig {
  return config.queue_rules.find((rule) => rule.name === name) ?? config.queue_rules[0] ?? DEFAULT_RULE;
}

/** `batch_size` as bounds: a fixed size n is {min: n, max: n}. */
export function batchSizeBounds(rule: QueueRuleConfig): { min: number; max: number } {
  const size = rule.batch_size;
  return typeof size === 'number' ? { min: size, max: size } : { min: size.min, max: Math.max(size.min, size.max) };
}

/**
 * Whether a rule's batches are checked in place, on the pull request itself updated with its base,
 * rather than on a draft pull request of a batch branch (DESIGN §10): only when the queue checks
 * one batch at a time and the rule's batches hold one pull request, so nothing is speculated on.
 */
export function checksInPlace(config: MergeQueueConfig, rule: QueueRuleConfig): boolean {
  const { min, max } = batchSizeBounds(rule);
  return config.merge_queue.max_parallel_checks === 1 && min === 1 && max === 1;
}
