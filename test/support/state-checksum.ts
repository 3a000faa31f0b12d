// A fingerprint of everything stored: per table of the store's schema, its row count and a
// hash of its rows as text. Two equal fingerprints mean nothing was written in between.
import { sql } from 'kysely';
import type { Store } from '../../src/storage/store.ts';

export interface TableState {
  table: string;
  rows: number;
  hash: string;
}

export async function stateChecksum(store: Store): Promise<TableState[]> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(store.db);
  // No tables would make every "nothing was written" check pass without looking at anything.
  if (tables.rows.length === 0) throw new Error('stateChecksum: the store has no tables in its schema');
  const parts = tables.rows.map(
    ({ name }) => sql`SELECT ${name}::text AS table, count(*)::text AS rows, md5(coalesce(string_agg(r::text, E'\n' ORDER BY r::text), '')) AS hash FROM ${sql.table(name)} r`,
  );
  const result = await sql<{ table: string; rows: string; hash: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(store.db);
  return result.rows.map((row) => ({ table: row.table, rows: Number(row.rows), hash: row.hash })).sort((a, b) => a.table.localeCompare(b.table));
}

/** The tables whose content differs between two fingerprints. */
export function changedTables(before: TableState[], after: TableState[]): string[] {
  const key = (s: TableState) => `${s.rows}:${s.hash}`;
  const earlier = new Map(before.map((s) => [s.table, key(s)]));
  const later = new Map(after.map((s) => [s.table, key(s)]));
  return [...new Set([...earlier.keys(), ...later.keys()])].filter((table) => earlier.get(table) !== later.get(table));
}
