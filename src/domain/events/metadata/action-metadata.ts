// Metadata of the pull-request action events (spec §6.2).
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { Nullable, StrictObject, StringEnum } from '../../schema-primitives.ts';

const Strings = () => Type.Array(Type.String());

export const AssignMetadata = StrictObject({ added: Strings(), removed: Strings() }, { title: 'AssignMetadata' });

export const LabelMetadata = StrictObject({ added: Strings(), removed: Strings() }, { title: 'LabelMetadata' });

/** action.backport and action.copy: the pull request opened on another branch. */
export const CopyMetadata = StrictObject(
  {
    to: Type.String({ description: 'Target branch' }),
    pull_request_number: Int64({ description: 'The pull request created on the target branch' }),
    conflicts: Type.Boolean(),
  },
  { title: 'CopyMetadata' },
);

export const CloseMetadata = StrictObject({ message: Type.String() }, { title: 'CloseMetadata' });

export const CommentMetadata = StrictObject({ message: Type.String() }, { title: 'CommentMetadata' });

export const DeleteHeadBranchMetadata = StrictObject({ branch: Type.String() }, { title: 'DeleteHeadBranchMetadata' });

export const DismissReviewsMetadata = StrictObject({ users: Strings() }, { title: 'DismissReviewsMetadata' });

export const EditMetadata = StrictObject({ draft: Type.Boolean() }, { title: 'EditMetadata' });

export const HostingActionsMetadata = StrictObject(
  {
    workflow: Type.String(),
    // Workflow dispatch inputs: free names, scalar values (shape from the reference API).
    inputs: Type.Object({}, { additionalProperties: Type.Union([Type.String(), Type.Integer(), Type.Boolean()]) }),
  },
  { title: 'HostingActionsMetadata' },
);

export const MergeMetadata = StrictObject({ branch: Type.String() }, { title: 'MergeMetadata' });

export const POST_CHECK_CONCLUSIONS = [
  'success',
  'failure',
  'neutral',
  'cancelled',
  'skipped',
  'timed_out',
  'action_required',
  'stale',
  'startup_failure',
] as const;

export type PostCheckConclusion = (typeof POST_CHECK_CONCLUSIONS)[number];

export const PostCheckMetadata = StrictObject(
  {
    conclusion: Nullable(StringEnum(POST_CHECK_CONCLUSIONS)),
    title: Type.String(),
    summary: Type.String(),
  },
  { title: 'PostCheckMetadata' },
);

export const RequestReviewsMetadata = StrictObject(
  { reviewers: Strings(), team_reviewers: Strings() },
  { title: 'RequestReviewsMetadata' },
);

export const REVIEW_TYPES = ['APPROVE', 'REQUEST_CHANGES', 'COMMENT'] as const;

export const ReviewMetadata = StrictObject(
  {
    review_type: StringEnum(REVIEW_TYPES),
    reviewer: Nullable(Type.String()),
    message: Nullable(Type.String()),
  },
  { title: 'ReviewMetadata' },
);

/** action.dequeue, .rebase, .refresh, .squash, .update carry nothing beyond the envelope. */
export const EmptyMetadata = StrictObject({}, { title: 'EmptyMetadata' });
