// Metadata of the events that stop the queue for a while: pauses and scheduled freezes (spec §6.6).
import { Type } from '@sinclair/typebox';
import { Actor } from '../shapes/actor.ts';
import { ScheduledFreezeAttributes } from '../shapes/scheduled-freeze-attributes.ts';
import { DateTime, StrictObject } from '../../schema-primitives.ts';

export const QueuePauseCreateMetadata = StrictObject(
  { reason: Type.String(), created_by: Actor, created_by_staff: Type.Boolean() },
  { title: 'QueuePauseCreateMetadata' },
);

export const QueuePauseUpdateMetadata = StrictObject(
  { reason: Type.String(), updated_by: Actor, updated_by_staff: Type.Boolean() },
  { title: 'QueuePauseUpdateMetadata' },
);

export const QueuePauseDeleteMetadata = StrictObject(
  { deleted_by: Actor, deleted_by_staff: Type.Boolean() },
  { title: 'QueuePauseDeleteMetadata' },
);

export const ScheduledFreezeCreateMetadata = StrictObject(
  {
    scheduled_freeze_attributes: ScheduledFreezeAttributes,
    created_by: Actor,
    created_at: DateTime(),
    created_by_staff: Type.Boolean(),
  },
  { title: 'ScheduledFreezeCreateMetadata' },
);

export const ScheduledFreezeUpdateMetadata = StrictObject(
  {
    scheduled_freeze_attributes_before: ScheduledFreezeAttributes,
    scheduled_freeze_attributes_after: ScheduledFreezeAttributes,
    updated_by: Actor,
    updated_at: DateTime(),
    updated_by_staff: Type.Boolean(),
  },
  { title: 'ScheduledFreezeUpdateMetadata' },
);

export const ScheduledFreezeDeleteMetadata = StrictObject(
  {
    scheduled_freeze_attributes: ScheduledFreezeAttributes,
    reason: Type.String(),
    deleted_by: Actor,
    deleted_at: DateTime(),
    deleted_by_staff: Type.Boolean(),
  },
  { title: 'ScheduledFreezeDeleteMetadata' },
);
