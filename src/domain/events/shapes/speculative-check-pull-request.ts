// The pull request whose checks decide a batch (spec §2.5 SpeculativeCheckPullRequest). Its
// `number` is what the `batch_pull` filter and the `by_batch_pull_request` facet look at.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { QueueCheck } from './queue-check.ts';
import { DateTime, Nullable, StrictObject, StringEnum } from '../../schema-primitives.ts';

export const CHECKS_CONCLUSIONS = [
  'success',
  'failure',
  'neutral',
  'cancelled',
  'skipped',
  'stale',
  'action_required',
  'timed_out',
  'error',
  'pending',
] as const;

export type ChecksConclusion = (typeof CHECKS_CONCLUSIONS)[number];

// The reference also nests `pull_request_numbers` here; the spec lists it on the checks_start and
// checks_end metadata instead, and the spec wins, so this object has exactly the spec's 7 fields.
export const SpeculativeCheckPullRequest = StrictObject(
  {
    number: Int64({
      description: "The draft pull request checking the batch; the user's own pull request when in_place is true",
    }),
    in_place: Type.Boolean(),
    checks_timed_out: Type.Boolean(),
    checks_conclusion: StringEnum(CHECKS_CONCLUSIONS),
    checks_started_at: Nullable(DateTime()),
    checks_ended_at: Nullable(DateTime()),
    unsuccessful_checks: Type.Array(QueueCheck),
  },
  { title: 'SpeculativeCheckPullRequest' },
);
