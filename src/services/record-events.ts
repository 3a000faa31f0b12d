// Events Switchyard writes itself (product changes) go through the same validation as ingested
// ones, so the log never holds an event a producer could not have sent.
import type { Transaction } from 'kysely';
import { validateIngestEvents, type IngestEventInput } from '../domain/events/index.ts';
import type { Database } from '../storage/database.ts';
import type { Store } from '../storage/store.ts';

export async function recordEvents(store: Store, trx: Transaction<Database>, repositoryId: string, events: IngestEventInput[], now: Date): Promise<void> {
  if (events.length === 0) return;
  const validation = validateIngestEvents(structuredClone(events), now);
  if (!validation.ok) throw new Error(`Switchyard built an invalid event: ${JSON.stringify(validation.issues)}`);
  await store.events.insertBatch(repositoryId, validation.events, trx);
}
