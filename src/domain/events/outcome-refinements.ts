// The seven types whose outcome depends on their metadata (DESIGN.md §7). Conclusion tables are
// keyed by the full enum, so a new conclusion value does not compile until it is classified.
import type { Outcome } from './event-type.ts';
import { CopyMetadata, PostCheckMetadata, type PostCheckConclusion } from './metadata/action-metadata.ts';
import { JobRetriedMetadata } from './metadata/ci-insights-metadata.ts';
import { QueueBatchBisectionEndMetadata, QueueChecksEndMetadata } from './metadata/queue-batch-metadata.ts';
import { QueueLeaveMetadata } from './metadata/queue-stay-metadata.ts';
import { refined } from './outcome-rule.ts';
import type { ChecksConclusion } from './shapes/speculative-check-pull-request.ts';

const POST_CHECK_OUTCOMES: Record<PostCheckConclusion, Outcome> = {
  success: 'success',
  failure: 'failure',
  timed_out: 'failure',
  startup_failure: 'failure',
  action_required: 'failure',
  cancelled: 'failure',
  neutral: 'neutral',
  skipped: 'neutral',
  stale: 'neutral',
};

const CHECKS_OUTCOMES: Record<ChecksConclusion, Outcome> = {
  success: 'success',
  pending: 'pending',
  failure: 'failure',
  error: 'failure',
  timed_out: 'failure',
  cancelled: 'failure',
  action_required: 'failure',
  neutral: 'neutral',
  skipped: 'neutral',
  stale: 'neutral',
};

/** action.backport and action.copy. */
export const copyOutcome = refined(CopyMetadata, '`conflicts` → failure, else success', (m) => (m.conflicts ? 'failure' : 'success'));

export const postCheckOutcome = refined(
  PostCheckMetadata,
  '`conclusion` success → success; failure, timed_out, startup_failure, action_required, cancelled → failure; else (neutral, skipped, stale, null) → neutral',
  (m) => (m.conclusion === null ? 'neutral' : POST_CHECK_OUTCOMES[m.conclusion]),
);

export const leaveOutcome = refined(QueueLeaveMetadata, '`merged` → success, else failure', (m) => (m.merged ? 'success' : 'failure'));

export const checksEndOutcome = refined(
  QueueChecksEndMetadata,
  '`aborted` → neutral; else `speculative_check_pull_request.checks_conclusion` success → success, pending → pending; failure, error, timed_out, cancelled, action_required → failure; else (neutral, skipped, stale) → neutral',
  (m) => (m.aborted ? 'neutral' : CHECKS_OUTCOMES[m.speculative_check_pull_request.checks_conclusion]),
);

export const bisectionEndOutcome = refined(
  QueueBatchBisectionEndMetadata,
  '`culprit_found` → failure, else neutral',
  (m) => (m.culprit_found ? 'failure' : 'neutral'),
);

export const jobRetriedOutcome = refined(
  JobRetriedMetadata,
  '`outcome` (the metadata field) retried → success, else (skipped_quota_exceeded) → failure',
  (m) => (m.outcome === 'retried' ? 'success' : 'failure'),
);
