// What /metrics shows of the merge queue (issue 26), read from storage at each scrape: the queues
// as they stand (pull requests queued, batches whose checks run), and the queue's events written
// since the last scrape (leaves and concluded checks), found by id. A repository's events commit
// in id order (writers take its lock first, migration 0033), so every event of a repository up to
// the `last_id` a read saw is there to read: reading each repository up to that position, never
// beyond, misses none.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.ts';

export interface QueueGaugeRow {
  repository: string;
  branch: string;
  depth: number;
  running: number;
}

export interface QueueMetricEventRow {
  id: bigint;
  repositoryId: string;
  repository: string;
  type: 'action.queue.leave' | 'action.queue.checks_end';
  at: number;
  branch: string | null;
  queued_at: unknown;
  dequeue_code: unknown;
  aborted: unknown;
  batch_id: unknown;
  checks_started_at: unknown;
  checks_ended_at: unknown;
}

const METRIC_TYPES = ['action.queue.leave', 'action.queue.checks_end'];

export class MergeQueueMetricsQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every queue of every repository: pull requests queued and batches whose checks run, most queued first. */
  async gauges(): Promise<QueueGaugeRow[]> {
    const { rows } = await sql<{ repository: string; branch: string; depth: string | number; running: string | number }>`
      SELECT r.owner || '/' || r.name AS repository, q.base_ref AS branch,
        (SELECT count(*) FROM merge_queue_entries e WHERE e.queue_id = q.id AND e.left_at IS NULL) AS depth,
        (SELECT count(*) FROM merge_queue_batches b WHERE b.queue_id = q.id AND b.finished_at IS NULL AND b.phase = 'running') AS running
      FROM merge_queues q JOIN repositories r ON r.id = q.repository_id
      ORDER BY depth DESC, repository, branch`.execute(this.db);
    return rows.map((row) => ({ repository: row.repository, branch: row.branch, depth: Number(row.depth), running: Number(row.running) }));
  }

  /** Each repository's last event id (migration 0033). */
  async positions(): Promise<Map<string, bigint>> {
    const { rows } = await sql<{ repository_id: string; last_id: string }>`SELECT repository_id::text AS repository_id, last_id::text AS last_id FROM event_positions`.execute(this.db);
    return new Map(rows.map((row) => [row.repository_id, BigInt(row.last_id)]));
  }

  /** Leaves and checks ends with an id in (after, through], in id order, at most `limit`. */
  async events(after: bigint, through: bigint, limit: number): Promise<QueueMetricEventRow[]> {
    const { rows } = await sql<Record<string, unknown>>`
      SELECT e.id::text AS id, e.repository_id::text AS repository_id, p.owner || '/' || p.name AS repository, e.type, e.received_at,
        coalesce(e.base_ref, m.branch) AS branch, m.queued_at, m.dequeue_code, m.aborted, m.batch_id,
        m.speculative_check_pull_request ->> 'checks_started_at' AS checks_started_at,
        m.speculative_check_pull_request ->> 'checks_ended_at' AS checks_ended_at
      FROM events e JOIN repositories p ON p.id = e.repository_id
        CROSS JOIN LATERAL json_to_record(e.metadata) AS m(branch text, queued_at text, dequeue_code text, aborted text, batch_id text, speculative_check_pull_request json)
      WHERE e.id > ${after.toString()} AND e.id <= ${through.toString()} AND e.type IN (${sql.join(METRIC_TYPES)})
      ORDER BY e.id LIMIT ${limit}`.execute(this.db);
    return rows.map((row) => ({
      ...(row as Omit<QueueMetricEventRow, 'id' | 'repositoryId' | 'at'>),
      id: BigInt(row.id as string),
      repositoryId: row.repository_id as string,
      at: new Date(row.received_at as Date).getTime(),
    }));
  }
}
