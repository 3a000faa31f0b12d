// The merge queue's statistics read from the activity log (DESIGN.md §9, issue 26): the events of
// one queue type in a window, with the group they count in and the metadata fields a statistic
// asks for, one row per event in time order. The maths is pure (src/domain/merge-queue-stats/).
//
// The metadata is stored as json text: json_to_record reads each document once for every field,
// where one `->>` per field would read it again for each. Every field is read as text (a value
// of another JSON type than expected is then text too, never an error) and judged in the domain.
// A window is read a day at a time, so no statement holds PGlite's one session for long.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { TimeWindow } from '../../domain/activity-log/time-window.ts';
import { EVENT_TYPES, type EventType } from '../../domain/events/event-type.ts';
import type { StatsField, StatsRow } from '../../domain/merge-queue-stats/stats-rows.ts';
import type { Database } from '../database.ts';

export interface StatsFilters {
  baseRefs?: readonly string[] | undefined;
  queueNames?: readonly string[] | undefined;
  priorityRuleNames?: readonly string[] | undefined;
}

export interface StatsScope {
  repositoryId: string;
  window: TimeWindow;
  filters: StatsFilters;
}

/** Only the events of these stays (idle time reads the checks of the stays that ended). */
export interface RowOptions {
  sessions?: readonly string[];
}

const SLICE_MS = 86_400_000;

export const QUEUE_EVENT_TYPES = EVENT_TYPES.filter((type) => type.startsWith('action.queue.'));

const RECORD = sql.raw(`json_to_record(e.metadata) AS r(
  branch text, queue_name text, priority_rule_name text, queued_at text, session_id text, batch_id text,
  dequeue_code text, merged text, seconds_waiting_for_schedule text, seconds_waiting_for_freeze text,
  aborted text, abort_code text, retry_attempt text, speculative_check_pull_request json, pull_request_numbers json,
  bisection_depth text, batch_size_before_split text, culprit_found text, max_failure_resolution_reached text,
  size text, running_checks text)`);

const FIELDS: Record<StatsField, RawBuilder<unknown>> = {
  queued_at: sql`r.queued_at`,
  session_id: sql`r.session_id`,
  batch_id: sql`r.batch_id`,
  dequeue_code: sql`r.dequeue_code`,
  merged: sql`r.merged`,
  seconds_waiting_for_schedule: sql`r.seconds_waiting_for_schedule`,
  seconds_waiting_for_freeze: sql`r.seconds_waiting_for_freeze`,
  aborted: sql`r.aborted`,
  abort_code: sql`r.abort_code`,
  retry_attempt: sql`r.retry_attempt`,
  checks_started_at: sql`r.speculative_check_pull_request ->> 'checks_started_at'`,
  checks_ended_at: sql`r.speculative_check_pull_request ->> 'checks_ended_at'`,
  checks_conclusion: sql`r.speculative_check_pull_request ->> 'checks_conclusion'`,
  batch_size: sql`CASE WHEN json_typeof(r.pull_request_numbers) = 'array' THEN json_array_length(r.pull_request_numbers) END`,
  bisection_depth: sql`r.bisection_depth`,
  batch_size_before_split: sql`r.batch_size_before_split`,
  culprit_found: sql`r.culprit_found`,
  max_failure_resolution_reached: sql`r.max_failure_resolution_reached`,
  size: sql`r.size`,
  running_checks: sql`r.running_checks`,
};

const BASE_REF = sql`coalesce(e.base_ref, r.branch)`;

interface RawRow {
  id: string;
  received_at: Date;
  base_ref: string;
  queue_name: string;
  priority_rule_name: string | null;
  [field: string]: unknown;
}

export class MergeQueueStatsQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /** The events of `type` in the scope's window, with `fields`, in time order. */
  async rows<F extends StatsField>(scope: StatsScope, type: EventType, fields: readonly F[], options: RowOptions = {}): Promise<StatsRow<F>[]> {
    if (options.sessions?.length === 0) return [];
    const rows: StatsRow<F>[] = [];
    for (const slice of daySlices(scope.window)) {
      const where = this.conditions({ ...scope, window: slice }, type, options);
      const { rows: found } = await sql<RawRow>`SELECT ${this.columns(fields)} FROM events e CROSS JOIN LATERAL ${RECORD}
        WHERE ${where} ORDER BY e.received_at, e.id`.execute(this.db);
      rows.push(...found.map((row) => asStatsRow<F>(row)));
    }
    return rows;
  }

  /**
   * Each group's last event of `type` in the `lookbackMs` before the window: the value a gauge
   * holds when the window opens.
   */
  async lastBefore<F extends StatsField>(scope: StatsScope, type: EventType, fields: readonly F[], lookbackMs: number, withPriority: boolean): Promise<StatsRow<F>[]> {
    const from = scope.window.from;
    const where = this.conditions({ ...scope, window: { from: new Date(from.getTime() - lookbackMs), to: from } }, type, {});
    const group = withPriority ? sql`${BASE_REF}, r.queue_name, r.priority_rule_name` : sql`${BASE_REF}, r.queue_name`;
    const { rows } = await sql<RawRow>`SELECT DISTINCT ON (${group}) ${this.columns(fields)} FROM events e CROSS JOIN LATERAL ${RECORD}
      WHERE ${where} ORDER BY ${group}, e.received_at DESC, e.id DESC`.execute(this.db);
    return rows.map((row) => asStatsRow<F>(row));
  }

  /** The base branches of the queue's events in the window, by name. */
  async baseRefs(repositoryId: string, window: TimeWindow): Promise<string[]> {
    return this.distinct(repositoryId, window, sql`coalesce(e.base_ref, e.metadata ->> 'branch')`);
  }

  /** The queue names (queue rules) of the queue's events in the window, by name. */
  async queueNames(repositoryId: string, window: TimeWindow): Promise<string[]> {
    return this.distinct(repositoryId, window, sql`e.metadata ->> 'queue_name'`);
  }

  private async distinct(repositoryId: string, window: TimeWindow, value: RawBuilder<unknown>): Promise<string[]> {
    const values = new Set<string>();
    for (const slice of daySlices(window)) {
      const { rows } = await sql<{ value: string }>`SELECT DISTINCT value FROM (SELECT ${value} AS value FROM events e
        WHERE e.repository_id = ${repositoryId} AND e.type IN (${sql.join(QUEUE_EVENT_TYPES)})
          AND e.received_at >= ${slice.from} AND e.received_at < ${slice.to}) AS found WHERE value IS NOT NULL`.execute(this.db);
      for (const row of rows) values.add(row.value);
    }
    return [...values].sort();
  }

  private columns(fields: readonly StatsField[]): RawBuilder<unknown> {
    const extra = fields.map((field) => sql`${FIELDS[field]} AS ${sql.ref(field)}`);
    return sql.join([sql`e.id::text AS id`, sql`e.received_at`, sql`${BASE_REF} AS base_ref`, sql`r.queue_name`, sql`r.priority_rule_name`, ...extra]);
  }

  private conditions(scope: StatsScope, type: EventType, options: RowOptions): RawBuilder<unknown> {
    const { filters } = scope;
    const conditions = [
      sql`e.repository_id = ${scope.repositoryId}`,
      sql`e.type = ${type}`,
      sql`e.received_at >= ${scope.window.from}`,
      sql`e.received_at < ${scope.window.to}`,
      sql`${BASE_REF} IS NOT NULL`,
      sql`r.queue_name IS NOT NULL`,
    ];
    if (filters.baseRefs?.length) conditions.push(sql`${BASE_REF} IN (${sql.join(filters.baseRefs)})`);
    if (filters.queueNames?.length) conditions.push(sql`r.queue_name IN (${sql.join(filters.queueNames)})`);
    if (filters.priorityRuleNames?.length) conditions.push(sql`r.priority_rule_name IN (${sql.join(filters.priorityRuleNames)})`);
    // One array parameter: a window's stays may outnumber the parameters a statement can take.
    if (options.sessions) conditions.push(sql`r.session_id = ANY(${[...options.sessions]}::text[])`);
    return sql.join(conditions, sql` AND `);
  }
}

function asStatsRow<F extends StatsField>(row: RawRow): StatsRow<F> {
  const { received_at, ...rest } = row;
  return { ...rest, at: new Date(received_at).getTime() } as unknown as StatsRow<F>;
}

/** The window cut into consecutive slices of at most a day. */
function daySlices(window: TimeWindow): TimeWindow[] {
  const slices: TimeWindow[] = [];
  for (let from = window.from.getTime(); from < window.to.getTime(); from += SLICE_MS) {
    slices.push({ from: new Date(from), to: new Date(Math.min(window.to.getTime(), from + SLICE_MS)) });
  }
  return slices;
}
