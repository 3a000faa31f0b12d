// What a dump needs to know of the schema, read from PostgreSQL's catalogue rather than listed by
// hand, so tables added by later migrations are dumped too: the tables of the store's schema with
// their columns, in an order where every table comes after those its foreign keys point to; the
// sequences; the migrations applied.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.ts';

export interface ColumnInfo {
  name: string;
  /** format_type(): what a text value is cast to on load. */
  type: string;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
}

export interface MigrationInfo {
  version: number;
  name: string;
}

/** Migrations are the schema's own bookkeeping: compared between dump and store, never copied. */
export const MIGRATIONS_TABLE = 'schema_migrations';

type Db = Kysely<Database>;

export async function readTables(db: Db): Promise<TableInfo[]> {
  const columns = await sql<{ table: string; column: string; type: string }>`
    SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND c.relname <> ${MIGRATIONS_TABLE}
    ORDER BY c.relname, a.attnum`.execute(db);
  const tables = new Map<string, TableInfo>();
  for (const row of columns.rows) {
    const table = tables.get(row.table) ?? { name: row.table, columns: [] };
    table.columns.push({ name: row.column, type: row.type });
    tables.set(row.table, table);
  }
  const references = await sql<{ child: string; parent: string }>`
    SELECT child.relname AS child, parent.relname AS parent
    FROM pg_constraint k
    JOIN pg_class child ON child.oid = k.conrelid
    JOIN pg_class parent ON parent.oid = k.confrelid
    WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace AND k.conrelid <> k.confrelid`.execute(db);
  return inDependencyOrder([...tables.values()], references.rows);
}

/** Parents before children; a cycle of foreign keys cannot be loaded table by table and is refused. */
function inDependencyOrder(tables: TableInfo[], references: { child: string; parent: string }[]): TableInfo[] {
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  let remaining = tables;
  while (remaining.length > 0) {
    const ready = remaining.filter((t) => references.every((r) => r.child !== t.name || placed.has(r.parent) || !tables.some((x) => x.name === r.parent)));
    if (ready.length === 0) throw new Error(`foreign keys form a cycle between ${remaining.map((t) => t.name).join(', ')}: cannot order them for a load`);
    for (const table of ready) placed.add(table.name);
    ordered.push(...ready);
    remaining = remaining.filter((t) => !placed.has(t.name));
  }
  return ordered;
}

export interface SequenceState {
  name: string;
  /** null: never used (nextval not yet called). */
  last_value: string | null;
}

export async function readSequences(db: Db): Promise<SequenceState[]> {
  const result = await sql<SequenceState>`
    SELECT sequencename AS name, last_value::text AS last_value FROM pg_sequences
    WHERE schemaname = current_schema() ORDER BY sequencename`.execute(db);
  return result.rows;
}

export async function readMigrations(db: Db): Promise<MigrationInfo[]> {
  const result = await sql<MigrationInfo>`SELECT version, name FROM ${sql.table(MIGRATIONS_TABLE)} ORDER BY version`.execute(db);
  return result.rows.map((row) => ({ version: Number(row.version), name: row.name }));
}
