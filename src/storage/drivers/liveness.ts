// A cheap "does the database answer?" for health checks, the same on both backends.
import { sql, type Kysely } from 'kysely';

/** Resolves when the database answers; rejects (DatabaseUnavailableError when unreachable) otherwise. */
export async function checkDatabaseLiveness(db: Kysely<any>): Promise<void> {
  await sql`select 1`.execute(db);
}
