// Feeds the merge queue's metrics: the queues as they stand, and what the queue's events written
// since the last read observed (a leave, a concluded checks run). Per repository, the feed remembers
// the last event id it read; it starts at the positions of when the process started, so counters
// count from then, as Prometheus expects of a process's counters.
import { observationsOf, type Observation } from '../domain/merge-queue-stats/metric-observations.ts';
import type { MergeQueueMetricsQueries, QueueGaugeRow } from '../storage/queries/merge-queue-stats-metrics.ts';

/** Events read per statement, and statements per read: a burst is read over several scrapes. */
const CHUNK_ROWS = 5_000;
const CHUNKS_PER_READ = 20;

export interface QueueMetricsReading {
  gauges: QueueGaugeRow[];
  observations: Observation[];
}

export class QueueMetricsFeed {
  private cursors: Map<string, bigint> | undefined;
  private readonly started: Promise<Map<string, bigint> | undefined>;

  constructor(private readonly queries: MergeQueueMetricsQueries) {
    // Where the log stands as the process starts; a failure leaves the start to the first read.
    this.started = queries.positions().catch(() => undefined);
  }

  async read(): Promise<QueueMetricsReading> {
    this.cursors ??= await this.started;
    const positions = await this.queries.positions();
    if (!this.cursors) {
      this.cursors = positions;
      return { gauges: await this.queries.gauges(), observations: [] };
    }
    return { gauges: await this.queries.gauges(), observations: observationsOf(await this.newEvents(this.cursors, positions)) };
  }

  /** The leaves and checks ends of each repository after its cursor, up to its position; cursors move past what was read. */
  private async newEvents(cursors: Map<string, bigint>, positions: Map<string, bigint>) {
    const pending = [...positions].filter(([repository, last]) => last > (cursors.get(repository) ?? 0n));
    if (pending.length === 0) return [];
    const after = pending.reduce((least, [repository]) => bigMin(least, cursors.get(repository) ?? 0n), pending[0]![1]);
    const through = pending.reduce((most, [, last]) => (last > most ? last : most), 0n);
    const found = [];
    let readThrough = after;
    for (let chunk = 0; chunk < CHUNKS_PER_READ && readThrough < through; chunk++) {
      const rows = await this.queries.events(readThrough, through, CHUNK_ROWS);
      found.push(...rows);
      readThrough = rows.length < CHUNK_ROWS ? through : rows.at(-1)!.id;
    }
    const events = found.filter((row) => row.id > (cursors.get(row.repositoryId) ?? 0n) && row.id <= positions.get(row.repositoryId)!);
    for (const [repository, last] of pending) cursors.set(repository, bigMax(cursors.get(repository) ?? 0n, bigMin(last, readThrough)));
    return events;
  }
}

const bigMin = (a: bigint, b: bigint) => (a < b ? a : b);
const bigMax = (a: bigint, b: bigint) => (a > b ? a : b);
