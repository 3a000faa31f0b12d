// The two errors every query of either backend can fail with, so callers map failures without
// knowing which backend ran: one the server reported (with its SQLSTATE), one where no server answered.

/** The fields of a PostgreSQL ErrorResponse that callers may use; names as in pg's DatabaseError. */
export interface DatabaseErrorFields {
  readonly message: string;
  /** SQLSTATE, e.g. '23505' for a unique violation. */
  readonly code: string;
  readonly severity?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;
  readonly where?: string;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly dataType?: string;
  readonly constraint?: string;
  readonly routine?: string;
}

/** PostgreSQL refused the statement or ended the session; `code` (SQLSTATE) says why. */
export class DatabaseError extends Error implements DatabaseErrorFields {
  override readonly name = 'DatabaseError';
  readonly code: string;
  readonly severity?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;
  readonly where?: string;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly dataType?: string;
  readonly constraint?: string;
  readonly routine?: string;

  constructor(fields: DatabaseErrorFields, options?: ErrorOptions) {
    super(fields.message, options);
    this.code = fields.code;
    this.severity = fields.severity;
    this.detail = fields.detail;
    this.hint = fields.hint;
    this.position = fields.position;
    this.where = fields.where;
    this.schema = fields.schema;
    this.table = fields.table;
    this.column = fields.column;
    this.dataType = fields.dataType;
    this.constraint = fields.constraint;
    this.routine = fields.routine;
  }
}

/** No answer from the database: server unreachable, connection lost, timed out, or PGlite's worker gone. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  /** The cause's code when it has one: a system error ('ECONNREFUSED') or a SQLSTATE ('57P01'). */
  readonly code?: string;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    const code = (options?.cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') this.code = code;
  }
}
