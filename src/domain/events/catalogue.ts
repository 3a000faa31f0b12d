// The 46 event types: the metadata each carries and how its outcome is derived. Exhaustive by
// construction: a type missing here does not compile.
import type { TSchema } from '@sinclair/typebox';
import type { EventType } from './event-type.ts';
import * as A from './metadata/action-metadata.ts';
import * as B from './metadata/queue-batch-metadata.ts';
import * as C from './metadata/ci-insights-metadata.ts';
import { CommandMetadata } from './metadata/command-metadata.ts';
import * as P from './metadata/product-metadata.ts';
import * as Q from './metadata/queue-control-metadata.ts';
import * as S from './metadata/queue-stay-metadata.ts';
import * as T from './metadata/test-metadata.ts';
import * as refine from './outcome-refinements.ts';
import { fixed, type OutcomeRule } from './outcome-rule.ts';

export interface CatalogueEntry {
  readonly metadata: TSchema;
  readonly outcome: OutcomeRule;
}

const success = fixed('success');
const pending = fixed('pending');
const failure = fixed('failure');
const neutral = fixed('neutral');

export const eventCatalogue: Readonly<Record<EventType, CatalogueEntry>> = {
  'action.assign': { metadata: A.AssignMetadata, outcome: success },
  'action.backport': { metadata: A.CopyMetadata, outcome: refine.copyOutcome },
  'action.close': { metadata: A.CloseMetadata, outcome: success },
  'action.comment': { metadata: A.CommentMetadata, outcome: success },
  'action.copy': { metadata: A.CopyMetadata, outcome: refine.copyOutcome },
  'action.delete_head_branch': { metadata: A.DeleteHeadBranchMetadata, outcome: success },
  'action.dequeue': { metadata: A.EmptyMetadata, outcome: success },
  'action.dismiss_reviews': { metadata: A.DismissReviewsMetadata, outcome: success },
  'action.edit': { metadata: A.EditMetadata, outcome: success },
  'action.hosting_actions': { metadata: A.HostingActionsMetadata, outcome: success },
  'action.label': { metadata: A.LabelMetadata, outcome: success },
  'action.merge': { metadata: A.MergeMetadata, outcome: success },
  'action.post_check': { metadata: A.PostCheckMetadata, outcome: refine.postCheckOutcome },
  'action.queue.batch_bisection_end': { metadata: B.QueueBatchBisectionEndMetadata, outcome: refine.bisectionEndOutcome },
  'action.queue.batch_bisection_start': { metadata: B.QueueBatchBisectionStartMetadata, outcome: pending },
  'action.queue.change': { metadata: S.QueueChangeMetadata, outcome: neutral },
  'action.queue.checks.change': { metadata: S.QueueChecksChangeMetadata, outcome: neutral },
  'action.queue.checks_end': { metadata: B.QueueChecksEndMetadata, outcome: refine.checksEndOutcome },
  'action.queue.checks_not_started': { metadata: S.QueueChecksNotStartedMetadata, outcome: failure },
  'action.queue.checks_start': { metadata: B.QueueChecksStartMetadata, outcome: pending },
  'action.queue.conflict_deferred': { metadata: S.QueueConflictDeferredMetadata, outcome: failure },
  'action.queue.enter': { metadata: S.QueueEnterMetadata, outcome: pending },
  'action.queue.leave': { metadata: S.QueueLeaveMetadata, outcome: refine.leaveOutcome },
  'action.queue.merged': { metadata: S.QueueMergedMetadata, outcome: success },
  'action.rebase': { metadata: A.EmptyMetadata, outcome: success },
  'action.refresh': { metadata: A.EmptyMetadata, outcome: success },
  'action.request_reviews': { metadata: A.RequestReviewsMetadata, outcome: success },
  'action.review': { metadata: A.ReviewMetadata, outcome: success },
  'action.squash': { metadata: A.EmptyMetadata, outcome: success },
  'action.update': { metadata: A.EmptyMetadata, outcome: success },
  'ci_insights.auto_quarantine.disabled': { metadata: C.AutoQuarantineDisabledMetadata, outcome: neutral },
  'ci_insights.auto_quarantine.enabled': { metadata: C.AutoQuarantineEnabledMetadata, outcome: neutral },
  'ci_insights.auto_quarantine.modified': { metadata: C.AutoQuarantineModifiedMetadata, outcome: neutral },
  'ci_insights.job_retried': { metadata: C.JobRetriedMetadata, outcome: refine.jobRetriedOutcome },
  'command.dequeue': { metadata: CommandMetadata, outcome: neutral },
  'command.queue': { metadata: CommandMetadata, outcome: neutral },
  'product.disabled': { metadata: P.ProductDisabledMetadata, outcome: neutral },
  'product.enabled': { metadata: P.ProductEnabledMetadata, outcome: neutral },
  'queue.pause.create': { metadata: Q.QueuePauseCreateMetadata, outcome: neutral },
  'queue.pause.delete': { metadata: Q.QueuePauseDeleteMetadata, outcome: neutral },
  'queue.pause.update': { metadata: Q.QueuePauseUpdateMetadata, outcome: neutral },
  'scheduled_freeze.create': { metadata: Q.ScheduledFreezeCreateMetadata, outcome: neutral },
  'scheduled_freeze.delete': { metadata: Q.ScheduledFreezeDeleteMetadata, outcome: neutral },
  'scheduled_freeze.update': { metadata: Q.ScheduledFreezeUpdateMetadata, outcome: neutral },
  'test.dequarantined': { metadata: T.TestDequarantinedMetadata, outcome: neutral },
  'test.quarantined': { metadata: T.TestQuarantinedMetadata, outcome: neutral },
};
