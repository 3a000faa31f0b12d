// `switchyard serve`: the server, in this process (what `npm start` and the container run).
import { Command } from 'commander';
import type { CliIo } from '../cli-io.ts';

export function serveCommand(io: CliIo): Command {
  return new Command('serve')
    .description('run the Switchyard server (configured by the environment: HOST, PORT, DATABASE_URL, ...; see the README)')
    .action(async () => {
      const { runServer } = await import('../../main.ts');
      await runServer(io.env);
    });
}
