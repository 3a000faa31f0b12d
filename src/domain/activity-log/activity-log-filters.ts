// The filter set of the activity log (spec §4.4, DESIGN.md §8), normalised: values of one
// parameter OR together, parameters AND together, and each include/exclude pair is used one side
// at a time. Values are deduplicated and sorted, so the same set spelt in another order is the
// same filter (same fingerprint, same links).
import type { EventType, Outcome } from '../events/index.ts';

/** One side of a pair: keep (exclude false) or drop (exclude true) events matching any value. */
export interface ValueFilter<T> {
  readonly exclude: boolean;
  readonly values: readonly T[];
}

export interface ActivityLogFilters {
  readonly pullRequest?: ValueFilter<bigint> | undefined;
  readonly batchPull?: ValueFilter<bigint> | undefined;
  readonly eventType?: ValueFilter<EventType> | undefined;
  readonly outcome?: ValueFilter<Outcome> | undefined;
  readonly trigger?: ValueFilter<string> | undefined;
  readonly baseRef?: string | undefined;
}

/** The events `batch_pull` adds by batch id to the checks events it finds by number. */
export const BISECTION_TYPES = ['action.queue.batch_bisection_start', 'action.queue.batch_bisection_end'] as const satisfies readonly EventType[];

export type PairKey = 'pullRequest' | 'batchPull' | 'eventType' | 'outcome' | 'trigger';

/** Each exclusive pair: its filter key and its two query parameters. */
export const FILTER_PAIRS = [
  { key: 'pullRequest', include: 'pull_request', exclude: 'not_pull_request' },
  { key: 'batchPull', include: 'batch_pull', exclude: 'not_batch_pull' },
  { key: 'eventType', include: 'event_type', exclude: 'not_event_type' },
  { key: 'outcome', include: 'outcome', exclude: 'not_outcome' },
  { key: 'trigger', include: 'trigger', exclude: 'not_trigger' },
] as const satisfies readonly { key: PairKey; include: string; exclude: string }[];

export type FilterPair = (typeof FILTER_PAIRS)[number];

/** Sorted, without repeats; bigints by value, strings by code unit. */
export function normaliseValues<T extends bigint | string>(values: readonly T[]): T[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
