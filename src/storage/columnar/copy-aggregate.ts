// The four parts of an aggregate (event-aggregate-parts.ts) in DuckDB's SQL, over the columnar
// copy of the events (event-copy.ts): the same filters, each facet ignoring only its own pair, the
// numbers cut to their first 200 in the database. Every value from the request is bound as a
// parameter, never spliced into the text.
//
// Which rows of the copy are the log's: the repository's, with an id up to the last one the
// request's snapshot saw, and sorting after the last event retention removed (the copy keeps what
// retention removed until it is cleaned; migration 0033).
import type { ActivityLogFilters, ValueFilter } from '../../domain/activity-log/index.ts';
import { BISECTION_TYPES } from '../../domain/activity-log/index.ts';
import { FACET_LIMIT } from '../../domain/activity-log/facets.ts';
import type { TimeWindow } from '../../domain/activity-log/time-window.ts';
import type { NumberFacet } from '../queries/event-aggregate-parts.ts';

/** An event's place in retention's order: received_at in microseconds since the epoch, then id. */
export interface EventKey {
  readonly us: bigint;
  readonly id: bigint;
}

/** The state of the log a request reads, as the copy knows it. */
export interface CopyState {
  readonly repositoryId: bigint;
  readonly lastId: bigint;
  readonly purged: EventKey | undefined;
}

export type Params = Record<string, bigint | string>;

export interface CopyStatement {
  readonly text: string;
  readonly params: Params;
}

/**
 * Binds values as $p0, $p1, … in the order they are added, each cast to its column's type: an
 * untyped parameter makes DuckDB compare every row in a wider type, without its min/max
 * pruning (ten times slower, measured).
 */
class Binder {
  readonly params: Params = {};
  private next = 0;

  bind(value: bigint | string): string {
    const name = `p${this.next++}`;
    this.params[name] = value;
    return `$${name}::${typeof value === 'bigint' ? 'BIGINT' : 'VARCHAR'}`;
  }

  list(values: readonly (bigint | string)[]): string {
    return values.map((value) => this.bind(value)).join(', ');
  }
}

/** The copy's events that are the log's in this state, in this window. */
function inState(b: Binder, state: CopyState, window?: TimeWindow): string {
  const conditions = [`repository_id = ${b.bind(state.repositoryId)}`, `id <= ${b.bind(state.lastId)}`];
  if (window) conditions.push(`received_us >= ${b.bind(microseconds(window.from))}`, `received_us < ${b.bind(microseconds(window.to))}`);
  if (state.purged) {
    const us = b.bind(state.purged.us);
    conditions.push(`(received_us > ${us} OR (received_us = ${us} AND id > ${b.bind(state.purged.id)}))`);
  }
  return conditions.join(' AND ');
}

export function microseconds(at: Date): bigint {
  return BigInt(at.getTime()) * 1000n;
}

function valueFilter(b: Binder, column: string, filter: ValueFilter<string | bigint>): string {
  return `${column} ${filter.exclude ? 'NOT IN' : 'IN'} (${b.list(filter.values)})`;
}

/** The filters as event-filters.ts applies them; NULL numbers are kept by the excluding sides. */
function filterConditions(b: Binder, state: CopyState, filters: ActivityLogFilters): string[] {
  const conditions: string[] = [];
  if (filters.baseRef !== undefined) conditions.push(`base_ref = ${b.bind(filters.baseRef)}`);
  if (filters.eventType) conditions.push(valueFilter(b, 'type', filters.eventType));
  if (filters.outcome) conditions.push(valueFilter(b, 'outcome', filters.outcome));
  if (filters.trigger) conditions.push(valueFilter(b, '"trigger"', filters.trigger));
  if (filters.pullRequest) {
    const matches = `pull_request IN (${b.list(filters.pullRequest.values)})`;
    conditions.push(filters.pullRequest.exclude ? `(pull_request IS NULL OR NOT ${matches})` : matches);
  }
  if (filters.batchPull) {
    // The checks events naming one of the numbers, and the bisection events of their batches,
    // looked up over the repository's whole history in this state (as event-filters.ts does).
    const numbers = b.list(filters.batchPull.values);
    const members = `(batch_pull_request IN (${numbers}) OR (type IN (${b.list(BISECTION_TYPES)}) AND batch_id IN (
      SELECT batch_id FROM events WHERE ${inState(b, state)} AND batch_pull_request IN (${numbers}) AND batch_id IS NOT NULL)))`;
    conditions.push(filters.batchPull.exclude ? `${members} IS NOT TRUE` : members);
  }
  return conditions;
}

function where(b: Binder, state: CopyState, window: TimeWindow, filters: ActivityLogFilters): string {
  return [inState(b, state, window), ...filterConditions(b, state, filters)].join(' AND ');
}

/** An instant's histogram bucket (event_slot of migration 0005 over the step, as an index), floor division for any sign. */
function bucketOf(b: Binder, stepSeconds: number): string {
  const width = b.bind(BigInt(stepSeconds) * 1_000_000n);
  return `CASE WHEN received_us >= 0 THEN received_us // ${width} ELSE -((-received_us - 1) // ${width}) - 1 END`;
}

/** Histogram, types and outcomes, every filter applied. */
export function mainPart(state: CopyState, window: TimeWindow, filters: ActivityLogFilters, stepSeconds: number): CopyStatement {
  const b = new Binder();
  const text = `SELECT CASE WHEN grouping(bucket) = 0 THEN 'histogram' WHEN grouping(type) = 0 THEN 'type' ELSE 'outcome' END AS grouping,
      coalesce(bucket::VARCHAR, type, outcome) AS value, count(*) AS n
    FROM (SELECT ${bucketOf(b, stepSeconds)} AS bucket, type, outcome FROM events WHERE ${where(b, state, window, filters)})
    GROUP BY GROUPING SETS ((bucket), (type), (outcome))`;
  return { text, params: b.params };
}

/** by_trigger: every filter but the trigger pair. */
export function triggerPart(state: CopyState, window: TimeWindow, filters: ActivityLogFilters): CopyStatement {
  const b = new Binder();
  const text = `SELECT 'trigger' AS grouping, "trigger" AS value, count(*) AS n FROM events
    WHERE ${where(b, state, window, { ...filters, trigger: undefined })} GROUP BY "trigger"`;
  return { text, params: b.params };
}

/** by_pull_request or by_batch_pull_request: every filter but its own pair, the first 200 by count, then number. */
export function numberPart(state: CopyState, window: TimeWindow, filters: ActivityLogFilters, facet: NumberFacet): CopyStatement {
  const b = new Binder();
  const rest = { ...filters, [facet === 'pull_request' ? 'pullRequest' : 'batchPull']: undefined };
  const text = `SELECT '${facet}' AS grouping, ${facet}::VARCHAR AS value, n FROM (
      SELECT ${facet}, count(*) AS n FROM events WHERE ${where(b, state, window, rest)} AND ${facet} IS NOT NULL GROUP BY ${facet}
      ORDER BY n DESC, ${facet} LIMIT ${FACET_LIMIT})`;
  return { text, params: b.params };
}
