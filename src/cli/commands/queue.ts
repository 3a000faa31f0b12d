// `switchyard queue status|show|add|remove|pause|unpause`: the merge queue's API (DESIGN.md §9),
// whose answers keep the public shapes (MergeQueueStatus, MergeQueuePullRequest,
// MergeQueuePauseResponse).
import { Command, Option } from 'commander';
import { stringifyJson } from '../../json/exact-json.ts';
import type { CliIo } from '../cli-io.ts';
import { addClientOptions, apiClient } from '../client-options.ts';
import { formatTable, printJson } from '../output.ts';
import { parsePullNumber, parseRepository, repoPath } from '../repository-argument.ts';

interface StatusPull {
  number: number | bigint;
  queued_at?: string;
  scopes?: string[];
  priority_alias?: string;
}

interface Batch {
  id: string;
  name: string;
  parent_ids: string[];
  status: { code: string };
  scopes: string[];
  all_scopes?: boolean | null;
  pull_requests: StatusPull[];
  estimated_merge_at: string | null;
}

interface Pause {
  paused: boolean;
  reason?: string | null;
  paused_at?: string | null;
}

interface Status {
  mode: string;
  batches: Batch[];
  waiting_pull_requests: StatusPull[];
  pause?: Pause | null;
}

const queuePath = (repository: string) => `/v1/repos/${repoPath(parseRepository(repository))}/merge-queue`;
const pullPath = (repository: string, number: string) => `${queuePath(repository)}/pull/${parsePullNumber(number)}`;

function printStatus(io: CliIo, status: Status): void {
  const pause = status.pause?.paused ? `paused since ${status.pause.paused_at ?? '?'}: ${status.pause.reason ?? ''}` : 'running';
  io.stdout(`mode ${status.mode}, ${pause}\n`);
  if (status.batches.length > 0) {
    const names = new Map(status.batches.map((b) => [b.id, b.name]));
    const rows = status.batches.map((b) => [
      b.name,
      b.status.code,
      b.all_scopes ? '(all scopes)' : b.scopes.join(',') || '-',
      b.pull_requests.map((p) => `#${p.number}`).join(' '),
      b.parent_ids.map((id) => names.get(id) ?? id).join(', ') || '-',
      b.estimated_merge_at,
    ]);
    io.stdout(`\n${formatTable(['BATCH', 'STATUS', 'SCOPES', 'PULL REQUESTS', 'PARENTS', 'ESTIMATED MERGE'], rows)}`);
  }
  if (status.waiting_pull_requests.length > 0) {
    io.stdout(`\n${formatTable(['WAITING', 'PRIORITY', 'QUEUED AT', 'SCOPES'], status.waiting_pull_requests.map((p) => [`#${p.number}`, p.priority_alias, p.queued_at, (p.scopes ?? []).join(',')]))}`);
  }
  if (status.batches.length === 0 && status.waiting_pull_requests.length === 0) io.stdout('the queue is empty\n');
}

function printFields(io: CliIo, value: Record<string, unknown>): void {
  const rows = Object.entries(value).map(([key, field]) => [key, field !== null && typeof field === 'object' ? stringifyJson(field) : (field as string)]);
  io.stdout(formatTable(['FIELD', 'VALUE'], rows));
}

export function queueCommand(io: CliIo): Command {
  const queue = new Command('queue').description('read and drive the merge queue of a repository');
  const json = '--json';

  addClientOptions(queue.command('status'))
    .description("the queue's batches, waiting pull requests, mode and pause, for one base branch")
    .argument('<repository>', 'owner/repository')
    .option('--branch <name>', 'the base branch (default: the repository default)')
    .option(json, 'print the API answer (MergeQueueStatus) as JSON')
    .action(async (repository: string, options: { branch?: string; json?: boolean }, command: Command) => {
      const { body } = await apiClient(command, io).request('GET', `${queuePath(repository)}/status`, { query: { branch: options.branch } });
      if (options.json) printJson(io, body);
      else printStatus(io, body as unknown as Status);
    });

  addClientOptions(queue.command('show'))
    .description('one queued pull request: its position, rule, estimates')
    .argument('<repository>', 'owner/repository')
    .argument('<number>', 'the pull request number')
    .option(json, 'print the API answer (MergeQueuePullRequest) as JSON')
    .action(async (repository: string, number: string, options: { json?: boolean }, command: Command) => {
      const { body } = await apiClient(command, io).request('GET', pullPath(repository, number));
      if (options.json) printJson(io, body);
      else printFields(io, body as Record<string, unknown>);
    });

  addClientOptions(queue.command('add'))
    .description('put a pull request in the merge queue')
    .argument('<repository>', 'owner/repository')
    .argument('<number>', 'the pull request number')
    .option('--queue-rule <name>', 'the queue rule (default: the first rule covering its base branch)')
    .addOption(new Option('--priority <priority>', 'its priority (default: from the priority rules, else medium)').choices(['high', 'medium', 'low']))
    .option(json, 'print the API answer (MergeQueuePullRequest) as JSON')
    .action(async (repository: string, number: string, options: { queueRule?: string; priority?: string; json?: boolean }, command: Command) => {
      const body = { ...(options.queueRule ? { queue_rule: options.queueRule } : {}), ...(options.priority ? { priority: options.priority } : {}) };
      const answer = await apiClient(command, io).request('PUT', pullPath(repository, number), { body });
      if (options.json) return printJson(io, answer.body);
      const queued = answer.body as { position?: number; queue_rule_name?: string };
      io.stdout(`queued #${parsePullNumber(number)} at position ${queued.position ?? '?'} (rule ${queued.queue_rule_name ?? '?'})\n`);
    });

  addClientOptions(queue.command('remove'))
    .description('take a pull request out of the merge queue')
    .argument('<repository>', 'owner/repository')
    .argument('<number>', 'the pull request number')
    .action(async (repository: string, number: string, _options: unknown, command: Command) => {
      await apiClient(command, io).request('POST', `${pullPath(repository, number)}/dequeue`);
      io.stdout(`removed #${parsePullNumber(number)} from the queue\n`);
    });

  addClientOptions(queue.command('pause'))
    .description('pause the merge queue: nothing starts or merges; running checks go on')
    .argument('<repository>', 'owner/repository')
    .requiredOption('--reason <text>', 'why (at most 255 characters)')
    .option(json, 'print the API answer (MergeQueuePauseResponse) as JSON')
    .action(async (repository: string, options: { reason: string; json?: boolean }, command: Command) => {
      const { body } = await apiClient(command, io).request('PUT', `${queuePath(repository)}/pause`, { body: { reason: options.reason } });
      if (options.json) return printJson(io, body);
      io.stdout(`paused: ${(body as unknown as Pause).reason ?? options.reason}\n`);
    });

  addClientOptions(queue.command('unpause'))
    .description('let the merge queue go on')
    .argument('<repository>', 'owner/repository')
    .action(async (repository: string, _options: unknown, command: Command) => {
      await apiClient(command, io).request('DELETE', `${queuePath(repository)}/pause`);
      io.stdout('unpaused\n');
    });

  return queue;
}
