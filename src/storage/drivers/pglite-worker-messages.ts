// The messages between PgliteWorkerClient (main thread) and pglite-worker.mjs. The worker is plain
// JavaScript, so these types are its contract; change both sides together.
import type { DatabaseErrorFields } from './database-errors.ts';

export interface PgliteWorkerData {
  /** 'memory://' or a directory (created if missing). */
  readonly dataDir: string;
}

export type PgliteRequest =
  /** One statement, extended protocol, $1.. parameters. */
  | { readonly id: number; readonly kind: 'query'; readonly sql: string; readonly params: readonly unknown[] }
  /** Any number of statements, simple protocol, no parameters (migrations). */
  | { readonly id: number; readonly kind: 'exec'; readonly sql: string }
  | { readonly id: number; readonly kind: 'close' };

/** Values exactly as PostgreSQL printed them; type-parsers.ts turns them into JS values. */
export interface RawResult {
  readonly fields: ReadonlyArray<{ readonly name: string; readonly dataTypeID: number }>;
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** The command tag's verb ('INSERT', ...), absent when several statements ran. */
  readonly command?: string;
  readonly rowCount?: number;
}

/** id 0 answers the start-up: ok once PGlite is open, or the reason it could not open. */
export type PgliteResponse =
  | { readonly id: number; readonly ok: true; readonly result?: RawResult }
  | { readonly id: number; readonly ok: false; readonly error: PgliteWorkerError };

/** A database error carries `code`; anything else (a bug, a broken data directory) has only a message. */
export type PgliteWorkerError = DatabaseErrorFields | { readonly message: string; readonly code?: undefined };
