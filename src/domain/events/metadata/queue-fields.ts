// Field groups that several queue events share, written once so their types cannot drift apart.
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, Uuid } from '../../schema-primitives.ts';

/** Where and since when a pull request is queued. */
export const queuedFields = {
  branch: Type.String(),
  priority_rule_name: Nullable(Type.String()),
  queue_name: Type.String(),
  queued_at: DateTime(),
};

/** The batch an event concerns: checks_start, checks_end and bisection events (spec §6.3). */
export const batchFields = {
  session_id: Uuid(),
  batch_id: Nullable(Uuid(), {
    description: 'The batch the event concerns; correlates checks_start, checks_end, leave and bisection events. Null on older events.',
  }),
  train_car_id: Nullable(Uuid(), { description: 'Deprecated: same value as batch_id.', deprecated: true }),
  batch_name: Nullable(Type.String(), { description: 'Display name of the batch at event time. Null on older events.' }),
};

/** What a checks_start or checks_end batch covers. */
export const batchScopeFields = {
  scopes: Nullable(Type.Array(Type.String()), {
    description: 'Scopes of the batch; batches with disjoint scopes run concurrently. Empty when the queue is not scoped; null on older events.',
  }),
  parent_batch_ids: Nullable(Type.Array(Uuid()), {
    description: 'Batches this one descends from and inherits check results from. Empty on a first check; null on older events.',
  }),
  all_scopes: Type.Optional(
    Nullable(Type.Boolean(), { description: 'The batch impacts every scope (a barrier). Null on older events.' }),
  ),
};
