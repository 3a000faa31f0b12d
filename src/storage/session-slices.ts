// What sliced reads on the embedded store share (event-aggregate.ts, event-log.ts): PGlite has one
// session for every request, so a long read runs as consecutive statements over slices of its
// window, each timed on the session alone and the next sized from it, and fixed on the last event
// id (PGlite runs one transaction at a time: every later event has a higher id).
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './database.ts';

/** The highest event id now, or undefined when there is no event. */
export async function lastEventId(db: Kysely<Database>): Promise<bigint | undefined> {
  const { rows } = await sql<{ id: string | null }>`SELECT max(id)::text AS id FROM events`.execute(db);
  const id = rows[0]?.id;
  return id === undefined || id === null ? undefined : BigInt(id);
}

/** Runs one statement once the session is ours; `ms` leaves out the time waited for it. */
export function onSession<R>(db: Kysely<Database>, query: CompiledQuery<R>): Promise<{ rows: R[]; ms: number }> {
  return db.connection().execute(async (session) => {
    const started = performance.now();
    const { rows } = await session.executeQuery(query);
    return { rows, ms: performance.now() - started };
  });
}

/** The next slice's length: this one's scaled towards the target time, at most eightfold either way, never under `shortest`. */
export function nextSliceLength(length: number, ms: number, targetMs: number, shortest: number): number {
  return Math.max(shortest, length * Math.min(8, Math.max(1 / 8, targetMs / Math.max(ms, 0.1))));
}
