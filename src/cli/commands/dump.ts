// `switchyard export` / `import`: the store's data as a portable dump (JSON lines, gzip when the
// file name ends in .gz), to move an embedded store to PostgreSQL and back.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { Command } from 'commander';
import { DumpError, type TableSummary } from '../../storage/dump/dump-format.ts';
import { exportStore } from '../../storage/dump/export-store.ts';
import { importStore } from '../../storage/dump/import-store.ts';
import type { CliIo } from '../cli-io.ts';
import { CliError } from '../cli-error.ts';
import { openConfiguredStore } from '../open-configured-store.ts';
import { formatTable, printJson } from '../output.ts';

const STORE_HELP = 'The store is the one the server uses: DATABASE_URL, else SWITCHYARD_DATA_DIR (stop a server using an embedded store first).';

function report(io: CliIo, summaries: TableSummary[], json: boolean | undefined, verb: string): void {
  if (json) return printJson(io, { tables: summaries });
  io.stderr(formatTable(['TABLE', 'ROWS', 'CHECKSUM'], summaries.map((s) => [s.table, s.rows, s.checksum])));
  io.stderr(`${verb} ${summaries.reduce((sum, s) => sum + s.rows, 0)} rows in ${summaries.length} tables\n`);
}

async function writeDump(io: CliIo, file: string, json: boolean | undefined): Promise<void> {
  const partial = `${file}.partial`;
  const output = createWriteStream(partial, { mode: 0o600 });
  const gzip = file.endsWith('.gz') ? createGzip() : undefined;
  const sink: Writable = gzip ?? output;
  gzip?.pipe(output);
  const store = await openConfiguredStore(io);
  try {
    const summaries = await exportStore(store, async (line) => {
      if (!sink.write(`${line}\n`)) await once(sink, 'drain');
    });
    sink.end();
    await once(output, 'close');
    await rename(partial, file);
    report(io, summaries, json, `exported to ${file}:`);
  } catch (error) {
    output.destroy();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await store.close();
  }
}

async function readDump(io: CliIo, file: string, json: boolean | undefined): Promise<void> {
  let input: Readable = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => input.once('open', () => resolve()).once('error', reject));
  await opened.catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${file}: ${error.code ?? error.message}`);
  });
  if (file.endsWith('.gz')) input = input.pipe(createGunzip());
  const store = await openConfiguredStore(io);
  try {
    const summaries = await importStore(store, createInterface({ input, crlfDelay: Infinity }));
    report(io, summaries, json, `imported from ${file}, verified:`);
  } catch (error) {
    if (error instanceof DumpError) throw new CliError(`import refused: ${error.message}`);
    throw new CliError(`import failed, nothing was imported: ${(error as Error).message}`);
  } finally {
    input.destroy();
    await store.close();
  }
}

const resolve = (io: CliIo, file: string) => (isAbsolute(file) ? file : join(io.cwd, file));

export function exportCommand(io: CliIo): Command {
  return new Command('export')
    .description(`write every table of the store to a portable dump (JSON lines; gzip if FILE ends in .gz) that import loads into another store. ${STORE_HELP}`)
    .argument('<file>', 'where to write the dump (written whole or not at all)')
    .option('--json', 'print each table\'s row count and checksum as JSON')
    .action((file: string, options: { json?: boolean }) => writeDump(io, resolve(io, file), options.json));
}

export function importCommand(io: CliIo): Command {
  return new Command('import')
    .description(`load a dump into a new, empty store at the same migrations, in one transaction verified by row counts and checksums. ${STORE_HELP}`)
    .argument('<file>', 'a dump written by export')
    .option('--json', 'print each table\'s row count and checksum as JSON')
    .action((file: string, options: { json?: boolean }) => readDump(io, resolve(io, file), options.json));
}
