// `switchyard migrate`: apply the migrations the store lacks, then exit (what `serve` does first).
import { Command } from 'commander';
import type { CliIo } from '../cli-io.ts';
import { openConfiguredStore } from '../open-configured-store.ts';
import { printJson } from '../output.ts';

export function migrateCommand(io: CliIo): Command {
  return new Command('migrate')
    .description('apply the migrations the store (DATABASE_URL, else SWITCHYARD_DATA_DIR) lacks, then exit')
    .option('--json', 'print {"applied": [versions]} as JSON')
    .action(async (options: { json?: boolean }) => {
      let applied: number[] = [];
      const store = await openConfiguredStore(io, (step) => {
        if (step.step === 'migrated') applied = step.applied;
      });
      await store.close();
      if (options.json) printJson(io, { applied });
      else io.stdout(applied.length ? `applied migrations ${applied.join(', ')}\n` : 'the schema is up to date\n');
    });
}
