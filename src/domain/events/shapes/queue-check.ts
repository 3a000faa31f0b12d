// One CI check as the merge queue saw it (spec §2.5 QueueCheck).
import { Type } from '@sinclair/typebox';
import { Nullable, StrictObject, StringEnum } from '../../schema-primitives.ts';

export const QUEUE_CHECK_STATES = [
  'failure',
  'error',
  'cancelled',
  'action_required',
  'timed_out',
  'pending',
  'neutral',
  'skipped',
  'stale',
  'success',
] as const;

export const QueueCheck = StrictObject(
  {
    name: Type.String(),
    description: Type.String(),
    url: Nullable(Type.String()),
    details_url: Type.Optional(Nullable(Type.String())),
    state: StringEnum(QUEUE_CHECK_STATES),
    avatar_url: Nullable(Type.String()),
  },
  { title: 'QueueCheck' },
);
