// Turns driver failures that mean "the database is not reachable right now" into the
// catalogued 503, and a statement the server cancelled at its time limit into its own 503 (the
// database is there, the query was too long); every other driver error stays what it is (a bug,
// rendered as 500).
import { ApiError } from '../errors.ts';
import { DatabaseUnavailableError } from './drivers/database-errors.ts';

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_MESSAGES = [/connection terminated/i, /timeout exceeded when trying to connect/i, /connection error/i, /not queryable/i, /Connection closed/i, /the database system is (starting up|shutting down)/i, /worker (exited|crashed|is closed)/i, /store is closed/i, /query read timeout/i];

export function isStorageUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isStorageUnavailable);
  return UNREACHABLE_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** SQLSTATE query_canceled: statement_timeout, or a cancel request (pg_cancel_backend). */
const QUERY_CANCELED = '57014';

export function isStatementTimeout(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isStatementTimeout);
  return error instanceof Error && (error as { code?: unknown }).code === QUERY_CANCELED;
}

export function toStorageError(error: unknown): unknown {
  if (isStatementTimeout(error)) return new ApiError('storage_timeout');
  return isStorageUnavailable(error) ? new ApiError('storage_unavailable') : error;
}

/** A unique constraint refused the write (SQLSTATE 23505): someone else wrote that row first. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '23505';
}
