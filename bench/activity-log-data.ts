// Loads a large activity log quickly: a few thousand realistic events from the fixture generator,
// written through the store, then copied many times by INSERT ... SELECT with generate_series,
// each copy spread over the same day with its own pull request and batch numbers and batch ids,
// so filters stay as selective as in the original. Times keep millisecond precision, as the
// ingestion path writes them.
import { sql } from 'kysely';
import { validateIngestEvents } from '../src/domain/events/index.ts';
import type { Store } from '../src/storage/store.ts';
import { generateEvents } from '../test/fixtures/event-fixtures.ts';

const DAY_MS = 86_400_000;
const BASE_EVENTS = 20_000;
/** Copies per INSERT: bounded, so no single statement grows without limit. */
const COPIES_PER_STATEMENT = 5;
/** Fixture pull request numbers are 1..5000; copy n adds n × this, so copies never share one. */
const PULL_STRIDE = 5_000;

export interface LoadPlan {
  /** Events of the benchmarked repository in its last day. */
  events: number;
  /** Events elsewhere: as many in another repository, and in the days before. */
  elsewhere: number;
}

export interface LoadedLog {
  repositoryId: string;
  /** The busy day: [start, end). */
  start: number;
  end: number;
}

async function register(store: Store, name: string): Promise<string> {
  return store.db.transaction().execute(async (trx) => (await store.repositories.register(trx, 'bench', name, [])).repository.id);
}

/** Writes the base events of one repository through the store, as ingestion would. */
async function writeBase(store: Store, repositoryId: string, seed: number, start: number, end: number): Promise<void> {
  const events = generateEvents({ seed, count: BASE_EVENTS, start: new Date(start), end: new Date(end) });
  for (let i = 0; i < events.length; i += 1000) {
    const validation = validateIngestEvents(events.slice(i, i + 1000), new Date(end + 60_000));
    if (!validation.ok) throw new Error(`fixture events are invalid: ${JSON.stringify(validation.issues[0])}`);
    await store.events.insertBatch(repositoryId, validation.events);
  }
}

interface CopyPlan {
  /** Repository copied from, up to this event id (the base events). */
  from: string;
  maxId: string;
  /** Repository copied into. */
  to: string;
  range: { start: number; end: number };
  copies: number;
  /** 0: copies stay in the range; n: copy g is moved floor(g / n) days back, into the days before it. */
  perDayBack: number;
}

/** Copies g = first..last: shifted by g × a prime number of seconds, wrapped into the range. */
async function copyEvents(store: Store, plan: CopyPlan, first: number, last: number): Promise<void> {
  const start = new Date(plan.range.start);
  const span = plan.range.end - plan.range.start;
  await sql`
    INSERT INTO events (repository_id, received_at, type, outcome, trigger, pull_request, base_ref, batch_pull_request, batch_id, metadata)
    SELECT ${plan.to}, ${start}::timestamptz
             + ((((extract(epoch FROM received_at - ${start}::timestamptz) * 1000)::bigint + g::bigint * 7919000) % ${span}) - ${DAY_MS}::bigint * ${plan.perDayBack === 0 ? sql`0` : sql`(g / ${plan.perDayBack}::int)`}) * interval '1 millisecond',
           type, outcome, trigger, pull_request + g * ${PULL_STRIDE}, base_ref, batch_pull_request + g * ${PULL_STRIDE},
           md5(batch_id::text || ':' || g)::uuid, metadata
    FROM events, generate_series(${first}::int, ${last}::int) AS g
    WHERE repository_id = ${plan.from} AND id <= ${plan.maxId}`.execute(store.db);
}

async function copyMany(store: Store, plan: CopyPlan): Promise<void> {
  for (let first = 1; first <= plan.copies; first += COPIES_PER_STATEMENT) {
    await copyEvents(store, plan, first, Math.min(plan.copies, first + COPIES_PER_STATEMENT - 1));
  }
}

export async function loadActivityLog(store: Store, plan: LoadPlan, now: number, seed = 1): Promise<LoadedLog> {
  const range = { start: now - DAY_MS + 60_000, end: now - 60_000 };
  const busy = await register(store, 'busy');
  const other = await register(store, 'other');
  await writeBase(store, busy, seed, range.start, range.end);
  const { max } = await store.db.selectFrom('events').select((eb) => eb.fn.max('id').as('max')).executeTakeFirstOrThrow();
  const copies = (count: number) => Math.max(0, Math.ceil(count / BASE_EVENTS));
  const base = { from: busy, maxId: String(max), range };
  await copyMany(store, { ...base, to: busy, copies: copies(plan.events) - 1, perDayBack: 0 });
  await copyMany(store, { ...base, to: other, copies: copies(plan.elsewhere / 2), perDayBack: 0 });
  await copyMany(store, { ...base, to: busy, copies: copies(plan.elsewhere / 2), perDayBack: 1 });
  await sql`VACUUM ANALYZE events, event_counts, event_positions`.execute(store.db);
  return { repositoryId: busy, ...range };
}

/**
 * `perDay` events a day in `bench/busy` over its last `days` days (the base events in the last
 * day, copies in every day, each with its own numbers), and nothing elsewhere.
 */
export async function loadLongActivityLog(store: Store, plan: { perDay: number; days: number }, now: number, seed = 1): Promise<LoadedLog> {
  const range = { start: now - DAY_MS + 60_000, end: now - 60_000 };
  const busy = await register(store, 'busy');
  await writeBase(store, busy, seed, range.start, range.end);
  const { max } = await store.db.selectFrom('events').select((eb) => eb.fn.max('id').as('max')).executeTakeFirstOrThrow();
  const perDay = Math.max(1, Math.ceil(plan.perDay / BASE_EVENTS));
  // Copy g lands floor(g / perDay) days back; copy 0 is the base itself.
  await copyMany(store, { from: busy, maxId: String(max), range, to: busy, copies: perDay * plan.days - 1, perDayBack: perDay });
  await sql`VACUUM ANALYZE events, event_counts, event_positions`.execute(store.db);
  return { repositoryId: busy, start: range.start - (plan.days - 1) * DAY_MS, end: range.end };
}
