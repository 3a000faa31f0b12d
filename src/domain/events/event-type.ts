// The closed set of activity-log event types (spec §6.1) and of derived outcome labels
// (spec §2.4). Tables keyed by these unions must cover every member, so adding a type does not
// compile until the catalogue, the fixtures and the docs know about it.

export const EVENT_TYPES = [
  'action.assign',
  'action.backport',
  'action.close',
  'action.comment',
  'action.copy',
  'action.delete_head_branch',
  'action.dequeue',
  'action.dismiss_reviews',
  'action.edit',
  'action.hosting_actions',
  'action.label',
  'action.merge',
  'action.post_check',
  'action.queue.batch_bisection_end',
  'action.queue.batch_bisection_start',
  'action.queue.change',
  'action.queue.checks.change',
  'action.queue.checks_end',
  'action.queue.checks_not_started',
  'action.queue.checks_start',
  'action.queue.conflict_deferred',
  'action.queue.enter',
  'action.queue.leave',
  'action.queue.merged',
  'action.rebase',
  'action.refresh',
  'action.request_reviews',
  'action.review',
  'action.squash',
  'action.update',
  'ci_insights.auto_quarantine.disabled',
  'ci_insights.auto_quarantine.enabled',
  'ci_insights.auto_quarantine.modified',
  'ci_insights.job_retried',
  'command.dequeue',
  'command.queue',
  'product.disabled',
  'product.enabled',
  'queue.pause.create',
  'queue.pause.delete',
  'queue.pause.update',
  'scheduled_freeze.create',
  'scheduled_freeze.delete',
  'scheduled_freeze.update',
  'test.dequarantined',
  'test.quarantined',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const EVENT_TYPE_SET: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && EVENT_TYPE_SET.has(value);
}

export const OUTCOMES = ['success', 'failure', 'pending', 'neutral'] as const;

export type Outcome = (typeof OUTCOMES)[number];
