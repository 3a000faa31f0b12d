// `switchyard config validate|simulate|show|refresh`: the configuration file through the API
// (DESIGN.md §13). validate and simulate send a local file to the simulators, as the hosted
// service's own `mergify config simulate` does; show and refresh read what the server holds.
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { CONFIGURATION_PATHS } from '../../domain/configuration/configuration-paths.ts';
import type { CliIo } from '../cli-io.ts';
import { usageError } from '../cli-error.ts';
import { addClientOptions, apiClient } from '../client-options.ts';
import { printJson } from '../output.ts';
import { parsePullNumber, parseRepository, repoPath } from '../repository-argument.ts';

interface Report {
  source: { path: string; sha: string } | null;
  valid: boolean;
  errors: { loc: (string | number)[]; msg: string; line?: number }[];
  not_supported: string[];
  in_force: { path: string; sha: string } | null;
}

/** The file given, else the first of the configuration paths in the current directory. */
async function readConfiguration(given: string | undefined): Promise<{ path: string; text: string }> {
  for (const path of given ? [given] : CONFIGURATION_PATHS) {
    try {
      return { path, text: await readFile(path, 'utf8') };
    } catch (error) {
      if (given) throw usageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  throw usageError(`no configuration file: give one, or run where one of ${CONFIGURATION_PATHS.join(', ')} is`);
}

function printReport(io: CliIo, report: Report): void {
  io.stdout(report.source ? `file: ${report.source.path} (${report.source.sha.slice(0, 12)})\n` : 'no configuration file on the default branch: the merge-queue API is the source\n');
  io.stdout(report.valid ? 'valid\n' : `invalid; in force: ${report.in_force ? report.in_force.path : 'the defaults'}\n`);
  for (const error of report.errors) io.stdout(`  ${error.loc.join('.') || '(file)'}${error.line ? ` (line ${error.line})` : ''}: ${error.msg}\n`);
  if (report.not_supported.length) io.stdout(`not supported by Switchyard (these do nothing): ${report.not_supported.join(', ')}\n`);
}

export function configCommand(io: CliIo): Command {
  const config = new Command('config').description('the configuration file: validate or simulate a local one, show or refresh the one in force');

  addClientOptions(config.command('validate'))
    .description('validate a configuration file for a repository (its `extends` is read from the server)')
    .argument('<repository>', 'owner/repository')
    .argument('[file]', `the file (default: the first of ${CONFIGURATION_PATHS.join(', ')})`)
    .action(async (repository: string, file: string | undefined, _options: unknown, command: Command) => {
      const { path, text } = await readConfiguration(file);
      const { body } = await apiClient(command, io).request('POST', `/v1/repos/${repoPath(parseRepository(repository))}/configuration-simulator`, { body: { mergify_yml: text } });
      io.stdout(`${path}: ${(body as { message: string }).message}\n`);
    });

  addClientOptions(config.command('simulate'))
    .description('the Summary a pull request would get under a configuration file, nothing written')
    .argument('<repository>', 'owner/repository')
    .argument('<number>', 'the pull request number')
    .argument('[file]', `the file (default: the first of ${CONFIGURATION_PATHS.join(', ')})`)
    .option('--json', 'print the API answer as JSON')
    .action(async (repository: string, number: string, file: string | undefined, options: { json?: boolean }, command: Command) => {
      const { text } = await readConfiguration(file);
      const { body } = await apiClient(command, io).request('POST', `/v1/repos/${repoPath(parseRepository(repository))}/pulls/${parsePullNumber(number)}/simulator`, { body: { mergify_yml: text } });
      if (options.json) return printJson(io, body);
      const simulation = body as { title: string; summary: string };
      io.stdout(`${simulation.title}\n\n${simulation.summary}\n`);
    });

  for (const [name, method, description] of [['show', 'GET', 'the configuration report: the file, its errors, what is not supported'], ['refresh', 'POST', 'read the file on the default branch again, then show the report']] as const) {
    addClientOptions(config.command(name))
      .description(description)
      .argument('<repository>', 'owner/repository')
      .option('--json', 'print the API answer as JSON')
      .action(async (repository: string, options: { json?: boolean }, command: Command) => {
        const path = `/v1/repos/${repoPath(parseRepository(repository))}/configuration${name === 'refresh' ? '/refresh' : ''}`;
        const { body } = await apiClient(command, io).request(method, path);
        if (options.json) printJson(io, body);
        else printReport(io, body as unknown as Report);
      });
  }
  return config;
}
