// Writes every table of a store as a portable dump, from one consistent snapshot (a repeatable
// read transaction), so a server writing meanwhile cannot tear it.
import type { Store } from '../store.ts';
import { DUMP_VERSION, type DumpHeader, type TableSummary } from './dump-format.ts';
import { readMigrations, readSequences, readTables } from './schema-catalogue.ts';
import { readRows, TableChecksum } from './table-rows.ts';

/** Writes the dump line by line (each a JSON document); resolves to each table's count and checksum. */
export async function exportStore(store: Store, writeLine: (line: string) => Promise<void>): Promise<TableSummary[]> {
  return store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const tables = await readTables(trx);
      const header: DumpHeader = { switchyard_dump: DUMP_VERSION, created_at: new Date().toISOString(), backend: store.backend, migrations: await readMigrations(trx), tables: tables.map((t) => t.name) };
      await writeLine(JSON.stringify(header));
      const summaries: TableSummary[] = [];
      for (const table of tables) {
        await writeLine(JSON.stringify({ table: table.name, columns: table.columns }));
        const checksum = new TableChecksum();
        for await (const chunk of readRows(trx, table)) {
          for (const row of chunk) checksum.add(row);
          await writeLine(chunk.map((row) => JSON.stringify(row)).join('\n'));
        }
        await writeLine(JSON.stringify({ end: table.name, rows: checksum.rows, checksum: checksum.hex }));
        summaries.push({ table: table.name, rows: checksum.rows, checksum: checksum.hex });
      }
      await writeLine(JSON.stringify({ sequences: await readSequences(trx) }));
      await writeLine(JSON.stringify({ end_of_dump: true }));
      return summaries;
    });
}
