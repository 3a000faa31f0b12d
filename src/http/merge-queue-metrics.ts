// The merge queue on /metrics (issue 26): pull requests queued and checks running per repository
// and base branch (gauges), time in queue and CI duration (histograms), exits by dequeue code
// (a counter). Read from storage when scraped (src/services/merge-queue-metrics-feed.ts), once per
// scrape; labels bounded by LabelBudget. Counted from the activity log, they are the whole
// store's: each process sharing one PostgreSQL shows the same figures.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LabelBudget, type QueueLabels } from '../domain/merge-queue-stats/label-budget.ts';
import type { QueueMetricsFeed, QueueMetricsReading } from '../services/merge-queue-metrics-feed.ts';

/** (repository, branch) pairs with series of their own. */
export const QUEUE_LABEL_PAIRS = 50;

const TIME_IN_QUEUE_BUCKETS = [60, 300, 600, 1800, 3600, 7200, 14400, 28800, 86400, 259200];
const CI_DURATION_BUCKETS = [30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

export function registerQueueMetrics(registry: Registry, feed: QueueMetricsFeed, log?: (message: string, error: unknown) => void): void {
  const budget = new LabelBudget(QUEUE_LABEL_PAIRS);
  const labelNames = ['repository', 'branch'] as const;
  const failures = new Counter({ name: 'switchyard_merge_queue_metrics_read_failures_total', help: 'Scrapes whose merge-queue figures could not be read from storage (the others kept their last values)', registers: [registry] });
  // The histograms and the counter are fed by the scrape's reading: each reads first.
  const collect = () => refresh();
  const timeInQueue = new Histogram({ name: 'switchyard_merge_queue_time_in_queue_seconds', help: 'Time from entering the merge queue to leaving it, per pull request that left', labelNames, buckets: TIME_IN_QUEUE_BUCKETS, registers: [registry], collect });
  const ciDuration = new Histogram({ name: 'switchyard_merge_queue_ci_duration_seconds', help: 'Time from checks started to checks concluded, per batch attempt (aborted attempts not counted)', labelNames, buckets: CI_DURATION_BUCKETS, registers: [registry], collect });
  const exits = new Counter({ name: 'switchyard_merge_queue_exits_total', help: 'Pull requests that left the merge queue, by dequeue code (PR_MERGED for a merge)', labelNames: [...labelNames, 'reason'], registers: [registry], collect });
  let latest: QueueMetricsReading = { gauges: [], observations: [] };

  const apply = (reading: QueueMetricsReading) => {
    latest = reading;
    for (const o of reading.observations) {
      const labels = budget.labels(o.repository, o.branch);
      if (o.kind === 'exit') exits.inc({ ...labels, reason: o.reason });
      else (o.kind === 'time_in_queue' ? timeInQueue : ciDuration).observe(labels, o.seconds);
    }
  };
  let reading: Promise<void> | undefined;
  /** One reading per scrape: a scrape collects every metric at once, and they share the reading in flight. */
  const refresh = (): Promise<void> => {
    reading ??= feed
      .read()
      .then(apply, (error: unknown) => {
        failures.inc();
        log?.('merge queue metrics: storage did not answer', error);
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  const gauge = (name: string, help: string, value: (row: QueueMetricsReading['gauges'][number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        await refresh();
        this.reset();
        const sums = new Map<string, { labels: QueueLabels; value: number }>();
        for (const row of latest.gauges) {
          const labels = budget.labels(row.repository, row.branch);
          const key = JSON.stringify(labels);
          sums.set(key, { labels, value: (sums.get(key)?.value ?? 0) + value(row) });
        }
        for (const { labels, value: v } of sums.values()) this.set(labels, v);
      },
    });
  gauge('switchyard_merge_queue_pull_requests', 'Pull requests in the merge queue now', (row) => row.depth);
  gauge('switchyard_merge_queue_checks_running', 'Batches of the merge queue whose checks run now', (row) => row.running);
}
