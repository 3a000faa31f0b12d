// Loads a portable dump into a store that holds nothing yet, in one transaction: it refuses a
// store whose migrations differ from the dump's or that holds any row the migrations did not
// write, loads every table with its triggers off (the dump already holds what they would derive),
// restores the sequences, and commits only if every table's count and checksum, read back from
// the store, equal the dump's.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../database.ts';
import type { Store } from '../store.ts';
import { DumpError, DUMP_VERSION, type DumpHeader, type SequencesLine, type TableEnd, type TableStart, type TableSummary } from './dump-format.ts';
import { MIGRATIONS_TABLE, readMigrations, readTables, type TableInfo } from './schema-catalogue.ts';
import { checksumOf, insertRows, TableChecksum, type RowValues } from './table-rows.ts';

const BATCH_ROWS = 2000;

/** The dump's lines, one JSON document each, in order. */
export type DumpLines = AsyncIterable<string>;

function expectObject<T>(line: string | undefined, key: string, what: string): T {
  if (line === undefined) throw new DumpError(`the dump ends early: ${what} expected`);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new DumpError(`the dump is damaged: ${what} expected, got a line that is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !(key in value)) throw new DumpError(`the dump is damaged: ${what} expected`);
  return value as T;
}

const describeMigrations = (list: { version: number; name: string }[]) => list.map((m) => `${m.version}_${m.name}`).join(', ') || 'none';

/**
 * Rows that a migration did not write: a migration's rows carry the transaction id (xmin) of its
 * row in schema_migrations, since each migration applies in one transaction with that row.
 */
async function rowsAddedSinceMigrations(trx: Transaction<Database>, table: string): Promise<number> {
  const result = await sql<{ n: string }>`
    SELECT count(*)::text AS n FROM ${sql.table(table)} t
    WHERE NOT EXISTS (SELECT 1 FROM ${sql.table(MIGRATIONS_TABLE)} m WHERE m.xmin = t.xmin)`.execute(trx);
  return Number(result.rows[0]!.n);
}

async function checkTarget(trx: Transaction<Database>, header: DumpHeader): Promise<Map<string, TableInfo>> {
  if (header.switchyard_dump !== DUMP_VERSION) throw new DumpError(`this dump is format ${header.switchyard_dump}; this version of Switchyard reads format ${DUMP_VERSION}`);
  const migrations = await readMigrations(trx);
  if (describeMigrations(migrations) !== describeMigrations(header.migrations)) {
    throw new DumpError(`the dump was taken at migrations ${describeMigrations(header.migrations)} but this store is at ${describeMigrations(migrations)}: export and import with the same version of Switchyard`);
  }
  const tables = new Map((await readTables(trx)).map((t) => [t.name, t]));
  for (const name of tables.keys()) {
    const added = await rowsAddedSinceMigrations(trx, name);
    if (added > 0) throw new DumpError(`this store is not empty (table ${name} has ${added} rows): import only into a new store`);
  }
  return tables;
}

function matchingTable(tables: Map<string, TableInfo>, start: TableStart): TableInfo {
  const table = tables.get(start.table);
  const describe = (t: { columns: { name: string; type: string }[] }) => t.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  if (!table) throw new DumpError(`the dump has a table ${start.table} this store does not have`);
  if (describe(table) !== describe(start)) throw new DumpError(`table ${start.table} differs: the dump has (${describe(start)}), this store (${describe(table)})`);
  return table;
}

async function loadTable(trx: Transaction<Database>, table: TableInfo, lines: AsyncIterator<string>): Promise<TableSummary> {
  const fromFile = new TableChecksum();
  let batch: RowValues[] = [];
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new DumpError(`the dump ends inside table ${table.name}`);
    if (!next.value.startsWith('[')) {
      await insertRows(trx, table, batch);
      const end = expectObject<TableEnd>(next.value, 'end', `the end of table ${table.name}`);
      if (end.end !== table.name || end.rows !== fromFile.rows || end.checksum !== fromFile.hex) {
        throw new DumpError(`the dump is damaged: table ${table.name} should hold ${end.rows} rows with checksum ${end.checksum}, the file holds ${fromFile.rows} with ${fromFile.hex}`);
      }
      return { table: table.name, rows: end.rows, checksum: end.checksum };
    }
    const row = JSON.parse(next.value) as RowValues;
    if (row.length !== table.columns.length) throw new DumpError(`the dump is damaged: a row of ${table.name} has ${row.length} values for ${table.columns.length} columns`);
    fromFile.add(row);
    batch.push(row);
    if (batch.length >= BATCH_ROWS) {
      await insertRows(trx, table, batch);
      batch = [];
    }
  }
}

async function restoreSequences(trx: Transaction<Database>, line: SequencesLine): Promise<void> {
  for (const sequence of line.sequences) {
    if (sequence.last_value === null) await sql`ALTER SEQUENCE ${sql.table(sequence.name)} RESTART`.execute(trx);
    else await sql`SELECT setval(quote_ident(${sequence.name})::regclass, ${sequence.last_value}::bigint, true)`.execute(trx);
  }
}

/** Loads the dump; resolves to each table's count and checksum as verified in the store. */
export async function importStore(store: Store, source: DumpLines): Promise<TableSummary[]> {
  const lines = source[Symbol.asyncIterator]();
  const read = async () => {
    const next = await lines.next();
    return next.done ? undefined : next.value;
  };
  const header = expectObject<DumpHeader>(await read(), 'switchyard_dump', 'the dump header');
  return store.db.transaction().execute(async (trx) => {
    const tables = await checkTarget(trx, header);
    const missing = [...tables.keys()].filter((name) => !header.tables.includes(name));
    if (missing.length > 0) throw new DumpError(`the dump has no table ${missing.join(', ')}, which this store has`);
    // The rows the migrations wrote (a signing key, say) give way to the dump's; triggers stay
    // off until commit so no derived table counts a row twice.
    for (const table of [...tables.values()].reverse()) {
      await sql`ALTER TABLE ${sql.table(table.name)} DISABLE TRIGGER USER`.execute(trx);
      await sql`DELETE FROM ${sql.table(table.name)}`.execute(trx);
    }
    const loaded: TableSummary[] = [];
    for (const name of header.tables) {
      const table = matchingTable(tables, expectObject<TableStart>(await read(), 'table', `the start of table ${name}`));
      loaded.push(await loadTable(trx, table, lines));
    }
    await restoreSequences(trx, expectObject<SequencesLine>(await read(), 'sequences', 'the sequences'));
    expectObject(await read(), 'end_of_dump', 'the end of the dump');
    for (const table of tables.values()) await sql`ALTER TABLE ${sql.table(table.name)} ENABLE TRIGGER USER`.execute(trx);
    for (const summary of loaded) {
      const stored = await checksumOf(trx, tables.get(summary.table)!);
      if (stored.rows !== summary.rows || stored.hex !== summary.checksum) {
        throw new DumpError(`table ${summary.table} reads back ${stored.rows} rows with checksum ${stored.hex}, not the dump's ${summary.rows} with ${summary.checksum}: nothing was imported`);
      }
    }
    return loaded;
  });
}
