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

/**
 * Splits a file into statements at top-level semicolons: not inside a string ('…', E'…' with
 * backslash escapes), a quoted identifier ("…"), a dollar-quoted body ($$…$$ or $tag$…$tag$) or a
 * comment. Comments outside those are dropped.
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const end = quotedEnd(text, i);
    if (end !== undefined) {
      current += text.slice(i, end);
      i = end;
    } else if (text.startsWith('--', i)) {
      const newline = text.indexOf('\n', i);
      i = newline === -1 ? text.length : newline;
    } else if (text.startsWith('/*', i)) {
      i = blockCommentEnd(text, i);
      current += ' '; // a comment separates tokens
    } else if (c === ';') {
      statements.push(current.trim());
      current = '';
      i++;
    } else {
      current += c;
      i++;
    }
  }
  statements.push(current.trim());
  return statements.filter((statement) => statement.length > 0);
}

/** Where a string, quoted identifier or dollar-quoted body starting at `at` ends (past its close), if one starts there. */
function quotedEnd(text: string, at: number): number | undefined {
  const c = text[at];
  const escapes = (c === 'E' || c === 'e') && text[at + 1] === "'" && !/[\w$]/.test(text[at - 1] ?? '');
  if (c === "'" || c === '"' || escapes) {
    const quote = escapes ? "'" : c;
    for (let i = escapes ? at + 2 : at + 1; i < text.length; i++) {
      if (escapes && text[i] === '\\') i++;
      else if (text[i] === quote) {
        if (text[i + 1] !== quote) return i + 1;
        i++; // a doubled quote stands for itself
      }
    }
    throw new Error(`Unterminated ${quote === '"' ? 'quoted identifier' : 'string'} in migration at offset ${at}`);
  }
  if (c !== '$' || /[\w$]/.test(text[at - 1] ?? '')) return undefined;
  const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(at, at + 66))?.[0];
  if (tag === undefined) return undefined; // $1, or a $ inside a name
  const close = text.indexOf(tag, at + tag.length);
  if (close === -1) throw new Error(`Unterminated ${tag} body in migration at offset ${at}`);
  return close + tag.length;
}

/** Past the end of the block comment starting at `at`; PostgreSQL's nest. */
function blockCommentEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length - 1; i++) {
    if (text.startsWith('/*', i)) {
      depth++;
      i++;
    } else if (text.startsWith('*/', i)) {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error(`Unterminated comment in migration at offset ${at}`);
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
