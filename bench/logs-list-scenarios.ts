// The pages the listing benchmark asks for: first pages without and with selective filters, and
// pages deep in a walk. Each comes as the HTTP query string a client sends and as the page query
// the route runs for it, built with the same domain functions, so the floor is the same SQL.
import { sql } from 'kysely';
import * as log from '../src/domain/activity-log/index.ts';
import type { PageRequest } from '../src/storage/queries/event-log.ts';
import { matchEvents } from '../src/storage/queries/event-filters.ts';
import type { Store } from '../src/storage/store.ts';
import type { LoadedLog } from './activity-log-data.ts';

export interface Scenario {
  name: string;
  /** The query string of the HTTP request. */
  search: string;
  /** The page query the route runs for it. */
  request: PageRequest;
}

type Params = Omit<log.ActivityLogListParams, 'cursor' | 'per_page'>;

const PER_PAGE = 10;

/** The query string as a client following the app's links sends it. */
function searchOf(query: log.ActivityLogQuery, cursor?: string): string {
  return new URLSearchParams([...log.filterParams(query), ['per_page', String(PER_PAGE)], ...(cursor ? [['cursor', cursor]] : [])]).toString();
}

function firstPage(repositoryId: string, name: string, params: Params): Scenario {
  const query = log.parseFilterQuery(params);
  const window = log.resolveWindow(query.bounds, new Date());
  return { name, search: searchOf(query), request: { repositoryId, window, filters: query.filters, limit: PER_PAGE + 1 } };
}

/** A page `depth` (0..1) of the way through the walk, reached with a cursor as a client would hold. */
async function deepPage(store: Store, repositoryId: string, name: string, params: Params, depth: number, direction: log.PageDirection): Promise<Scenario> {
  const first = firstPage(repositoryId, name, params);
  const scope = { repositoryId, window: first.request.window };
  const { total } = await store.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('total')).where((eb) => matchEvents(eb, scope, first.request.filters)).executeTakeFirstOrThrow();
  const row = await store.eventLog.pageQuery({ ...first.request, limit: 1 }).offset(Math.floor(Number(total) * depth)).executeTakeFirstOrThrow();
  const position = { receivedAt: row.received_at.getTime(), id: BigInt(row.id) };
  const snapshot = BigInt(row.snapshot!);
  const query = log.parseFilterQuery(params);
  const fingerprint = log.filterFingerprint(repositoryId, query);
  const cursor = log.encodeCursor({ direction, position, window: first.request.window, snapshot, fingerprint }, await store.eventLog.signingKey());
  return { name, search: searchOf(query, cursor), request: { ...first.request, snapshot, seek: { direction, position } } };
}

/** The value of `column` with the most events in the busy day. */
async function busiest(store: Store, loaded: LoadedLog, column: 'pull_request' | 'batch_pull_request'): Promise<bigint> {
  const result = await sql<{ value: string }>`
    SELECT ${sql.ref(column)} AS value FROM events
    WHERE repository_id = ${loaded.repositoryId} AND received_at >= ${new Date(loaded.start)} AND ${sql.ref(column)} IS NOT NULL
    GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`.execute(store.db);
  return BigInt(result.rows[0]!.value);
}

export async function buildScenarios(store: Store, loaded: LoadedLog): Promise<Scenario[]> {
  const id = loaded.repositoryId;
  const pull = await busiest(store, loaded, 'pull_request');
  const batch = await busiest(store, loaded, 'batch_pull_request');
  return [
    firstPage(id, 'first page', {}),
    await deepPage(store, id, 'deep page (90%), next', {}, 0.9, 'next'),
    await deepPage(store, id, 'deep page (50%), prev', {}, 0.5, 'prev'),
    firstPage(id, `pull_request=${pull}`, { pull_request: [pull] }),
    firstPage(id, `batch_pull=${batch}`, { batch_pull: [batch] }),
    firstPage(id, 'event_type=checks_start', { event_type: ['action.queue.checks_start'] }),
    await deepPage(store, id, 'event_type=checks_start, deep (90%)', { event_type: ['action.queue.checks_start'] }, 0.9, 'next'),
    firstPage(id, 'event_type=scheduled_freeze.delete (rare)', { event_type: ['scheduled_freeze.delete'] }),
    firstPage(id, 'event_type=label|comment|merge', { event_type: ['action.label', 'action.comment', 'action.merge'] }),
    firstPage(id, 'outcome=failure', { outcome: ['failure'] }),
    firstPage(id, 'base_ref=develop', { base_ref: 'develop' }),
    firstPage(id, 'trigger=ci insights', { trigger: ['ci insights'] }),
    firstPage(id, 'not_event_type=enter|leave, not_outcome=neutral', { not_event_type: ['action.queue.enter', 'action.queue.leave'], not_outcome: ['neutral'] }),
    firstPage(id, 'checks_end + failure + main', { event_type: ['action.queue.checks_end'], outcome: ['failure'], base_ref: 'main' }),
    firstPage(id, 'trigger=nobody (matches nothing)', { trigger: ['nobody'] }),
    // Worst case: two filters each served by an index, which never hold together.
    firstPage(id, 'event_type=label + trigger=merge queue (matches nothing)', { event_type: ['action.label'], trigger: ['merge queue'] }),
  ];
}
