// Validates a batch of ingested events in full (DESIGN.md §7): every invalid event is reported,
// by index, in one 422; a valid batch comes back normalised, outcome derived. Validators are
// compiled once, at module load.
import type { ValidateFunction } from 'ajv';
import { compileBodyValidator, type ValidationIssue } from '../../validation/validators.ts';
import { batchIdOf, batchPullRequestOf } from './batch-keys.ts';
import { deriveOutcome } from './derive-outcome.ts';
import { EVENT_TYPES, isEventType, type EventType } from './event-type.ts';
import { hoistRecursiveSchemas } from './hoist-recursive-schemas.ts';
import { INGEST_MAX_EVENTS, IngestEvent, RECEIVED_AT_MAX_LEAD_MS, type ValidIngestEvent } from './ingest-event.ts';
import { eventIssues, receivedAtInFutureIssue, unknownTypeIssue } from './ingest-issues.ts';
import { metadataSchemas } from './metadata-schemas.ts';
import { withSpecSpellings } from './public-spellings.ts';
import { parseDateTime } from '../date-time.ts';

export type IngestValidation = { ok: true; events: ValidIngestEvent[] } | { ok: false; issues: ValidationIssue[] };

type Loc = (string | number)[];
type Checked = { ok: true; event: ValidIngestEvent } | { ok: false; issues: ValidationIssue[] };

/** What the envelope validator guarantees about a valid event (int64 already made bigint). */
interface EnvelopeFields {
  type: EventType;
  metadata: Record<string, unknown>;
  trigger: string;
  pull_request?: bigint | null;
  base_ref?: string | null;
  received_at?: string;
  idempotency_key?: string;
}

const envelopeValidator = compileBodyValidator(IngestEvent);

const metadataValidators = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, compileBodyValidator(hoistRecursiveSchemas(metadataSchemas[type]))]),
) as Record<EventType, ValidateFunction>;

/**
 * Validates `events` (the body's array) against `now`. Validation normalises in place: int64
 * fields of the input objects become bigint.
 */
export function validateIngestEvents(events: unknown[], now: Date): IngestValidation {
  // Out of bounds, the batch is refused as a whole: no point checking a 100 000-event body event by event.
  if (events.length < 1 || events.length > INGEST_MAX_EVENTS) return { ok: false, issues: [batchSizeIssue(events.length)] };
  const issues: ValidationIssue[] = [];
  const valid: ValidIngestEvent[] = [];
  events.forEach((event, index) => {
    const checked = checkEvent(withSpecSpellings(event), ['body', 'events', index], now);
    if (checked.ok) valid.push(checked.event);
    else issues.push(...checked.issues);
  });
  return issues.length === 0 ? { ok: true, events: valid } : { ok: false, issues };
}

function batchSizeIssue(count: number): ValidationIssue {
  return { loc: ['body', 'events'], msg: `must hold 1 to ${INGEST_MAX_EVENTS} events`, type: count < 1 ? 'too_short' : 'too_long' };
}

function checkEvent(event: unknown, loc: Loc, now: Date): Checked {
  const issues = [...envelopeIssues(event, loc), ...metadataIssues(event, loc)];
  const receivedAt = receivedAtOf(event, now);
  if (receivedAt && receivedAt.getTime() - now.getTime() > RECEIVED_AT_MAX_LEAD_MS) issues.push(receivedAtInFutureIssue(loc));
  if (issues.length > 0) return { ok: false, issues };
  // A format-valid date-time always parses; this only guards against the two ever disagreeing.
  if (!receivedAt) {
    return { ok: false, issues: [{ loc: [...loc, 'received_at'], msg: 'must be a valid date-time with a timezone', type: 'format' }] };
  }
  return { ok: true, event: normalise(event as EnvelopeFields, receivedAt) };
}

/** `received_at` as a Date (now when absent), or undefined when it is not a date-time. */
function receivedAtOf(event: unknown, now: Date): Date | undefined {
  const value = isRecord(event) ? event.received_at : undefined;
  if (value === undefined) return new Date(now.getTime());
  return typeof value === 'string' ? parseDateTime(value) : undefined;
}

function envelopeIssues(event: unknown, loc: Loc): ValidationIssue[] {
  if (envelopeValidator(event)) return [];
  const errors = envelopeValidator.errors ?? [];
  const issues = eventIssues(errors.filter((error) => error.instancePath !== '/type'), loc);
  if (!errors.some((error) => error.instancePath === '/type')) return issues;
  return [unknownTypeIssue((event as { type?: unknown }).type, loc), ...issues];
}

/** Metadata is checked even when the envelope is not, so one 422 lists every problem. */
function metadataIssues(event: unknown, loc: Loc): ValidationIssue[] {
  if (!isRecord(event) || !isEventType(event.type) || !isRecord(event.metadata)) return [];
  const validate = metadataValidators[event.type];
  return validate(event.metadata) ? [] : eventIssues(validate.errors, [...loc, 'metadata']);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function normalise(fields: EnvelopeFields, receivedAt: Date): ValidIngestEvent {
  const { type, metadata } = fields;
  return {
    type,
    metadata,
    trigger: fields.trigger,
    pullRequest: fields.pull_request ?? null,
    baseRef: fields.base_ref ?? null,
    receivedAt,
    idempotencyKey: fields.idempotency_key ?? null,
    outcome: deriveOutcome(type, metadata),
    batchPullRequest: batchPullRequestOf(type, metadata),
    batchId: batchIdOf(metadata),
  };
}
