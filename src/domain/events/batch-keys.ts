// The two keys that tie a batch's events together for the `batch_pull` filter and the
// `by_batch_pull_request` facet (spec §4.4, DESIGN.md §8).
import type { EventType } from './event-type.ts';

const BATCH_CHECK_TYPES: ReadonlySet<EventType> = new Set(['action.queue.checks_start', 'action.queue.checks_end']);

/** The draft (or in-place) pull request checking the batch, on checks_start / checks_end. */
export function batchPullRequestOf(type: EventType, metadata: Record<string, unknown>): bigint | null {
  if (!BATCH_CHECK_TYPES.has(type)) return null;
  const speculative = metadata.speculative_check_pull_request as { number?: unknown } | undefined;
  return typeof speculative?.number === 'bigint' ? speculative.number : null;
}

/**
 * metadata.batch_id, canonical: only the types whose schema declares it can carry it (schemas
 * refuse unknown keys). Lower-cased and without a `urn:uuid:` prefix, both of which the uuid
 * format admits, so one batch is one key however a producer spells it.
 */
export function batchIdOf(metadata: Record<string, unknown>): string | null {
  const id = metadata.batch_id;
  return typeof id === 'string' ? id.toLowerCase().replace(/^urn:uuid:/, '') : null;
}
