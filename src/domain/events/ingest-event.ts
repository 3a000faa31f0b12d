// One event as a producer sends it to POST /v1/repos/{owner}/{repository}/logs (DESIGN.md §7),
// and the normalised form the store writes.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../int64.ts';
import { EVENT_TYPES, type EventType, type Outcome } from './event-type.ts';
import { EVENT_TYPE_ALIAS_NAMES } from './public-spellings.ts';
import { DateTime, Nullable, StrictObject, StringEnum } from '../schema-primitives.ts';

export const INGEST_MAX_EVENTS = 1000;

/** How far ahead of the server clock a producer's `received_at` may be (clock skew). */
export const RECEIVED_AT_MAX_LEAD_MS = 5 * 60 * 1000;

const Text255 = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });

export const IngestEvent = StrictObject(
  {
    type: StringEnum([...EVENT_TYPES, ...EVENT_TYPE_ALIAS_NAMES], {
      description: 'One of the 46 event types; selects the shape of metadata. `action.github_actions`, the public API spelling, is stored as `action.hosting_actions`.',
    }),
    metadata: Type.Object({}, {
      additionalProperties: true,
      description: 'Shape depends on type: the metadata schema of the type (docs/events.md). An abort or dequeue code `GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED`, the public API spelling, is stored as `HOSTING_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED`.',
    }),
    trigger: Text255('What caused the event; an exact-match filter target'),
    pull_request: Type.Optional(Nullable(Int64({ description: 'Pull request number' }))),
    base_ref: Type.Optional(Nullable(Text255('Base branch of the pull request'))),
    received_at: Type.Optional(DateTime({ description: 'Defaults to now; at most 5 minutes in the future' })),
    idempotency_key: Type.Optional(Text255('A key already stored for the repository returns the first id and stores nothing')),
  },
  { title: 'IngestEvent' },
);

export const IngestRequest = StrictObject(
  { events: Type.Array(IngestEvent, { minItems: 1, maxItems: INGEST_MAX_EVENTS }) },
  { title: 'IngestRequest' },
);

/** An event as a producer writes it in JSON; numbers may be bigint when parsed exactly. */
export interface IngestEventInput {
  type: EventType;
  metadata: Record<string, unknown>;
  trigger: string;
  pull_request?: number | bigint | null;
  base_ref?: string | null;
  received_at?: string;
  idempotency_key?: string;
}

/** A valid event, normalised for storage: defaults applied, outcome and batch keys derived. */
export interface ValidIngestEvent {
  type: EventType;
  /** As parsed, with every int64 field turned into a bigint. */
  metadata: Record<string, unknown>;
  trigger: string;
  pullRequest: bigint | null;
  baseRef: string | null;
  receivedAt: Date;
  idempotencyKey: string | null;
  outcome: Outcome;
  /** speculative_check_pull_request.number of checks_start / checks_end, else null. */
  batchPullRequest: bigint | null;
  /** metadata.batch_id (lower-case) on the types that carry it, else null. */
  batchId: string | null;
}
