// The events recording a change to the queue's pause or scheduled freezes (spec §6.6), with the
// caller as actor. A configuration change has no event type and records nothing.
import type { IngestEventInput } from '../events/index.ts';
import type { ProductActor } from '../product-changes.ts';
import { zonedDateTime } from './freeze-times.ts';
import type { FreezeCondition, ScheduledFreeze } from './freeze-conditions.ts';

const TRIGGER = 'merge queue API';

export type PauseChange = { kind: 'create' | 'update'; reason: string } | { kind: 'delete' };

function controlEvent(type: IngestEventInput['type'], metadata: Record<string, unknown>, at: Date): IngestEventInput {
  return { type, trigger: TRIGGER, pull_request: null, base_ref: null, received_at: at.toISOString(), metadata };
}

export function pauseEvent(change: PauseChange, by: ProductActor, at: Date): IngestEventInput {
  switch (change.kind) {
    case 'create':
      return controlEvent('queue.pause.create', { reason: change.reason, created_by: by.actor, created_by_staff: by.byStaff }, at);
    case 'update':
      return controlEvent('queue.pause.update', { reason: change.reason, updated_by: by.actor, updated_by_staff: by.byStaff }, at);
    case 'delete':
      return controlEvent('queue.pause.delete', { deleted_by: by.actor, deleted_by_staff: by.byStaff }, at);
  }
}

/** ScheduledFreezeAttributes: the freeze as its answer shows it. */
export function freezeAttributes(freeze: ScheduledFreeze) {
  return {
    reason: freeze.reason,
    start: zonedDateTime(freeze.start, freeze.timezone),
    end: freeze.end && zonedDateTime(freeze.end, freeze.timezone),
    timezone: freeze.timezone,
    matching_conditions: structuredClone(freeze.matchingConditions) as FreezeCondition[],
    exclude_conditions: structuredClone(freeze.excludeConditions) as FreezeCondition[],
  };
}

export function freezeCreatedEvent(freeze: ScheduledFreeze, by: ProductActor, at: Date): IngestEventInput {
  const when = at.toISOString();
  return controlEvent('scheduled_freeze.create', { scheduled_freeze_attributes: freezeAttributes(freeze), created_by: by.actor, created_at: when, created_by_staff: by.byStaff }, at);
}

export function freezeUpdatedEvent(before: ScheduledFreeze, after: ScheduledFreeze, by: ProductActor, at: Date): IngestEventInput {
  return controlEvent(
    'scheduled_freeze.update',
    {
      scheduled_freeze_attributes_before: freezeAttributes(before),
      scheduled_freeze_attributes_after: freezeAttributes(after),
      updated_by: by.actor,
      updated_at: at.toISOString(),
      updated_by_staff: by.byStaff,
    },
    at,
  );
}

export function freezeDeletedEvent(freeze: ScheduledFreeze, reason: string, by: ProductActor, at: Date): IngestEventInput {
  return controlEvent(
    'scheduled_freeze.delete',
    { scheduled_freeze_attributes: freezeAttributes(freeze), reason, deleted_by: by.actor, deleted_at: at.toISOString(), deleted_by_staff: by.byStaff },
    at,
  );
}
