// Checks retried in the queue (max_checks_retries): every concluded attempt of a batch says which
// retry it was (checks_end `retry_attempt`, 0 for the first). Per stay (session) of a pull
// request: its retries are its attempts with retry_attempt > 0, its depth the highest of them,
// and it recovered when one of those passed. A stay counts in the interval of its last retry.
import { groupSeries } from './interval-series.ts';
import type { Intervals } from './stats-intervals.ts';
import { flagOf, numberOf, textOf } from './stats-rows.ts';
import type { ChecksEndRow } from './batch-stats.ts';

interface RetriedStay {
  retries: number;
  depth: number;
  recovered: boolean;
}

export function checksRetries(rows: readonly ChecksEndRow[], intervals: Intervals) {
  return groupSeries(rows, intervals, retriedStays, (stays) => {
    if (stays.length === 0) return undefined;
    const recovered = stays.filter((stay) => stay.recovered).length;
    const depths = stays.reduce((sum, stay) => sum + stay.depth, 0);
    return {
      total_retries: stays.reduce((sum, stay) => sum + stay.retries, 0),
      sessions_with_retries: stays.length,
      recovered,
      not_recovered: stays.length - recovered,
      recovery_rate: recovered / stays.length,
      avg_retry_depth: depths / stays.length,
      max_retry_depth: Math.max(...stays.map((stay) => stay.depth)),
    };
  });
}

function retriedStays(rows: ChecksEndRow[]): { at: number; value: RetriedStay }[] {
  const stays = new Map<string, { at: number; value: RetriedStay }>();
  for (const row of rows) {
    const session = textOf(row.session_id);
    const attempt = numberOf(row.retry_attempt) ?? 0;
    if (session === undefined || attempt < 1 || flagOf(row.aborted) === true) continue;
    const stay = stays.get(session) ?? { at: row.at, value: { retries: 0, depth: 0, recovered: false } };
    stay.at = Math.max(stay.at, row.at);
    stay.value.retries += 1;
    stay.value.depth = Math.max(stay.value.depth, attempt);
    stay.value.recovered ||= textOf(row.checks_conclusion) === 'success';
    stays.set(session, stay);
  }
  return [...stays.values()];
}
