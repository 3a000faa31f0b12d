// Forward-only numbered SQL migrations (migrations/NNNN_name.sql), applied at start-up in order.
// Safe to run twice and from two processes at once: an advisory lock serialises runners, and
// each file applies in its own transaction together with its row in schema_migrations.
import { readdir, readFile } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const LOCK_ID = 727_001; // arbitrary, fixed: "switchyard migrations"

interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Splits a file on semicolons that end a line, except inside $$-quoted function bodies. */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of text.split('\n')) {
    if (/^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.split('$$').length - 1) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, '').trim());
      current = [];
    }
  }
  statements.push(current.join('\n').trim());
  return statements.filter((statement) => statement.length > 0);
}

export async function loadMigrations(): Promise<Migration[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      statements: splitStatements(await readFile(new URL(file, MIGRATIONS_DIR), 'utf8')),
    })),
  );
}

/** Applies the migrations not yet applied; returns the versions it applied. */
export async function migrate(db: Kysely<Database>): Promise<number[]> {
  const migrations = await loadMigrations();
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(trx);
  });
  const applied: number[] = [];
  for (const migration of migrations) {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
      const done = await trx.selectFrom('schema_migrations').select('version').where('version', '=', migration.version).executeTakeFirst();
      if (done) return;
      for (const statement of migration.statements) await sql.raw(statement).execute(trx);
      await trx.insertInto('schema_migrations').values({ version: migration.version, name: migration.name }).execute();
      applied.push(migration.version);
    });
  }
  return applied;
}
