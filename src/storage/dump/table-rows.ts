// A table's rows as PostgreSQL's text form of each column (exact for every type, and read back
// by a cast), read in chunks through a cursor inside the caller's transaction, with a checksum
// that does not depend on row order, so a dump and the store it was loaded into can be compared.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.ts';
import type { TableInfo } from './schema-catalogue.ts';

export type RowValues = (string | null)[];

const CHUNK = 2000;
const MODULUS = 1n << 128n;

/** Sum of each row's hash (first 128 bits of SHA-256 of its JSON), modulo 2^128: order-free. */
export class TableChecksum {
  #sum = 0n;
  rows = 0;

  add(row: RowValues): void {
    this.#sum = (this.#sum + BigInt(`0x${createHash('sha256').update(JSON.stringify(row)).digest('hex').slice(0, 32)}`)) % MODULUS;
    this.rows++;
  }

  get hex(): string {
    return this.#sum.toString(16).padStart(32, '0');
  }
}

/** Every row of `table`, chunk by chunk; must run inside a transaction (cursors live in one). */
export async function* readRows(trx: Transaction<Database> | Kysely<Database>, table: TableInfo): AsyncGenerator<RowValues[]> {
  const columns = table.columns.map((c, i) => sql`${sql.ref(c.name)}::text AS ${sql.ref(`c${i}`)}`);
  await sql`DECLARE switchyard_dump NO SCROLL CURSOR FOR SELECT ${sql.join(columns)} FROM ${sql.table(table.name)}`.execute(trx);
  try {
    for (;;) {
      const chunk = await sql<Record<string, string | null>>`FETCH ${sql.raw(String(CHUNK))} FROM switchyard_dump`.execute(trx);
      if (chunk.rows.length === 0) return;
      yield chunk.rows.map((row) => table.columns.map((_, i) => row[`c${i}`] ?? null));
    }
  } finally {
    await sql`CLOSE switchyard_dump`.execute(trx);
  }
}

/** Loads rows given as text, one statement per call: each column an array parameter, cast back to its type. */
export async function insertRows(trx: Transaction<Database>, table: TableInfo, rows: readonly RowValues[]): Promise<void> {
  if (rows.length === 0) return;
  const arrays = table.columns.map((_, i) => rows.map((row) => row[i] ?? null));
  const names = sql.join(table.columns.map((c) => sql.ref(c.name)));
  const casts = sql.join(table.columns.map((c, i) => sql`${sql.ref(`u.c${i}`)}::${sql.raw(c.type)}`));
  const aliases = sql.join(table.columns.map((_, i) => sql.ref(`c${i}`)));
  const unnest = sql.join(arrays.map((values) => sql`${values}::text[]`));
  await sql`INSERT INTO ${sql.table(table.name)} (${names}) OVERRIDING SYSTEM VALUE
    SELECT ${casts} FROM unnest(${unnest}) AS u (${aliases})`.execute(trx);
}

/** The checksum of a table as stored now. */
export async function checksumOf(trx: Transaction<Database>, table: TableInfo): Promise<TableChecksum> {
  const checksum = new TableChecksum();
  for await (const chunk of readRows(trx, table)) for (const row of chunk) checksum.add(row);
  return checksum;
}
