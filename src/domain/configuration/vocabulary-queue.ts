// The merge-queue part of the public vocabulary: `queue_rules` (and the same options under
// `defaults.queue_rule`), `priority_rules` and `merge_queue`. Bounds the public schema leaves
// open take the merge queue's own (DESIGN.md §9): waits up to a day, checks up to a week,
// retries up to 10.
import { fail, INVALID, notSupportedValue, type Check } from './check-cursor.ts';
import { list, object, required } from './collection-checks.ts';
import { conditions } from './condition-checks.ts';
import { duration } from './durations.ts';
import { byKind, flag, integer, nullable, oneOf, text } from './scalar-checks.ts';
import type { MergeMethod, Priority } from '../merge-queue/model.ts';

export const ruleName = text({ min: 1, max: 255 });

const size = integer(1, 128);
const sizeBounds = object({ min: required(size), max: required(size) });

const batchSize = byKind<number | { min: number; max: number }>('an integer from 1 to 128 or bounds {min, max}', {
  number: size,
  mapping: (value, at) => {
    const bounds = sizeBounds(value, at);
    if (bounds === INVALID || bounds.min <= bounds.max) return bounds;
    return fail(at, `min (${bounds.min}) must not exceed max (${bounds.max})`);
  },
});

const CHECKS_TIMEOUT = duration(60, 604_800);

/** `auto` (the public default) is read as Switchyard's fixed default; null: no timeout. */
const checksTimeout = byKind<number | 'auto' | null>('a duration of at least 60 seconds, "auto" or null', {
  number: CHECKS_TIMEOUT,
  null: () => null,
  text: (value, at) => {
    if (value !== 'auto') return CHECKS_TIMEOUT(value, at);
    notSupportedValue(at, 'auto');
    return 'auto';
  },
});

const mergeMethod: Check<MergeMethod> = (value, at) => {
  const method = oneOf(['merge', 'rebase', 'squash', 'fast-forward', 'merge-batch'])(value, at);
  if (method !== 'merge-batch') return method;
  notSupportedValue(at, method);
  return 'merge';
};

export const commitMessageFormat = object({
  title: oneOf(['inherit', 'pr-title']),
  body: oneOf(['inherit', 'pr-body', 'empty']),
  trailers: list(oneOf(['co-authored-by', 'approved-by', 'merged-by']), { max: 3 }),
});

const account = nullable(text());

const queueRuleOptions = {
  queue_conditions: conditions,
  merge_conditions: conditions,
  branch_protection_injection_mode: oneOf(['queue', 'merge', 'none']),
  batch_size: batchSize,
  batch_max_wait_time: duration(0, 86_400),
  allow_inplace_checks: flag,
  checks_timeout: checksTimeout,
  max_checks_retries: integer(0, 10),
  draft_bot_account: account,
  queue_branch_merge_method: nullable(oneOf(['fast-forward'])),
  queue_branch_prefix: text(),
  allow_queue_branch_edit: flag,
  batch_max_failure_resolution_attempts: nullable(integer(0)),
  merge_method: nullable(mergeMethod),
  autosquash: flag,
  autoqueue: flag,
  update_method: nullable(oneOf(['rebase', 'merge'])),
  commit_message_template: nullable(text()),
  commit_message_format: nullable(commitMessageFormat),
  merge_bot_account: account,
  update_bot_account: account,
};

export const queueRule = object({ name: required(ruleName), ...queueRuleOptions });
export const queueRuleDefaults = object(queueRuleOptions);

// The public integer priorities (1 to 10000) and the three names Switchyard orders by.
const PRIORITY_VALUES: [Priority, number][] = [['low', 1000], ['medium', 2000], ['high', 3000]];

function nearestPriority(value: number): Priority {
  let best = PRIORITY_VALUES[0] as [Priority, number];
  for (const entry of PRIORITY_VALUES) if (Math.abs(entry[1] - value) <= Math.abs(best[1] - value)) best = entry;
  return best[0];
}

const priority = byKind<Priority>('"high", "medium", "low" or an integer from 1 to 10000', {
  text: oneOf(['high', 'medium', 'low']),
  number: (value, at) => {
    const read = integer(1, 10_000)(value, at);
    if (read === INVALID) return read;
    if (!PRIORITY_VALUES.some(([, exact]) => exact === read)) notSupportedValue(at, read);
    return nearestPriority(read);
  },
});

export const priorityRule = object({
  name: required(ruleName),
  conditions: required(conditions),
  priority,
  allow_checks_interruption: flag,
});

export const mergeQueue = object({
  max_parallel_checks: size,
  reset_on_external_merge: oneOf(['never', 'always']),
  queued_label: nullable(text()),
  checking_label: nullable(text()),
  dequeued_label: nullable(text()),
  mode: oneOf(['serial', 'parallel', 'isolated']),
  skip_intermediate_results: flag,
  status_comments: oneOf(['all', 'outcomes', 'none']),
  queue_controls_comment: flag,
});
