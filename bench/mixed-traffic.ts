// The requests of the mixed-traffic benchmark (bench/mixed.ts): each kind with its share of the
// traffic and how one request of it is built. Scope reports go to the scope-report targets
// (bench/scope-report-load.ts) with their owner's CI key; the activity-log kinds go to the
// preloaded repository `bench/busy` (bench/activity-log-data.ts).
import { stringifyJson } from '../src/json/exact-json.ts';
import { generateEvents } from '../test/fixtures/event-fixtures.ts';
import { SERVICE_TOKEN } from '../test/support/test-app.ts';
import { byCommit, byNumber, pick, REPORT_BODY, targets } from './scope-report-load.ts';

export type Kind = 'commit report' | 'pull report' | 'ingest' | 'list' | 'aggregate';

/** Percent of the requests sent of each kind; bench/README.md states the same. */
export const MIX: Record<Kind, number> = { 'commit report': 35, 'pull report': 35, ingest: 10, list: 15, aggregate: 5 };

export const KIND_LABELS: Record<Kind, string> = {
  'commit report': 'PUT commits/{sha}/scopes',
  'pull report': 'PUT pulls/{n}/scopes',
  ingest: 'POST logs (100 events)',
  list: 'GET logs',
  aggregate: 'GET logs/aggregate',
};

export const KINDS = Object.keys(MIX) as Kind[];
export const INGEST_BATCH = 100;
/** Distinct ingestion batches; sent round after round, see ingestBody. */
const INGEST_POOL_BATCHES = 200;
const LOG_PATH = '/v1/repos/bench/busy/logs';

/** First pages, unfiltered and with filters served by different indexes, in the default window (the last day). */
const LIST_QUERIES = [
  'per_page=10',
  'per_page=100',
  'event_type=action.queue.checks_end&outcome=failure&per_page=20',
  'trigger=ci%20insights&per_page=50',
  'pull_request=42&pull_request=43',
  'base_ref=develop&not_event_type=action.queue.enter&not_event_type=action.queue.leave',
];

/** Aggregates over the default window (the last day): all events, and two filtered. */
const AGGREGATE_QUERIES = ['', '?outcome=failure', '?base_ref=main'];

export interface TrafficContext {
  /** Owner → secret of its CI key. */
  ciKeys: Map<string, string>;
  /** An admin key of the owner `bench`: a reader of the activity log. */
  readerKey: string;
  /** Serialized ingestion bodies of INGEST_BATCH events each. */
  ingestBodies: string[];
  ingestsBuilt: number;
}

export interface OneRequest {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/**
 * The next ingestion body. After the first round through the pool, idempotency keys get the
 * round's prefix, so a batch sent again stores its events again rather than being answered from
 * the keys it stored before: every ingestion request costs what a new one does.
 */
function ingestBody(t: TrafficContext): string {
  const n = t.ingestsBuilt++;
  const body = t.ingestBodies[n % t.ingestBodies.length]!;
  const round = Math.floor(n / t.ingestBodies.length);
  return round === 0 ? body : body.replaceAll('"idempotency_key":"', `"idempotency_key":"r${round}-`);
}

function scopeReport(t: TrafficContext, path: typeof byCommit): OneRequest {
  const target = pick(targets);
  return { method: 'PUT', path: path(target), headers: json(t.ciKeys.get(target.owner)!), body: REPORT_BODY };
}

const BUILDERS: Record<Kind, (t: TrafficContext) => OneRequest> = {
  'commit report': (t) => scopeReport(t, byCommit),
  'pull report': (t) => scopeReport(t, byNumber),
  ingest: (t) => ({ method: 'POST', path: LOG_PATH, headers: json(SERVICE_TOKEN), body: ingestBody(t) }),
  list: (t) => ({ method: 'GET', path: `${LOG_PATH}?${pick(LIST_QUERIES)}`, headers: { authorization: `Bearer ${t.readerKey}` } }),
  aggregate: (t) => ({ method: 'GET', path: `${LOG_PATH}/aggregate${pick(AGGREGATE_QUERIES)}`, headers: { authorization: `Bearer ${t.readerKey}` } }),
};

/** A kind drawn at random with the weights of `mix` (MIX, or MIX with a kind left out). */
export function drawKind(mix: Record<Kind, number> = MIX): Kind {
  let r = Math.random() * KINDS.reduce((sum, kind) => sum + mix[kind], 0);
  for (const kind of KINDS) if ((r -= mix[kind]) < 0) return kind;
  return KINDS[0]!;
}

export function buildRequest(kind: Kind, t: TrafficContext): OneRequest {
  return BUILDERS[kind](t);
}

/** The ingestion pool: fixture events received in the hour before `now`, in batches. */
export function ingestionBodies(now: number): string[] {
  const events = generateEvents({ seed: 2, count: INGEST_POOL_BATCHES * INGEST_BATCH, start: new Date(now - 3_600_000), end: new Date(now) });
  return Array.from({ length: INGEST_POOL_BATCHES }, (_, i) => stringifyJson({ events: events.slice(i * INGEST_BATCH, (i + 1) * INGEST_BATCH) }));
}
