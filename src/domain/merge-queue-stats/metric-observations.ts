// What the merge queue's metrics observe in its events (spec §6.3): a leave is a pull request's
// time in the queue (received_at − queued_at) and an exit by its dequeue code; a checks end that
// concluded (not aborted) is a CI duration, once per batch attempt (the event is written once per
// pull request of the batch). Codes outside the catalogue count as `other`: labels stay bounded.
import { DEQUEUE_CODES } from '../events/shapes/queue-codes.ts';
import { flagOf, secondsBetween, textOf, timeOf } from './stats-rows.ts';

export interface MetricEvent {
  repository: string;
  type: string;
  at: number;
  branch: string | null;
  queued_at: unknown;
  dequeue_code: unknown;
  aborted: unknown;
  batch_id: unknown;
  checks_started_at: unknown;
  checks_ended_at: unknown;
}

export type Observation =
  | { kind: 'time_in_queue'; repository: string; branch: string; seconds: number }
  | { kind: 'ci_duration'; repository: string; branch: string; seconds: number }
  | { kind: 'exit'; repository: string; branch: string; reason: string };

const CODES: ReadonlySet<string> = new Set(DEQUEUE_CODES);

export function observationsOf(events: readonly MetricEvent[]): Observation[] {
  const observations: Observation[] = [];
  const attempts = new Set<string>();
  for (const event of events) {
    if (event.branch === null) continue;
    const where = { repository: event.repository, branch: event.branch };
    if (event.type === 'action.queue.leave') {
      const seconds = secondsBetween(timeOf(event.queued_at), event.at);
      if (seconds !== undefined) observations.push({ kind: 'time_in_queue', ...where, seconds });
      const code = textOf(event.dequeue_code);
      if (code !== undefined) observations.push({ kind: 'exit', ...where, reason: CODES.has(code) ? code : 'other' });
    } else if (event.type === 'action.queue.checks_end' && flagOf(event.aborted) !== true) {
      const attempt = `${event.repository} ${textOf(event.batch_id)} ${textOf(event.checks_started_at)}`;
      const seconds = secondsBetween(timeOf(event.checks_started_at), timeOf(event.checks_ended_at));
      if (seconds === undefined || attempts.has(attempt)) continue;
      attempts.add(attempt);
      observations.push({ kind: 'ci_duration', ...where, seconds });
    }
  }
  return observations;
}
