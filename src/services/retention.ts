// Retention (DESIGN.md §8): events older than the configured number of days are removed, and so
// are webhook delivery ids (only a redelivery within that time needs recognising). Runs
// repository by repository and in bounded chunks, so each DELETE walks the window index and no
// transaction holds many locks or a long snapshot. The digests of webhook bodies applied are kept
// a week, or longer than a payload is accepted for its age when that is bounded (issue 20, item 8).
import { sql } from 'kysely';
import type { Store } from '../storage/store.ts';
import { WEBHOOK_DIGEST_SECONDS } from '../config.ts';

const CHUNK = 5_000;
const DAY_MS = 86_400_000;

export async function purgeExpiredEvents(store: Store, retentionDays: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const repositories = await store.db.selectFrom('repositories').select('id').execute();
  let removed = 0;
  for (const { id } of repositories) {
    for (;;) {
      // Not while an aggregate on the embedded store reads the window slice by slice.
      // Oldest first, by (received_at, id), and the last one removed recorded in the same
      // statement (migration 0033): the columnar copy leaves out what sorts at or before it.
      const result = await store.eventAggregates.deleting(() => sql<{ count: string }>`
        WITH removed AS (
          DELETE FROM events WHERE id IN (
            SELECT id FROM events WHERE repository_id = ${id} AND received_at < ${cutoff} ORDER BY received_at, id LIMIT ${CHUNK})
          RETURNING received_at, id),
        last AS (SELECT received_at, id FROM removed ORDER BY received_at DESC, id DESC LIMIT 1),
        moved AS (
          UPDATE event_positions AS p SET purged_at = last.received_at, purged_id = last.id FROM last
          WHERE p.repository_id = ${id} AND (p.purged_at IS NULL OR (last.received_at, last.id) > (p.purged_at, p.purged_id)))
        SELECT count(*)::text AS count FROM removed`.execute(store.db));
      const count = Number(result.rows[0]!.count);
      removed += count;
      if (count < CHUNK) break;
    }
  }
  await store.db.deleteFrom('webhook_deliveries').where('received_at', '<', cutoff).execute();
  return removed;
}

/**
 * An hour more than payloads are accepted for: the platform's clock may run ahead of ours, and a
 * payload's time is when the platform wrote it, before it reached us.
 */
const PAYLOAD_MARGIN_MS = 3_600_000;

/**
 * Forgets the digests of webhook bodies received before the window they are kept for: a week, or
 * longer than any payload still accepted for its age (and an hour); how many.
 */
export function forgetWebhookPayloads(store: Store, webhookMaxAgeSeconds: number, now: Date = new Date()): Promise<number> {
  const keptMs = Math.max(WEBHOOK_DIGEST_SECONDS * 1000, webhookMaxAgeSeconds * 1000 + PAYLOAD_MARGIN_MS);
  return store.webhookDeliveries.forgetPayloadsBefore(new Date(now.getTime() - keptMs));
}

export interface RetentionSettings {
  retentionDays: number;
  webhookMaxAgeSeconds: number;
}

/** Purges now and then every `intervalMs`; returns a function that stops it. */
export function scheduleRetention(store: Store, settings: RetentionSettings, log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }, intervalMs = 3_600_000): () => void {
  const { retentionDays } = settings;
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await forgetWebhookPayloads(store, settings.webhookMaxAgeSeconds);
      const removed = await purgeExpiredEvents(store, retentionDays);
      if (removed > 0) log.info({ removed, retentionDays }, 'retention: removed expired events');
    } catch (error) {
      log.warn({ cause: (error as Error).message }, 'retention: run failed; next run retries');
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
