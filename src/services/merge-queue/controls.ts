// The merge queue's controls (DESIGN.md §9): its configuration, its pause and what holds merges
// to a base branch now. Every change locks the repository row, so concurrent changes apply one
// after the other, and writes its events in the same transaction (a configuration change has no
// event type and records nothing). The executor reads the configuration and the holds from here.
import type { Kysely, Transaction } from 'kysely';
import { ApiError, ValidationError } from '../../errors.ts';
import { configIssues } from '../../domain/merge-queue/config-checks.ts';
import type { MergeQueueConfigurationInput } from '../../domain/merge-queue/config-schema.ts';
import { defaultMergeQueueConfig, fillConfigDefaults } from '../../domain/merge-queue/config-defaults.ts';
import { pauseEvent, type PauseChange } from '../../domain/merge-queue/control-events.ts';
import { freezeApplies } from '../../domain/merge-queue/freeze-conditions.ts';
import type { MergeQueueConfig } from '../../domain/merge-queue/model.ts';
import type { ProductActor } from '../../domain/product-changes.ts';
import type { Database } from '../../storage/database.ts';
import type { Store } from '../../storage/store.ts';
import { recordEvents } from '../record-events.ts';
import { withRepositoryLocked } from './repository-lock.ts';
import { freezeOf } from './scheduled-freezes.ts';

export { createFreeze, deleteFreeze, listFreezes, updateFreeze } from './scheduled-freezes.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface QueuePause {
  reason: string;
  pausedAt: Date;
}

export interface QueueHolds {
  paused: boolean;
  frozen: boolean;
  pause: QueuePause | null;
  /** The active freeze matching the base branch (the earliest started), if any. */
  freeze: { id: string; reason: string; start: Date; end: Date | null } | null;
}

/** The repository's configuration; the defaults when it was never configured. */
export async function readMergeQueueConfig(store: Store, repositoryId: string, db: Db = store.db): Promise<MergeQueueConfig> {
  const stored = await store.mergeQueueControls.config(repositoryId, db);
  // Filled again on read: a configuration stored before an option existed gets its default.
  return stored === undefined ? defaultMergeQueueConfig() : fillConfigDefaults(JSON.parse(stored) as MergeQueueConfigurationInput);
}

/** Replaces the configuration with `input`, every default filled in; 422 naming what is invalid. */
export async function setMergeQueueConfig(store: Store, owner: string, name: string, input: MergeQueueConfigurationInput): Promise<{ repositoryId: string; config: MergeQueueConfig }> {
  const issues = configIssues(input);
  if (issues.length > 0) throw new ValidationError(issues);
  const config = fillConfigDefaults(input);
  return withRepositoryLocked(store, owner, name, async (trx, repository) => {
    // While a file in the repository governs, the file is the one source (DESIGN §13).
    const governing = await store.configurations.find(repository.id, trx);
    if (governing?.good) throw new ApiError('configuration_in_repository', `The configuration file ${governing.good.path} on the default branch governs the merge queue of ${repository.owner}/${repository.name}; change the file instead.`);
    await store.mergeQueueControls.setConfig(trx, repository.id, JSON.stringify(config));
    return { repositoryId: repository.id, config };
  });
}

/** Whether the queue is paused, and why. */
export async function readPause(store: Store, repositoryId: string, db: Db = store.db): Promise<QueuePause | null> {
  return (await store.mergeQueueControls.pause(repositoryId, db)) ?? null;
}

/**
 * Pauses the queue, or changes the reason of its pause (`queue.pause.create` or `.update`). The
 * same reason again changes nothing and records nothing. `changed` tells whether anything did.
 */
export async function pauseQueue(store: Store, owner: string, name: string, reason: string, by: ProductActor): Promise<{ repositoryId: string; pause: QueuePause; changed: boolean }> {
  return withRepositoryLocked(store, owner, name, async (trx, repository) => {
    const current = await store.mergeQueueControls.pause(repository.id, trx);
    if (current?.reason === reason) return { repositoryId: repository.id, pause: current, changed: false };
    const now = new Date();
    const change: PauseChange = { kind: current ? 'update' : 'create', reason };
    await store.mergeQueueControls.setPause(trx, repository.id, reason, current?.pausedAt ?? now);
    await recordEvents(store, trx, repository.id, [pauseEvent(change, by, now)], now);
    return { repositoryId: repository.id, pause: { reason, pausedAt: current?.pausedAt ?? now }, changed: true };
  });
}

/** Unpauses the queue (`queue.pause.delete`); 404 when it is not paused. */
export async function unpauseQueue(store: Store, owner: string, name: string, by: ProductActor): Promise<{ repositoryId: string }> {
  return withRepositoryLocked(store, owner, name, async (trx, repository) => {
    if (!(await store.mergeQueueControls.pause(repository.id, trx))) throw new ApiError('queue_not_paused');
    const now = new Date();
    await store.mergeQueueControls.deletePause(trx, repository.id);
    await recordEvents(store, trx, repository.id, [pauseEvent({ kind: 'delete' }, by, now)], now);
    return { repositoryId: repository.id };
  });
}

/** What holds merges to `baseRef` at `now`: the pause, and the active freeze matching the base. */
export async function queueHolds(store: Store, repositoryId: string, baseRef: string, now: Date, db: Db = store.db): Promise<QueueHolds> {
  const pause = await readPause(store, repositoryId, db);
  const ongoing = await store.mergeQueueControls.freezesOngoing(repositoryId, now, db);
  const active = ongoing.map(freezeOf).find((freeze) => freezeApplies(freeze, baseRef, now));
  return {
    paused: pause !== null,
    frozen: active !== undefined,
    pause,
    freeze: active ? { id: active.id, reason: active.reason, start: active.start, end: active.end } : null,
  };
}
