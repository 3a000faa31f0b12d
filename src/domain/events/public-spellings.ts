// The public API spells two identifiers with a brand name where the spec has a neutral word
// (spec §6): an event type and an abort/dequeue code. Clients generated from the public document
// send those spellings, so filters and ingestion accept them as aliases; answers always carry
// the spec's names.
import type { EventType } from './event-type.ts';
import type { AbortCode } from './shapes/queue-codes.ts';

export const EVENT_TYPE_ALIASES = { 'action.github_actions': 'action.hosting_actions' } as const satisfies Record<string, EventType>;

export const QUEUE_CODE_ALIASES = {
  GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED: 'HOSTING_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED',
} as const satisfies Record<string, AbortCode>;

export type EventTypeAlias = keyof typeof EVENT_TYPE_ALIASES;

export const EVENT_TYPE_ALIAS_NAMES = Object.keys(EVENT_TYPE_ALIASES) as EventTypeAlias[];

/** The metadata fields that hold an abort or dequeue code (checks_end, leave). */
const CODE_FIELDS = ['abort_code', 'dequeue_code'] as const;

export function canonicalEventType<T extends string>(value: T | EventTypeAlias): T | EventType {
  return Object.hasOwn(EVENT_TYPE_ALIASES, value) ? EVENT_TYPE_ALIASES[value as EventTypeAlias] : (value as T);
}

function canonicalCode(value: unknown): unknown {
  return typeof value === 'string' && Object.hasOwn(QUEUE_CODE_ALIASES, value) ? QUEUE_CODE_ALIASES[value as keyof typeof QUEUE_CODE_ALIASES] : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An ingested event with the spec's spellings: the same object when it uses no alias (the usual
 * case, so its metadata keeps its source text), else a copy with the aliases replaced.
 */
export function withSpecSpellings(event: unknown): unknown {
  if (!isRecord(event)) return event;
  const type = typeof event.type === 'string' ? canonicalEventType(event.type) : event.type;
  const metadata = event.metadata;
  const codes = isRecord(metadata) ? CODE_FIELDS.filter((field) => canonicalCode(metadata[field]) !== metadata[field]) : [];
  if (type === event.type && codes.length === 0) return event;
  const fixed = codes.length === 0 ? metadata : { ...(metadata as Record<string, unknown>), ...Object.fromEntries(codes.map((field) => [field, canonicalCode((metadata as Record<string, unknown>)[field])])) };
  return { ...event, type, metadata: fixed };
}
