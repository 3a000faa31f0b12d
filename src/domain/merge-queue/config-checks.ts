// What the configuration's schema cannot say: rule names unique within their list, and dynamic
// batch bounds in order. Each problem is one 422 issue naming the option.
import type { ValidationIssue } from '../../validation/validators.ts';
import type { MergeQueueConfigurationInput } from './config-schema.ts';

function duplicateNames(list: readonly { name: string }[], where: string): ValidationIssue[] {
  const seen = new Set<string>();
  return list.flatMap((rule, index) => {
    if (!seen.has(rule.name)) {
      seen.add(rule.name);
      return [];
    }
    return [{ loc: ['body', where, index, 'name'], msg: `${where} names must be unique: "${rule.name}" is already used`, type: 'unique_names' }];
  });
}

/** Problems with a configuration its schema accepted; [] when it is valid. */
export function configIssues(input: MergeQueueConfigurationInput): ValidationIssue[] {
  const rules = input.queue_rules ?? [];
  const bounds = rules.flatMap((rule, index): ValidationIssue[] => {
    const size = rule.batch_size;
    if (typeof size !== 'object' || size.min <= size.max) return [];
    return [{ loc: ['body', 'queue_rules', index, 'batch_size'], msg: `min (${size.min}) must not exceed max (${size.max})`, type: 'batch_size_bounds' }];
  });
  return [...duplicateNames(rules, 'queue_rules'), ...bounds, ...duplicateNames(input.priority_rules ?? [], 'priority_rules')];
}
