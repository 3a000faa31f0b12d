// The activity-log filter set as one SQL condition on `events` (spec §4.4, DESIGN.md §8), for
// listing and aggregation alike: `.where((eb) => matchEvents(eb, scope, filters))`. Columns are
// unqualified, so it applies to `events` under any alias. Excluding filters keep rows whose column
// is NULL (a NULL never equals an excluded value), which plain NOT IN would silently drop.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { BISECTION_TYPES, type ActivityLogFilters, type TimeWindow, type ValueFilter } from '../../domain/activity-log/index.ts';
import type { Database } from '../database.ts';

/** Which events a filter set is applied to: one repository, one window, and optionally a snapshot. */
export interface EventScope {
  readonly repositoryId: string;
  readonly window: TimeWindow;
  /** Only events with an id up to this one: what a listing's walk was fixed on. */
  readonly maxId?: bigint | undefined;
}

type Events = ExpressionBuilder<Database, 'events'>;
type TextColumn = 'type' | 'outcome' | 'trigger';

export function matchEvents(eb: Events, scope: EventScope, filters: ActivityLogFilters): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [
    eb('repository_id', '=', scope.repositoryId),
    eb('received_at', '>=', scope.window.from),
    eb('received_at', '<', scope.window.to),
  ];
  if (scope.maxId !== undefined) conditions.push(eb('id', '<=', scope.maxId.toString()));
  return eb.and([...conditions, ...filterConditions(eb, scope, filters)]);
}

/** The filter set alone, for rows already known to be in the scope (its batch lookups still use it). */
export function filterConditions(eb: Events, scope: EventScope, filters: ActivityLogFilters): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (filters.baseRef !== undefined) conditions.push(eb('base_ref', '=', filters.baseRef));
  if (filters.eventType) conditions.push(textFilter(eb, 'type', filters.eventType));
  if (filters.outcome) conditions.push(textFilter(eb, 'outcome', filters.outcome));
  if (filters.trigger) conditions.push(textFilter(eb, 'trigger', filters.trigger));
  if (filters.pullRequest) conditions.push(pullRequestFilter(eb, filters.pullRequest));
  if (filters.batchPull) conditions.push(batchPullFilter(eb, scope, filters.batchPull));
  return conditions;
}

function textFilter(eb: Events, column: TextColumn, filter: ValueFilter<string>): Expression<SqlBool> {
  return eb(column, filter.exclude ? 'not in' : 'in', [...filter.values]);
}

function pullRequestFilter(eb: Events, filter: ValueFilter<bigint>): Expression<SqlBool> {
  const numbers = filter.values.map(String);
  if (!filter.exclude) return eb('pull_request', 'in', numbers);
  return eb.or([eb('pull_request', 'is', null), eb('pull_request', 'not in', numbers)]);
}

function batchPullFilter(eb: Events, scope: EventScope, filter: ValueFilter<bigint>): Expression<SqlBool> {
  const members = batchMembers(eb, scope, filter.values.map(String));
  return filter.exclude ? sql<SqlBool>`(${members}) is not true` : members;
}

/**
 * The checks_start / checks_end events recording one of `numbers`, plus the bisection events of
 * their batches. Batches are looked up over the repository's whole history (within the snapshot),
 * not the window: a window may hold a batch's bisection but not the checks that named it. The
 * batch ids are gathered first (ARRAY(...) runs once), so both halves are plain index lookups.
 */
function batchMembers(eb: Events, scope: EventScope, numbers: string[]): Expression<SqlBool> {
  const batchIds = eb
    .selectFrom('events as batch_checks')
    .select('batch_checks.batch_id')
    .where('batch_checks.repository_id', '=', scope.repositoryId)
    .where('batch_checks.batch_pull_request', 'in', numbers)
    .where('batch_checks.batch_id', 'is not', null)
    .$if(scope.maxId !== undefined, (query) => query.where('batch_checks.id', '<=', String(scope.maxId)));
  return eb.or([
    eb('batch_pull_request', 'in', numbers),
    eb.and([eb('type', 'in', [...BISECTION_TYPES]), sql<SqlBool>`${eb.ref('batch_id')} = any(array(${batchIds}))`]),
  ]);
}
