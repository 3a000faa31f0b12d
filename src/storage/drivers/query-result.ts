// Kysely's QueryResult from a command tag, the same way for both backends (as Kysely's own
// PostgresDriver does: only data-changing commands report affected rows).
import type { QueryResult } from 'kysely';

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

export function toQueryResult<R>(command: string | undefined | null, rowCount: number | undefined | null, rows: R[]): QueryResult<R> {
  const counted = command !== undefined && command !== null && COUNTED_COMMANDS.has(command);
  return {
    rows,
    ...(counted ? { numAffectedRows: BigInt(rowCount ?? 0) } : {}),
  };
}
