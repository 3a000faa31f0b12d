// `switchyard`: the command line. A thin client of the HTTP API (keys, repos, scopes, logs,
// queue) plus the server-side commands (serve, migrate, export, import). runCli is what
// bin/switchyard.mjs runs, and what tests call in-process with their own CliIo.
import { Command, CommanderError } from 'commander';
import type { CliIo } from './cli-io.ts';
import { CliError, EXIT_USAGE } from './cli-error.ts';
import { exportCommand, importCommand } from './commands/dump.ts';
import { keysCommand } from './commands/keys.ts';
import { migrateCommand } from './commands/migrate.ts';
import { logsCommand } from './commands/logs.ts';
import { queueCommand } from './commands/queue.ts';
import { configCommand } from './commands/config.ts';
import { reposCommand } from './commands/repos.ts';
import { scopesCommand } from './commands/scopes.ts';
import { serveCommand } from './commands/serve.ts';

const EXIT_CODES_HELP = `
Exit status: 0 done, 1 the API refused or failed (its detail is printed), 2 usage error,
3 Switchyard could not be reached.`;

export function buildProgram(io: CliIo): Command {
  const program = new Command('switchyard')
    .description('Switchyard: scope reports, products, activity log and merge queue, from the command line')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError('(add --help for usage)')
    // Options belong to the command they follow: `logs aggregate R --json` is aggregate's --json.
    .enablePositionalOptions();
  for (const command of [serveCommand(io), migrateCommand(io), exportCommand(io), importCommand(io), keysCommand(io), reposCommand(io), scopesCommand(io), logsCommand(io), queueCommand(io), configCommand(io)]) program.addCommand(command);
  // Every command, at any depth, writes through io and throws instead of exiting.
  const configure = (command: Command) => {
    command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
    command.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/** Runs one command line; resolves to the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
    if (error instanceof CliError) {
      io.stderr(`switchyard: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

/**
 * A reader that stops early (`switchyard logs R --json | head -1`) closes the pipe: end quietly,
 * as Unix tools do, instead of crashing on EPIPE with a stack trace.
 */
function endOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
}

/** The process entry: real streams and environment, SIGINT/SIGTERM ending long commands. */
export async function main(): Promise<void> {
  const stop = new AbortController();
  const io: CliIo = {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    signal: stop.signal,
  };
  const argv = process.argv.slice(2);
  // `serve` installs its own handlers (drain, close the store); others stop what they are doing.
  if (argv[0] !== 'serve') {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
    process.stdout.on('error', endOnClosedPipe);
  }
  process.exitCode = await runCli(argv, io);
}
