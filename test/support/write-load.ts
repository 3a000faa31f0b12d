// Sustained writes through HTTP, each acknowledged one recorded in a ledger: event batches
// (every event with its own idempotency key), scope reports by commit and by pull request
// number. After a crash or an outage, verifyLedger asks the service for every one of them.
import { randomBytes } from 'node:crypto';
import { parseJson, stringifyJson } from '../../src/json/exact-json.ts';
import { EVENT_TYPES } from '../../src/domain/events/index.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';
import { SERVICE_TOKEN } from './test-app.ts';

export const LOAD_REPOSITORY = 'acme/widgets';

export interface Outcome {
  /** When the request was sent and when its answer (or failure) came, ms since the epoch. */
  at: number;
  end: number;
  kind: string;
  /** HTTP status, or 0 when no answer came (connection refused, reset). */
  status: number;
  retryAfter: string | null;
  error?: string;
}

export class WriteLedger {
  /** idempotency key → event id, for every event of an acknowledged (201) batch */
  readonly events = new Map<string, string>();
  /** sha → scopes of an acknowledged (204) report */
  readonly commits = new Map<string, string[]>();
  /** pull request number → scopes of an acknowledged (204) report */
  readonly pulls = new Map<string, string[]>();
  readonly outcomes: Outcome[] = [];

  acknowledged(): number {
    return this.events.size + this.commits.size + this.pulls.size;
  }
}

export interface LoadOptions {
  /** Where to send; read before each request, so a restarted server can be followed. */
  baseUrl: () => string;
  ledger: WriteLedger;
  /** Stop when this resolves. */
  until: Promise<unknown>;
  /** Stop a worker at its first unanswered request (the server was killed). */
  stopOnNoAnswer: boolean;
  ingestWorkers?: number;
  batchSize?: number;
  /** Extra read traffic beside the writes. */
  readers?: number;
}

async function call(options: LoadOptions, kind: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const at = Date.now();
  try {
    const response = await fetch(options.baseUrl() + path, {
      method,
      headers: { authorization: `Bearer ${SERVICE_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : stringifyJson(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    options.ledger.outcomes.push({ at, end: Date.now(), kind, status: response.status, retryAfter: response.headers.get('retry-after') });
    return { status: response.status, text };
  } catch (error) {
    const message = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    options.ledger.outcomes.push({ at, end: Date.now(), kind, status: 0, retryAfter: null, error: message });
    return { status: 0, text: '' };
  }
}

type Worker = (options: LoadOptions, stopped: () => boolean) => Promise<void>;

const run = (step: (options: LoadOptions, n: number) => Promise<number>): Worker => async (options, stopped) => {
  for (let n = 0; !stopped(); n++) {
    const status = await step(options, n);
    if (status === 0 && options.stopOnNoAnswer) return;
    if (status === 0 || status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const tag = () => randomBytes(6).toString('hex');

function ingester(worker: number): Worker {
  return run(async (options, n) => {
    const size = options.batchSize ?? 20;
    const keys = Array.from({ length: size }, (_, i) => `load-${tag()}-${worker}-${n}-${i}`);
    const events = keys.map((key, i) => ({ ...exampleEvent(EVENT_TYPES[(n * size + i) % EVENT_TYPES.length]!), trigger: `load-${worker}`, idempotency_key: key }));
    const { status, text } = await call(options, 'ingest', 'POST', `/v1/repos/${LOAD_REPOSITORY}/logs`, { events });
    if (status === 201) {
      const ids = (parseJson(text) as { ids: (number | bigint)[] }).ids;
      keys.forEach((key, i) => options.ledger.events.set(key, String(ids[i])));
    }
    return status;
  });
}

const commitReporter: Worker = run(async (options) => {
  const sha = randomBytes(20).toString('hex');
  const scopes = [`scope-${tag()}`, 'shared'];
  const { status } = await call(options, 'commit scopes', 'PUT', `/v1/repos/${LOAD_REPOSITORY}/commits/${sha}/scopes`, { scopes });
  if (status === 204) options.ledger.commits.set(sha, scopes);
  return status;
});

const pullReporter: Worker = run(async (options) => {
  // A fresh number each time, so the last acknowledged report of a number is its only one.
  const number = String(BigInt(`0x${randomBytes(7).toString('hex')}`));
  const scopes = [`scope-${tag()}`];
  const { status } = await call(options, 'pull scopes', 'PUT', `/v1/repos/${LOAD_REPOSITORY}/pulls/${number}/scopes`, { scopes });
  if (status === 204) options.ledger.pulls.set(number, scopes);
  return status;
});

const reader: Worker = run(async (options, n) => {
  const paths = [`/v1/products/${LOAD_REPOSITORY}`, `/v1/repos/${LOAD_REPOSITORY}/logs?per_page=20`, '/v1/default_products/acme', '/v1/admin/keys?owner=acme'];
  return (await call(options, 'read', 'GET', paths[n % paths.length]!)).status;
});

/** Runs the workers until `options.until` resolves (or, with stopOnNoAnswer, the server dies). */
export async function runWriteLoad(options: LoadOptions): Promise<void> {
  let stopped = false;
  void options.until.then(() => (stopped = true));
  const workers: Worker[] = [...Array.from({ length: options.ingestWorkers ?? 2 }, (_, i) => ingester(i)), commitReporter, pullReporter, ...Array.from({ length: options.readers ?? 0 }, () => reader)];
  await Promise.all(workers.map((worker) => worker(options, () => stopped)));
}

/**
 * Asks the service for every acknowledged write: re-sending each event's idempotency key must
 * return the id first given (a lost event would get a new one), and each scope report must read
 * back as sent. Returns what is missing or different.
 */
export async function verifyLedger(baseUrl: string, ledger: WriteLedger): Promise<string[]> {
  const problems: string[] = [];
  const headers = { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' };
  const keys = [...ledger.events.keys()];
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    const events = chunk.map((key) => ({ type: 'action.refresh', metadata: {}, trigger: 'verify', idempotency_key: key }));
    const response = await fetch(`${baseUrl}/v1/repos/${LOAD_REPOSITORY}/logs`, { method: 'POST', headers, body: JSON.stringify({ events }) });
    const text = await response.text();
    if (response.status !== 201) {
      problems.push(`re-sending events answered ${response.status} ${text.slice(0, 200)}`);
      continue;
    }
    const ids = (parseJson(text) as { ids: (number | bigint)[] }).ids.map(String);
    chunk.forEach((key, j) => {
      if (ids[j] !== ledger.events.get(key)) problems.push(`event ${key} acknowledged as id ${ledger.events.get(key)} is now ${ids[j]}: it was lost`);
    });
  }
  const readBack = async (path: string, scopes: string[], what: string) => {
    const response = await fetch(baseUrl + path, { headers });
    const text = await response.text();
    const body = response.status === 200 ? (JSON.parse(text) as { scopes: string[] }) : undefined;
    if (!body || JSON.stringify(body.scopes) !== JSON.stringify(scopes)) problems.push(`${what} acknowledged with ${JSON.stringify(scopes)} reads back ${response.status} ${text.slice(0, 200)}`);
  };
  for (const [sha, scopes] of ledger.commits) await readBack(`/v1/repos/${LOAD_REPOSITORY}/commits/${sha}/scopes`, scopes, `commit ${sha}`);
  for (const [number, scopes] of ledger.pulls) await readBack(`/v1/repos/${LOAD_REPOSITORY}/pulls/${number}/scopes`, scopes, `pull request ${number}`);
  return problems;
}
