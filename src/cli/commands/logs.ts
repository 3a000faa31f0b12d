// `switchyard logs` (a table, --json lines, --follow) and `switchyard logs aggregate` (counts,
// a terminal histogram, the facets) over the activity-log API.
import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'commander';
import type { ApiClient, QueryValue } from '../api-client.ts';
import type { CliIo } from '../cli-io.ts';
import { usageError } from '../cli-error.ts';
import { addClientOptions, apiClient } from '../client-options.ts';
import { linkTarget } from '../link-header.ts';
import { addLogFilterOptions, logFilterQuery } from '../log-filters.ts';
import { formatTable, printJson } from '../output.ts';
import { parseRepository, repoPath } from '../repository-argument.ts';
import { renderHistogram, type HistogramBucket } from '../terminal-histogram.ts';

interface LogEvent {
  id: number | bigint;
  received_at: string;
  type: string;
  outcome: string;
  trigger: string;
  pull_request: number | bigint | null;
}

interface ListOptions extends Record<string, unknown> {
  limit: string;
  json?: boolean;
  follow?: boolean;
  interval: string;
}

const positive = (name: string, text: string, max: number) => {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < 1 || value > max) throw usageError(`${name} must be an integer from 1 to ${max}, got "${text}"`);
  return value;
};

/** Events newest first, up to `limit`, following the `next` links. */
async function newestEvents(client: ApiClient, path: string, query: Record<string, QueryValue>, limit: number): Promise<LogEvent[]> {
  const events: LogEvent[] = [];
  let response = await client.request('GET', path, { query: { ...query, per_page: Math.min(100, limit) } });
  for (;;) {
    events.push(...(response.body as unknown as { events: LogEvent[] }).events);
    const next = linkTarget(response.headers.get('link'), 'next');
    if (!next || events.length >= limit) return events.slice(0, limit);
    response = await client.fetch('GET', next);
  }
}

function printEvents(io: CliIo, events: readonly LogEvent[], json: boolean, header: boolean): void {
  if (json) return events.forEach((event) => printJson(io, event));
  const table = formatTable(['RECEIVED', 'ID', 'TYPE', 'OUTCOME', 'PULL', 'TRIGGER'], events.map((e) => [e.received_at, e.id, e.type, e.outcome, e.pull_request, e.trigger]));
  io.stdout(header ? table : table.slice(table.indexOf('\n') + 1));
}

const byArrival = (a: LogEvent, b: LogEvent) => Date.parse(a.received_at) - Date.parse(b.received_at) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);

// A poll re-reads this much before the newest event seen: events written meanwhile with a
// slightly earlier received_at (a producer's own clock) still show, once (ids remembered).
const FOLLOW_OVERLAP_MS = 60_000;

/** Prints new events as they arrive, oldest first, until io.signal aborts. */
async function follow(io: CliIo, client: ApiClient, path: string, query: Record<string, QueryValue>, shown: LogEvent[], options: ListOptions): Promise<void> {
  const intervalMs = positive('--interval', options.interval, 3600) * 1000;
  const seen = new Map(shown.map((e) => [String(e.id), Date.parse(e.received_at)]));
  let newest = Math.max(Date.now() - FOLLOW_OVERLAP_MS, ...seen.values());
  let header = shown.length === 0;
  while (!io.signal?.aborted) {
    try {
      await sleep(intervalMs, undefined, { signal: io.signal });
    } catch {
      return; // aborted: the user asked to stop
    }
    const from = new Date(newest - FOLLOW_OVERLAP_MS).toISOString();
    const events = (await newestEvents(client, path, { ...query, received_from: from, received_to: undefined }, Number.MAX_SAFE_INTEGER)).filter((e) => !seen.has(String(e.id))).sort(byArrival);
    if (events.length === 0) continue;
    printEvents(io, events, options.json ?? false, header);
    header = false;
    for (const event of events) seen.set(String(event.id), Date.parse(event.received_at));
    newest = Math.max(newest, ...events.map((e) => Date.parse(e.received_at)));
    for (const [id, at] of seen) if (at < newest - 2 * FOLLOW_OVERLAP_MS) seen.delete(id);
  }
}

function aggregateCommand(io: CliIo): Command {
  return addClientOptions(addLogFilterOptions(
    new Command('aggregate')
      .description('count the events the same filters select: total, a histogram over the window, counts per type, outcome, trigger and pull request')
      .argument('<repository>', 'owner/repository'),
  ))
    .option('--json', 'print the API answer as JSON')
    .option('--rows <n>', 'most lines of the histogram (adjacent buckets are added together)', '24')
    .option('--top <n>', 'rows shown per facet', '10')
    .action(async (repository: string, options: Record<string, unknown> & { json?: boolean; rows: string; top: string }, command: Command) => {
      const ref = parseRepository(repository);
      const [rows, top] = [positive('--rows', options.rows, 200), positive('--top', options.top, 200)];
      const { body } = await apiClient(command, io).request('GET', `/v1/repos/${repoPath(ref)}/logs/aggregate`, { query: logFilterQuery(options) });
      if (options.json) return printJson(io, body);
      printAggregate(io, body as unknown as Aggregate, rows, top);
    });
}

interface Facet {
  value: string;
  count: number;
}

interface Aggregate {
  total: number;
  interval_size_seconds: number;
  histogram: HistogramBucket[];
  by_event_type: Facet[];
  by_outcome: Facet[];
  by_trigger: Facet[];
  by_pull_request: Facet[];
  by_batch_pull_request: Facet[];
}

function printAggregate(io: CliIo, result: Aggregate, rows: number, top: number): void {
  const first = result.histogram[0];
  const last = result.histogram[result.histogram.length - 1];
  io.stdout(`${result.total} events${first && last ? ` from ${first.start} to ${last.end}` : ''} (buckets of ${result.interval_size_seconds} s)\n\n`);
  io.stdout(renderHistogram(result.histogram, { rows, width: 50 }));
  const facets: [string, Facet[]][] = [
    ['OUTCOME', result.by_outcome],
    ['EVENT TYPE', result.by_event_type],
    ['TRIGGER', result.by_trigger],
    ['PULL REQUEST', result.by_pull_request],
    ['BATCH PULL REQUEST', result.by_batch_pull_request],
  ];
  for (const [title, rowsOf] of facets) {
    if (rowsOf.length === 0) continue;
    const shown = rowsOf.slice(0, top).map((f) => [f.value, f.count] as const);
    io.stdout(`\n${formatTable([title, 'COUNT'], shown)}`);
    if (rowsOf.length > top) io.stdout(`(${rowsOf.length - top} more; --top to show them)\n`);
  }
}

export function logsCommand(io: CliIo): Command {
  const logs = addClientOptions(addLogFilterOptions(
    new Command('logs')
      .description("read a repository's activity log, newest first (subcommand: aggregate)")
      .argument('<repository>', 'owner/repository'),
  ))
    .option('--limit <n>', 'how many events to show (pages are followed)', '20')
    .option('--json', 'print each event as one line of JSON')
    .option('--follow', 'then keep printing new events as they arrive, oldest first, until interrupted')
    .addOption(new Option('--interval <seconds>', 'with --follow: seconds between polls').default('2'))
    .action(async (repository: string, options: ListOptions, command: Command) => {
      const ref = parseRepository(repository);
      const limit = positive('--limit', options.limit, 100_000);
      const client = apiClient(command, io);
      const path = `/v1/repos/${repoPath(ref)}/logs`;
      const query = logFilterQuery(options);
      if (options.follow && (query.received_to !== undefined || options.since !== undefined)) throw usageError('--follow reads up to now: give no --to or --since');
      const events = await newestEvents(client, path, query, limit);
      const oldestFirst = options.follow ? [...events].sort(byArrival) : events;
      if (events.length > 0 || options.json) printEvents(io, oldestFirst, options.json ?? false, true);
      else io.stderr('no events in this window\n');
      if (options.follow) await follow(io, client, path, query, events, options);
    });
  logs.enablePositionalOptions().addCommand(aggregateCommand(io));
  return logs;
}
