// What a statistic is computed from: the merge queue's events (spec §6.3) as storage reads them,
// one row per event, with the group it counts in and the metadata fields the statistic asks for,
// as stored (text, numbers or booleans: read here, never trusted to be well formed).
import { parseDateTime } from '../date-time.ts';

/** The group every statistic is told by (base_ref from the event, else its metadata `branch`). */
export interface StatsGroup {
  base_ref: string;
  queue_name: string;
  priority_rule_name: string | null;
}

/** The metadata fields a statistic may ask for; nested ones are read from `speculative_check_pull_request`. */
export const STATS_FIELDS = [
  'queued_at',
  'session_id',
  'batch_id',
  'dequeue_code',
  'merged',
  'seconds_waiting_for_schedule',
  'seconds_waiting_for_freeze',
  'aborted',
  'abort_code',
  'retry_attempt',
  'checks_started_at',
  'checks_ended_at',
  'checks_conclusion',
  'batch_size',
  'bisection_depth',
  'batch_size_before_split',
  'culprit_found',
  'max_failure_resolution_reached',
  'size',
  'running_checks',
] as const;

export type StatsField = (typeof STATS_FIELDS)[number];

export type StatsRow<F extends StatsField = never> = StatsGroup & {
  /** The event id, as text. */
  id: string;
  /** received_at, epoch milliseconds. */
  at: number;
} & { readonly [K in F]: unknown };

/** A date-time field as epoch milliseconds, or undefined when it is not one. */
export function timeOf(value: unknown): number | undefined {
  return typeof value === 'string' ? parseDateTime(value)?.getTime() : undefined;
}

export function flagOf(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

export function numberOf(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : undefined;
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Seconds from one instant to another (ms), or undefined when either is unknown or they run backwards. */
export function secondsBetween(from: number | undefined, to: number | undefined): number | undefined {
  return from === undefined || to === undefined || to < from ? undefined : (to - from) / 1000;
}
