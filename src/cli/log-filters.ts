// The activity-log filters as flags, shared by `logs` and `logs aggregate`; each becomes the query
// parameter of the same name. Values are checked by the API (its 422 names the flag's parameter).
import type { Command } from 'commander';
import type { QueryValue } from './api-client.ts';
import { usageError } from './cli-error.ts';

const REPEATABLE = [
  ['pull-request', 'pull_request', 'keep events of this pull request number'],
  ['not-pull-request', 'not_pull_request', 'drop events of this pull request number'],
  ['batch-pull', 'batch_pull', "keep this batch pull request's lifecycle events"],
  ['not-batch-pull', 'not_batch_pull', 'drop what --batch-pull would keep'],
  ['event-type', 'event_type', 'keep this event type'],
  ['not-event-type', 'not_event_type', 'drop this event type'],
  ['outcome', 'outcome', 'keep this outcome (success, failure, pending, neutral)'],
  ['not-outcome', 'not_outcome', 'drop this outcome'],
  ['trigger', 'trigger', 'keep events with exactly this trigger'],
  ['not-trigger', 'not_trigger', 'drop events with exactly this trigger'],
] as const;

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function addLogFilterOptions(command: Command): Command {
  for (const [flag, , help] of REPEATABLE) command.option(`--${flag} <value>`, `${help} (repeatable)`, collect);
  return command
    .option('--base-ref <ref>', 'keep events of pull requests onto this base branch')
    .option('--from <date-time>', 'start of the window, with a timezone (default: --to minus one day)')
    .option('--to <date-time>', 'end of the window, with a timezone (default: now)')
    .option('--since <duration>', 'the window is the last 30m, 12h, 7d... (instead of --from)');
}

const DURATION = /^([0-9]+)([smhd])$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The query parameters of the filter flags given. */
export function logFilterQuery(options: Record<string, unknown>, now: () => Date = () => new Date()): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [flag, parameter] of REPEATABLE) {
    const key = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    query[parameter] = options[key] as string[] | undefined;
  }
  query.base_ref = options.baseRef as string | undefined;
  query.received_from = options.from as string | undefined;
  query.received_to = options.to as string | undefined;
  if (options.since !== undefined) {
    if (options.from !== undefined) throw usageError('give --since or --from, not both');
    const match = DURATION.exec(String(options.since));
    if (!match) throw usageError(`--since takes a duration such as 30m, 12h or 7d, got "${String(options.since)}"`);
    const to = options.to === undefined ? now() : new Date(String(options.to));
    if (Number.isNaN(to.getTime())) throw usageError(`--to is not a date-time: "${String(options.to)}"`);
    query.received_from = new Date(to.getTime() - Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]).toISOString();
    if (options.to === undefined) query.received_to = to.toISOString();
  }
  return query;
}
