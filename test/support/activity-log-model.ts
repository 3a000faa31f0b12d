// An independent model of the activity log's filters (spec §4.4, DESIGN.md §8): plain filtering
// of the events a test ingested, written from the spec and never from the service's SQL, so the
// listing (and the aggregation) can be checked against it.
import { deriveOutcome, type EventType, type IngestEventInput, type Outcome } from '../../src/domain/events/index.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

export interface ModelEvent {
  id: bigint;
  repository: string;
  receivedAt: number;
  type: EventType;
  outcome: Outcome;
  trigger: string;
  pullRequest: bigint | null;
  baseRef: string | null;
  /** speculative_check_pull_request.number of checks_start / checks_end. */
  batchPull: bigint | null;
  batchId: string | null;
}

/** A filter query as a client writes it; absent parameters are not sent. */
export interface ModelQuery {
  pull_request?: bigint[];
  not_pull_request?: bigint[];
  base_ref?: string;
  batch_pull?: bigint[];
  not_batch_pull?: bigint[];
  event_type?: EventType[];
  not_event_type?: EventType[];
  outcome?: Outcome[];
  not_outcome?: Outcome[];
  trigger?: string[];
  not_trigger?: string[];
  received_from?: string;
  received_to?: string;
}

const CHECKS = new Set<EventType>(['action.queue.checks_start', 'action.queue.checks_end']);
const BISECTION = new Set<EventType>(['action.queue.batch_bisection_start', 'action.queue.batch_bisection_end']);
const DAY_MS = 86_400_000;

/** A valid event of `type` received at `when`, with envelope and metadata fields changed. */
export function eventAt(type: EventType, when: number, changes: Partial<IngestEventInput> = {}, metadata: Record<string, unknown> = {}): IngestEventInput {
  const example = exampleEvent(type);
  return { ...example, ...changes, metadata: { ...example.metadata, ...metadata }, received_at: new Date(when).toISOString() };
}

const big = (value: unknown): bigint | null => (value === null || value === undefined ? null : BigInt(value as number | bigint));

/** The ingested events as the model sees them; `ids` are those the ingestion answered. */
export function modelEvents(repository: string, inputs: readonly IngestEventInput[], ids: readonly (number | bigint)[], now: number): ModelEvent[] {
  return inputs.map((input, index) => {
    const metadata = input.metadata as { batch_id?: string; speculative_check_pull_request?: { number: number | bigint } };
    return {
      id: BigInt(ids[index]!),
      repository,
      receivedAt: input.received_at === undefined ? now : Date.parse(input.received_at),
      type: input.type,
      outcome: deriveOutcome(input.type, input.metadata),
      trigger: input.trigger,
      pullRequest: big(input.pull_request),
      baseRef: input.base_ref ?? null,
      batchPull: CHECKS.has(input.type) ? big(metadata.speculative_check_pull_request?.number) : null,
      batchId: typeof metadata.batch_id === 'string' ? metadata.batch_id.toLowerCase() : null,
    };
  });
}

/** The window of a query: [from, to), to defaulting to `now` and from to one day before to. */
export function modelWindow(query: ModelQuery, now: number): { from: number; to: number } {
  const to = query.received_to === undefined ? now : Date.parse(query.received_to);
  return { from: query.received_from === undefined ? to - DAY_MS : Date.parse(query.received_from), to };
}

/** What the listing must return for `query`, newest first (received_at, then id, descending). */
export function expectedEvents(all: readonly ModelEvent[], repository: string, query: ModelQuery, now: number): ModelEvent[] {
  const { from, to } = modelWindow(query, now);
  const mine = all.filter((e) => e.repository === repository);
  const inBatch = batchMembership(mine, query.batch_pull ?? query.not_batch_pull);
  return mine
    .filter((e) => e.receivedAt >= from && e.receivedAt < to)
    .filter((e) => keeps(query.pull_request, query.not_pull_request, e.pullRequest))
    .filter((e) => query.base_ref === undefined || e.baseRef === query.base_ref)
    .filter((e) => keeps(query.event_type, query.not_event_type, e.type))
    .filter((e) => keeps(query.outcome, query.not_outcome, e.outcome))
    .filter((e) => keeps(query.trigger, query.not_trigger, e.trigger))
    .filter((e) => (query.batch_pull ? inBatch(e) : query.not_batch_pull ? !inBatch(e) : true))
    .sort((a, b) => b.receivedAt - a.receivedAt || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0));
}

/** Include list: the value is one of them; exclude list: it is not (a null value is never excluded). */
function keeps<T>(include: readonly T[] | undefined, exclude: readonly T[] | undefined, value: T | null): boolean {
  if (include) return value !== null && include.includes(value);
  if (exclude) return value === null || !exclude.includes(value);
  return true;
}

/** Checks events recording one of the numbers, and the bisection events of their batches, at any time. */
function batchMembership(events: readonly ModelEvent[], numbers: readonly bigint[] | undefined): (e: ModelEvent) => boolean {
  if (!numbers) return () => false;
  const named = (e: ModelEvent) => e.batchPull !== null && numbers.includes(e.batchPull);
  const batches = new Set(events.filter((e) => named(e) && e.batchId !== null).map((e) => e.batchId));
  return (e) => named(e) || (BISECTION.has(e.type) && e.batchId !== null && batches.has(e.batchId));
}

/** The query string of a model query: each array value as a repeated parameter. */
export function searchOf(query: ModelQuery, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  for (const [name, value] of Object.entries(extra)) search.append(name, value);
  return search.toString();
}
