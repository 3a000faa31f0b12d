// Scheduled freezes of a repository's merge queue (DESIGN.md §9): created, updated and deleted
// with their `scheduled_freeze.*` events in the same transaction, the repository row locked.
import type { Transaction } from 'kysely';
import { ApiError, ValidationError } from '../../errors.ts';
import { freezeCreatedEvent, freezeDeletedEvent, freezeUpdatedEvent } from '../../domain/merge-queue/control-events.ts';
import type { FreezeCondition, ScheduledFreeze } from '../../domain/merge-queue/freeze-conditions.ts';
import { resolveFreeze, type FreezeFields, type FreezeInput } from '../../domain/merge-queue/freeze-input.ts';
import type { ProductActor } from '../../domain/product-changes.ts';
import type { Database } from '../../storage/database.ts';
import type { FreezeValues, StoredFreeze } from '../../storage/queries/merge-queue-controls.ts';
import type { Repository } from '../../storage/queries/repositories.ts';
import type { Store } from '../../storage/store.ts';
import { recordEvents } from '../record-events.ts';
import { withRepositoryLocked } from './repository-lock.ts';

export interface FreezeChange {
  repositoryId: string;
  freeze: ScheduledFreeze;
}

export function freezeOf(row: StoredFreeze): ScheduledFreeze {
  return {
    id: row.id,
    reason: row.reason,
    start: row.start_at,
    end: row.end_at,
    timezone: row.timezone,
    matchingConditions: JSON.parse(row.matching_conditions) as FreezeCondition[],
    excludeConditions: JSON.parse(row.exclude_conditions) as FreezeCondition[],
  };
}

function valuesOf(id: string, freeze: FreezeFields): FreezeValues {
  return {
    id,
    reason: freeze.reason,
    start_at: freeze.start,
    end_at: freeze.end,
    timezone: freeze.timezone,
    matching_conditions: JSON.stringify(freeze.matchingConditions),
    exclude_conditions: JSON.stringify(freeze.excludeConditions),
  };
}

function resolved(input: FreezeInput, current: FreezeFields | null, now: Date): FreezeFields {
  const result = resolveFreeze(input, current, now);
  if (result.ok) return result.freeze;
  if ('started' in result) throw new ApiError('scheduled_freeze_started');
  throw new ValidationError(result.issues);
}

/** The repository's freezes that are ongoing or still to come at `now`, by start. */
export async function listFreezes(store: Store, owner: string, name: string, now: Date): Promise<ScheduledFreeze[]> {
  const repository = await store.repositories.find(owner, name);
  if (!repository) throw new ApiError('repository_not_found');
  return (await store.mergeQueueControls.freezesNotOver(repository.id, now)).map(freezeOf);
}

export async function createFreeze(store: Store, owner: string, name: string, input: FreezeInput, by: ProductActor): Promise<FreezeChange> {
  const now = new Date();
  const fields = resolved(input, null, now);
  return withRepositoryLocked(store, owner, name, async (trx, repository) => {
    const freeze = freezeOf(await store.mergeQueueControls.insertFreeze(trx, repository.id, valuesOf(crypto.randomUUID(), fields)));
    await recordEvents(store, trx, repository.id, [freezeCreatedEvent(freeze, by, now)], now);
    return { repositoryId: repository.id, freeze };
  });
}

async function lockedFreeze(store: Store, trx: Transaction<Database>, repository: Repository, id: string): Promise<ScheduledFreeze> {
  const row = await store.mergeQueueControls.freezeForUpdate(trx, repository.id, id);
  if (!row) throw new ApiError('scheduled_freeze_not_found');
  return freezeOf(row);
}

/** Changes the fields `input` gives; `scheduled_freeze.update` with the freeze before and after. */
export async function updateFreeze(store: Store, owner: string, name: string, id: string, input: FreezeInput, by: ProductActor): Promise<FreezeChange> {
  return withRepositoryLocked(store, owner, name, async (trx, repository) => {
    const before = await lockedFreeze(store, trx, repository, id);
    const now = new Date();
    const after = freezeOf(await store.mergeQueueControls.updateFreeze(trx, valuesOf(id, resolved(input, before, now))));
    await recordEvents(store, trx, repository.id, [freezeUpdatedEvent(before, after, by, now)], now);
    return { repositoryId: repository.id, freeze: after };
  });
}

export async function deleteFreeze(store: Store, owner: string, name: string, id: string, reason: string, by: ProductActor): Promise<FreezeChange> {
  return withRepositoryLocked(store, owner, name, async (trx, repository) => {
    const freeze = await lockedFreeze(store, trx, repository, id);
    const now = new Date();
    await store.mergeQueueControls.deleteFreeze(trx, id);
    await recordEvents(store, trx, repository.id, [freezeDeletedEvent(freeze, reason, by, now)], now);
    return { repositoryId: repository.id, freeze };
  });
}
