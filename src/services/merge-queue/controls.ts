// The merge queue's controls: configuration, pause and scheduled freezes (DESIGN.md §9).
// Placeholder until the controls land: defaults, never paused, never frozen.
import type { Kysely, Transaction } from 'kysely';
import type { MergeQueueConfig } from '../../domain/merge-queue/model.ts';
import type { Database } from '../../storage/database.ts';
import type { Store } from '../../storage/store.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface QueueHolds {
  paused: boolean;
  frozen: boolean;
  pause: { reason: string; pausedAt: Date } | null;
  freeze: { id: string; reason: string; start: Date; end: Date | null } | null;
}

export async function readMergeQueueConfig(_store: Store, _repositoryId: string, _db?: Db): Promise<MergeQueueConfig> {
  return {
    merge_queue: { mode: 'serial', max_parallel_checks: 5, skip_intermediate_results: false, reset_on_external_merge: 'always' },
    queue_rules: [{ name: 'default', batch_size: 1, batch_max_wait_time: 30, checks_timeout: 3600, max_checks_retries: 0, merge_method: 'merge', required_checks: [], branches: [] }],
    priority_rules: [],
    scopes: { missing: 'wait', wait_seconds: 600 },
  };
}

export async function queueHolds(_store: Store, _repositoryId: string, _baseRef: string, _now: Date, _db?: Db): Promise<QueueHolds> {
  return { paused: false, frozen: false, pause: null, freeze: null };
}
